package org.lockstep.testing.db;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link PgBouncer} in front of the test server ({@link PgBouncer#inFrontOfTestServer}) for the tests of one class:
 * started before its first test and stopped after its last; the class's tests are skipped where PgBouncer is not
 * installed. Registered on a static field of a {@link DatabaseTest} class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final PgBouncerExtension bouncer = new PgBouncerExtension(20, 2, PgBouncer.IGNORING_OPTIONS);
 * ...
 * bouncer.get().url(database)
 * }</pre>
 */
public final class PgBouncerExtension implements BeforeAllCallback, AfterAllCallback {

    private final int maxClientConn;
    private final int poolSize;
    private final String ignoreStartupParameters;
    private PgBouncer bouncer;

    /**
     * @param maxClientConn           PgBouncer's {@code max_client_conn}: client connections it accepts
     * @param poolSize                its {@code default_pool_size}: server connections per database and role
     * @param ignoreStartupParameters its {@code ignore_startup_parameters}: {@link PgBouncer#REFUSING_OPTIONS} (as
     *                                README's {@code pgbouncer.ini}) or {@link PgBouncer#IGNORING_OPTIONS}
     */
    public PgBouncerExtension(int maxClientConn, int poolSize, String ignoreStartupParameters) {
        this.maxClientConn = maxClientConn;
        this.poolSize = poolSize;
        this.ignoreStartupParameters = ignoreStartupParameters;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        assumeTrue(PgBouncer.installed(), "PgBouncer is not installed (apt-get install pgbouncer; .ci/run installs "
                + "it): the tests through it are skipped");
        bouncer = PgBouncer.inFrontOfTestServer(maxClientConn, poolSize, ignoreStartupParameters);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (bouncer != null) {
            bouncer.close();
            bouncer = null;
        }
    }

    /** The running PgBouncer, between the class's first test and its last. */
    public PgBouncer get() {
        if (bouncer == null) {
            throw new IllegalStateException("PgBouncer runs only while the class's tests do");
        }
        return bouncer;
    }
}
