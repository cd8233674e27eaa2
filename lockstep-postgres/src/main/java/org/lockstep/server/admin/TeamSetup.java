package org.lockstep.server.admin;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.lockstep.server.Database;

/**
 * {@code lockstep admin setup}: a team server's owner, groups, database and schema (docs/admin-guide.md, "Roles and
 * privileges"), as {@code docs/admin/team-roles.sql} makes them, then the schema migrated as the owner, so that
 * {@code afterMigrate.sql} grants the groups what they may do. Run again (after an upgrade, say), it changes only what
 * is not yet so, and its {@link Report} says what that was.
 *
 * <p>A superuser does all of it; the migration runs as the owner ({@code SET ROLE}), so the owner needs no password.
 * The owner itself may do what the file asks of the database it owns and the migration; whatever else is still to do
 * (a group to create, say) is refused with {@link NotPermittedHere}, naming it.
 */
public final class TeamSetup {

    /** The owner's name when none is given. */
    public static final String DEFAULT_OWNER = "lockstep_owner";

    static final String FILE = "team-roles.sql";

    private static final String WHO = """
            SELECT r.rolsuper,
                   coalesce(pg_has_role(session_user, (SELECT oid FROM pg_roles WHERE rolname = ?), 'MEMBER'), false)
            FROM pg_roles r WHERE r.rolname = session_user""";

    private static final String SCHEMA_STATE = """
            SELECT (SELECT coalesce(max(installed_rank), 0) FROM flyway_schema_history),
                   (SELECT version FROM flyway_schema_history WHERE version IS NOT NULL AND success
                    ORDER BY installed_rank DESC LIMIT 1)""";

    /** Every privilege held on the schema and what is in it, as one digest: equal before and after, none changed. */
    private static final String PRIVILEGES = """
            SELECT md5(coalesce(string_agg(x, ',' ORDER BY x), '')) FROM (
                SELECT c.oid::regclass::text || coalesce(c.relacl::text, '') AS x
                FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
              UNION ALL
                SELECT p.oid::regprocedure::text || coalesce(p.proacl::text, '')
                FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
              UNION ALL
                SELECT 'schema' || coalesce(n.nspacl::text, '') FROM pg_namespace n WHERE n.nspname = 'public'
            ) o""";

    private TeamSetup() {
    }

    /**
     * What a setup did.
     *
     * @param statements    what {@code team-roles.sql} ran (none when the server was already so)
     * @param versionBefore the schema's version before, or {@code null} for an empty database
     * @param versionAfter  its version after
     * @param migrated      whether Flyway applied anything
     * @param privileges    whether any privilege on the schema's objects changed (the grants of {@code afterMigrate})
     * @param migratedAs    the role the migration ran as (the owner)
     */
    public record Report(List<PsqlFile.Sent> statements, String versionBefore, String versionAfter, boolean migrated,
            boolean privileges, String migratedAs) {

        /** Whether the setup changed nothing at all. */
        public boolean nothingChanged() {
            return statements.isEmpty() && !migrated && !privileges;
        }
    }

    /**
     * Sets the team server up as described above.
     *
     * @param login    an administrator's login: a superuser, or the owner
     * @param owner    the owner's role name
     * @param database Lockstep's database
     * @throws NotPermittedHere when {@code login} may not do what is still to do; nothing after it was done
     * @throws SQLException     when the server refuses otherwise
     */
    public static Report run(ServerLogin login, String owner, String database) throws SQLException {
        boolean superuser;
        boolean ownerMember;
        String me;
        try (Connection c = login.connect("postgres"); PreparedStatement q = c.prepareStatement(WHO)) {
            q.setString(1, owner);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                superuser = rs.getBoolean(1);
                ownerMember = rs.getBoolean(2);
            }
            me = c.getMetaData().getUserName();
        }
        if (!superuser && !ownerMember) {
            throw new NotPermittedHere("only a superuser can create Lockstep's roles and database, and only a"
                    + " superuser or the owner " + owner + " can migrate its schema; you are signed in as " + me
                    + ": connect as one of them, or ask your database administrator to run lockstep admin setup", null);
        }
        List<PsqlFile.Sent> statements;
        try {
            statements = PsqlFile.resource(FILE).run(login, "postgres", Map.of("owner", owner, "database", database),
                    role -> {
                        throw new IllegalStateException(FILE + " sets no password");
                    }, false);
        } catch (PsqlFile.Refused refused) {
            if (!"42501".equals(refused.getSQLState())) {
                throw refused;
            }
            throw new NotPermittedHere("only a superuser can " + refused.statement().sql().replaceAll("\\s+", " ")
                    + " (" + refused.getMessage() + "; you are signed in as " + me + "): connect as one, or ask your"
                    + " database administrator to run lockstep admin setup (or psql -f docs/admin/team-roles.sql)",
                    refused);
        }
        String[] before = state(login, database);
        // As the owner: what the migrations create is the owner's, and afterMigrate.sql grants as the owner.
        String url = me.equals(owner) ? login.urlFor(database) : login.urlFor(database, owner);
        Database.open(url, null, null, "Lockstep admin setup").close();
        String[] after = state(login, database);
        return new Report(statements, before[1], after[1], !before[0].equals(after[0]), !before[2].equals(after[2]),
                owner);
    }

    /** The schema's history length and version, and the privileges' digest. */
    private static String[] state(ServerLogin login, String database) throws SQLException {
        try (Connection c = login.connect(database); Statement s = c.createStatement()) {
            String rank = "0";
            String version = null;
            try (ResultSet t = s.executeQuery("SELECT to_regclass('flyway_schema_history') IS NOT NULL")) {
                t.next();
                if (t.getBoolean(1)) {
                    try (ResultSet rs = s.executeQuery(SCHEMA_STATE)) {
                        rs.next();
                        rank = rs.getString(1);
                        version = rs.getString(2);
                    }
                }
            }
            try (ResultSet rs = s.executeQuery(PRIVILEGES)) {
                rs.next();
                return new String[]{rank, version, rs.getString(1)};
            }
        }
    }
}
