package org.lockstep.store;

/**
 * What a Lockstep write tells the database about itself, in one place (db/migration/R__10_write_protocol.sql). Every
 * write of a customer calls the one SQL function {@code lockstep_write(user, session, request, guard, token, secret,
 * announce, restore)} in its own statement, which sets these settings for the rest of the transaction ({@code SET LOCAL}); the
 * customer triggers read them (R__20_customer_triggers.sql). A {@code NULL} argument leaves a setting as it was.
 *
 * <p>Nothing here is trusted for who the writer is: the database records the login (or, for a login that may name its
 * operators, {@link Setting#USER}), and a lease is proven only by {@link Setting#SECRET}, which only its holder's
 * client has ({@link LeaseSecrets}). The secret travels as a bound parameter, never in the statement's text, so
 * {@code pg_stat_activity} never shows it.
 */
public final class WriteProtocol {

    /** The settings, each a PostgreSQL custom setting of the {@code lockstep.} prefix. */
    public enum Setting {
        /** The operator's name as the client knows it; recorded only where the login may name its operators. */
        USER("lockstep.user"),
        /** The writer id (editing.WriterIds): carried in change notifications so that a client knows its own. */
        SESSION("lockstep.session"),
        /** The write's request id, kept beside the version it makes (ADR 0009). */
        REQUEST("lockstep.request"),
        /** {@code unleased} or {@code fenced}; none for a writer that must be refused loudly by another's lease. */
        GUARD("lockstep.guard"),
        /** The fencing token of a {@code fenced} write. */
        TOKEN("lockstep.token"),
        /** The lease secret, proving the writer holds the live lease. */
        SECRET("lockstep.secret"),
        /** {@code client} or {@code bulk}: the writer announces its change itself. */
        ANNOUNCE("lockstep.announce"),
        /**
         * The earlier version whose values a save restores (V23); the trigger keeps it in the history's
         * {@code restored_from} and refuses a version the customer's history does not hold.
         */
        RESTORE("lockstep.restore");

        private final String name;

        Setting(String name) {
            this.name = name;
        }

        /** The setting's name, e.g. {@code lockstep.user}. */
        public String settingName() {
            return name;
        }
    }

    /** A Lockstep save's or delete's guard: what another's live lease does to it. */
    enum Guard {
        /** No lease of another: another's live lease skips the row (zero rows; the client reads why). */
        UNLEASED("unleased"),
        /** Under the writer's own live lease, by token and secret; anything else skips the row. */
        FENCED("fenced");

        final String value;

        Guard(String value) {
            this.value = value;
        }
    }

    private WriteProtocol() {
    }

    /**
     * The call for a guarded write of one customer, as a condition that always holds, for its WHERE clause: binds
     * {@code :user}, {@code :session}, {@code :request}, {@code :secret}, when fenced {@code :token}, and for a save
     * {@code :restored} (the version it restores, {@code NULL} for none).
     *
     * @param announcedByClient whether the writer announces its change itself after commit ({@link Announcements})
     * @param save              whether the write is a save, which may restore a version; a delete restores none
     */
    static String guarded(Guard guard, boolean announcedByClient, boolean save) {
        return "lockstep_write(:user, :session, :request, '" + guard.value + "', "
                + (guard == Guard.FENCED ? "CAST(:token AS bigint)" : "NULL") + ", :secret, "
                + (announcedByClient ? "'client'" : "NULL") + ", " + (save ? "CAST(:restored AS bigint)" : "NULL")
                + ")";
    }

    /** The call naming the writer only ({@code :user}, {@code :session}, {@code :request}): a creation. */
    static final String NAMES_WRITER = "lockstep_write(:user, :session, :request, NULL, NULL, NULL, NULL, NULL)";

    /** As {@link #NAMES_WRITER}, without a request id: {@code :user}, {@code :session}. */
    static final String NAMES_USER_AND_SESSION = "lockstep_write(:user, :session, NULL, NULL, NULL, NULL, NULL, NULL)";

    /** Tells the notify trigger that the writer announces one {@code MANY} at its end ({@link Announcements}). */
    static final String ANNOUNCES_BULK = "lockstep_write(NULL, NULL, NULL, NULL, NULL, NULL, 'bulk', NULL)";
}
