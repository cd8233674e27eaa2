package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

/**
 * The database's schema was migrated by a newer Lockstep than this one: this client refuses to start, since its
 * statements are written for an older schema and would fail, or worse, write what the newer rules forbid. Every front
 * end says so in one sentence that names both versions and what to do (the command line with exit 1, the desktop in
 * a dialog).
 */
public final class SchemaTooNewException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String databaseVersion;
    private final String knownVersion;

    /**
     * @param databaseVersion the schema version the database is at (Flyway's, e.g. "23")
     * @param knownVersion    the latest version this Lockstep's migrations reach (e.g. "22")
     */
    public SchemaTooNewException(String databaseVersion, String knownVersion) {
        super(tr("This database was upgraded by a newer Lockstep (schema version {0}; this Lockstep knows up to "
                + "version {1}) — upgrade Lockstep on this computer, then start it again", databaseVersion,
                knownVersion));
        this.databaseVersion = databaseVersion;
        this.knownVersion = knownVersion;
    }

    /** The schema version the database is at. */
    public String databaseVersion() {
        return databaseVersion;
    }

    /** The latest schema version this Lockstep knows. */
    public String knownVersion() {
        return knownVersion;
    }
}
