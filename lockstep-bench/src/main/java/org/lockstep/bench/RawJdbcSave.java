package org.lockstep.bench;

import org.lockstep.store.Announcer;
import org.lockstep.store.CustomerWriteSql;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.PositionalSave;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.jdbi.v3.core.JdbiException;
import org.lockstep.domain.CustomerData;

/**
 * The baseline that {@code lockstep-bench save} compares Lockstep's store with: the very statement of
 * {@link JdbiCustomerRepository#save} ({@link CustomerWriteSql#SAVE_SQL}) run by the same {@link PositionalSave}
 * on a plain pooled connection in auto-commit mode, its announcement queued like the store's on the same
 * {@link Announcer}, with no validation, no handle, no mapping but the version and no conflict handling: the least
 * work Lockstep's versioned save can do. Not for the application's use.
 */
public final class RawJdbcSave {

    private static final PositionalSave STATEMENT = PositionalSave.of(CustomerWriteSql.SAVE_SQL);

    /** The client session the raw path writes as (the same work as the store's: a lease check and the setting). */
    private static final String SESSION = "raw-jdbc-bench";
    private static final String SECRET = org.lockstep.store.LeaseSecrets.ofThisProcess().secretOf(SESSION);

    private final DataSource dataSource;
    private final Announcer announcer;
    private final String user;

    /**
     * @param jdbi       the store's database, whose announcer sends this path's announcements too
     * @param dataSource the same pool the store uses
     * @param user       written to {@code updated_by}
     */
    public RawJdbcSave(org.jdbi.v3.core.Jdbi jdbi, DataSource dataSource, String user) {
        this.dataSource = dataSource;
        this.announcer = Announcer.of(jdbi);
        this.user = user;
    }

    /**
     * Runs the versioned {@code UPDATE … WHERE id = ? AND version = ?} once.
     *
     * @param data values written as they are (the caller passes normalized, valid values)
     * @return the new version, or empty when zero rows matched (a conflict)
     * @throws SQLException as the driver throws it
     */
    public OptionalLong save(long id, long baseVersion, CustomerData data) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            OptionalLong version = STATEMENT.run(c, new PositionalSave.Values(id, baseVersion, user, SESSION,
                    java.util.UUID.randomUUID().toString(), 0, SECRET, data), (rs, ctx) -> rs.getLong("version"))
                    .map(OptionalLong::of).orElse(OptionalLong.empty());
            if (version.isPresent()) {
                // The store's save announces itself after its commit (store.Announcements): the same queue here.
                announcer.announce(id, version.getAsLong(), "UPDATE", SESSION);
            }
            return version;
        } catch (JdbiException e) { // PositionalSave wraps the driver's exception as Jdbi does
            throw (SQLException) e.getCause();
        }
    }
}
