package org.lockstep.server;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.security.SecureRandom;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.util.PasswordUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets the embedded server up as a team server is set up (issue 26), as its superuser: the schema belongs to an owner
 * role nobody logs in as, and the application connects as an operator. A PostgreSQL superuser runs programs and
 * writes files as the server's operating-system user ({@code COPY … TO PROGRAM}, {@code COPY … TO 'file'}; PostgreSQL
 * docs, COPY), so the application must not be one; and a role that owns the audit tables can rewrite them, so it must
 * not be their owner either. Run at every start; it reads first and changes only what is not yet so:
 * <ul>
 *   <li>the superuser's and the application role's passwords are kept as SCRAM verifiers of
 *       {@value #SCRAM_ITERATIONS} PBKDF2 iteration ({@link #SCRAM_ITERATIONS} says why);</li>
 *   <li>the application role exists, can log in, and is not a superuser and cannot create roles, databases or
 *       replication connections, nor bypass row security;</li>
 *   <li>Lockstep's groups exist ({@link #GROUPS}), and the application role is a member of
 *       {@code lockstep_shared_login} (its client names the machine's operators) and {@code lockstep_supervisors}
 *       (the one operator at the machine is its own supervisor), never of the owner;</li>
 *   <li>the owner role {@value #OWNER_ROLE} exists, without login, and owns the {@code lockstep} database, and so
 *       (PostgreSQL 15 and later) its {@code public} schema and the right to create the trusted extensions the
 *       migrations use ({@code pg_trgm}); the migrations run as it ({@code SET ROLE} from the superuser:
 *       {@link Database});</li>
 *   <li>it owns the tables, sequences, views, functions and types in {@code public} that the superuser or the
 *       application role owns: a data directory made by an older Lockstep, which migrated the schema as one of them, is
 *       upgraded in place. Members of extensions stay with the extension's owner.</li>
 * </ul>
 * {@code REASSIGN OWNED BY} cannot do the last step: the superuser made by {@code initdb} also owns the system
 * catalogs, and PostgreSQL refuses to reassign those.
 */
final class AppRoleSetup {

    private static final Logger LOG = LoggerFactory.getLogger(AppRoleSetup.class);

    /**
     * PBKDF2 iterations of the SCRAM verifiers of the embedded server's two login roles (PostgreSQL's default, and
     * initdb's, is 4,096). The count slows an attacker who holds a verifier down in guessing a password a person
     * chose; these passwords are 144 random bits ({@link SecretFile#generate}), beyond guessing at one iteration as at
     * 4,096. The client derives the key again for every connection it opens, and at 4,096 iterations that is 8 CPU-ms
     * on a warm JVM and up to 54 on a starting one, several times in every start of the desktop and of every command
     * (docs/benchmarks.md, "Issue 30, phase 4"). A team server's logins are its administrator's: not touched.
     */
    static final int SCRAM_ITERATIONS = 1;

    private static final Pattern SCRAM_VERIFIER = Pattern.compile("SCRAM-SHA-256\\$(\\d+):.*");
    private static final SecureRandom SALTS = new SecureRandom();

    /** PostgreSQL's SQLSTATE for a database that does not exist ({@code invalid_catalog_name}). */
    private static final String NO_SUCH_DATABASE = "3D000";

    /** The role that owns Lockstep's schema on the embedded server; nobody logs in as it. */
    static final String OWNER_ROLE = EmbeddedServer.OWNER_ROLE;

    /**
     * One {@code ALTER … OWNER TO} per object of {@code public} owned by the connected superuser or by the application
     * role (its first parameter; the second is the new owner).
     */
    private static final String OWNED_BY_ADMIN = """
            WITH me AS (SELECT oid FROM pg_roles WHERE rolname IN (current_user, ?::text))
            SELECT format('ALTER %s %s OWNER TO %I', kind, name, ?::text) FROM (
                SELECT 0 AS ord, 'SCHEMA' AS kind, quote_ident(n.nspname) AS name
                FROM pg_namespace n, me WHERE n.nspname = 'public' AND n.nspowner = me.oid
              UNION ALL
                -- Indexes, identity and serial sequences follow their table (PostgreSQL refuses to move them alone).
                SELECT 1, CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                                         WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE'
                                         ELSE 'TABLE' END, c.oid::regclass::text
                FROM pg_class c, me
                WHERE c.relnamespace = 'public'::regnamespace AND c.relowner = me.oid
                  AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
                  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                                  AND d.objid = c.oid AND d.deptype IN ('a', 'i', 'e'))
              UNION ALL
                SELECT 2, 'ROUTINE', p.oid::regprocedure::text
                FROM pg_proc p, me
                WHERE p.pronamespace = 'public'::regnamespace AND p.proowner = me.oid
                  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                                  AND d.objid = p.oid AND d.deptype = 'e')
              UNION ALL
                SELECT 3, CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype::text
                FROM pg_type t, me
                WHERE t.typnamespace = 'public'::regnamespace AND t.typowner = me.oid AND t.typtype IN ('e', 'd')
                  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass
                                  AND d.objid = t.oid AND d.deptype = 'e')
            ) o ORDER BY ord, name
            """;

    /**
     * Lockstep's groups (issue 26; what each may do, {@code db/migration/afterMigrate.sql} grants): made here so that
     * the embedded server's database is set up as a team server's is; its one login is a member of
     * {@code lockstep_shared_login} and so names the machine's operators itself. The same statement is in {@code docs/admin/team-roles.sql}.
     */
    static final String GROUPS = """
            DO $$
            BEGIN
                IF to_regrole('lockstep_operators') IS NULL THEN CREATE ROLE lockstep_operators NOLOGIN; END IF;
                IF to_regrole('lockstep_supervisors') IS NULL THEN
                    CREATE ROLE lockstep_supervisors NOLOGIN IN ROLE lockstep_operators;
                END IF;
                IF to_regrole('lockstep_shared_login') IS NULL THEN
                    CREATE ROLE lockstep_shared_login NOLOGIN IN ROLE lockstep_operators;
                END IF;
            END $$""";

    private AppRoleSetup() {
    }

    /**
     * Makes the application role, the database and its objects as described above.
     *
     * @param admin        the superuser's endpoint
     * @param appRole      the application role's name, a plain lower-case identifier
     * @param database     the application's database, a plain lower-case identifier
     * @param appPassword  the application role's password
     * @param setPassword  whether to (re)set the role's password to {@code appPassword}: when it was generated just
     *                     now; otherwise the role already has it
     * @throws SQLException when the server refuses a step; nothing is left half-moved inside the database (its
     *                      ownership changes run in one transaction)
     */
    static void apply(EmbeddedServer.Endpoint admin, String appRole, String database, String appPassword,
            boolean setPassword) throws SQLException {
        // One connection when the database exists, as at every start but the first: roles are the cluster's, so they
        // are checked from Lockstep's own database. Each connection the superuser opened (three, before) cost the
        // client a login at every start of the desktop and of every command (docs/benchmarks.md, "Issue 30, phase 6").
        try (Connection c = connectIfExists(admin, database)) {
            if (c != null) {
                ensureRoles(c, admin, appRole, appPassword, setPassword);
                ensureDatabase(c, OWNER_ROLE, database);
                giveObjects(c, appRole, OWNER_ROLE, database);
                ensurePrewarm(c);
                return;
            }
        }
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password())) {
            ensureRoles(c, admin, appRole, appPassword, setPassword);
        }
        ensureDatabase(admin, appRole, database);
    }

    /** A superuser's connection to {@code database}, or {@code null} when there is no such database. */
    private static Connection connectIfExists(EmbeddedServer.Endpoint admin, String database) throws SQLException {
        try {
            return DriverManager.getConnection(admin.jdbcUrl(database), admin.user(), admin.password());
        } catch (SQLException e) {
            if (NO_SUCH_DATABASE.equals(e.getSQLState())) {
                return null;
            }
            throw e;
        }
    }

    /** The roles, their passwords' verifiers, the groups and the memberships ({@link AppRoleSetup}'s list). */
    private static void ensureRoles(Connection c, EmbeddedServer.Endpoint admin, String appRole, String appPassword,
            boolean setPassword) throws SQLException {
        try (Statement s = c.createStatement()) {
            ensureRole(c, s, appRole, appPassword, setPassword);
            if (heavierVerifier(c, admin.user())) {
                setPassword(s, admin.user(), admin.password());
            }
            s.execute(GROUPS);
            ensureOwner(c, s, appRole);
        }
    }

    /**
     * Makes {@code database} when it is missing, owned by {@value #OWNER_ROLE}, and gives the owner what the superuser
     * or {@code appRole} owns in it; the roles exist already ({@link #apply}). The trainer demo's database is made so,
     * beside Lockstep's.
     *
     * @throws SQLException when the server refuses a step
     */
    static void ensureDatabase(EmbeddedServer.Endpoint admin, String appRole, String database) throws SQLException {
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password())) {
            ensureDatabase(c, OWNER_ROLE, database);
        }
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl(database), admin.user(), admin.password())) {
            giveObjects(c, appRole, OWNER_ROLE, database);
            ensurePrewarm(c);
        }
    }

    /**
     * The {@code pg_prewarm} extension (PostgreSQL docs, F.27), which only a superuser may create: the owner's
     * {@code lockstep_warm_up()} (V24) loads the list's indexes and table with it at each start. A server built
     * without it warms nothing, and says so here once.
     */
    private static void ensurePrewarm(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname ="
                        + " 'pg_prewarm'), EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_prewarm')")) {
            rs.next();
            if (rs.getBoolean(1)) {
                return;
            }
            if (!rs.getBoolean(2)) {
                LOG.info("This PostgreSQL has no pg_prewarm: the first searches after a start read from disk");
                return;
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
        }
    }

    /**
     * The owner role, and the application role's memberships: an operator's groups, never the owner (whose rights a
     * member could take with {@code SET ROLE}).
     */
    private static void ensureOwner(Connection c, Statement s, String appRole) throws SQLException {
        s.execute("DO $$ BEGIN IF to_regrole('" + OWNER_ROLE + "') IS NULL THEN CREATE ROLE " + OWNER_ROLE
                + " NOLOGIN; END IF; END $$");
        for (String group : new String[]{"lockstep_shared_login", "lockstep_supervisors"}) {
            if (!memberOf(c, appRole, group)) {
                s.execute("GRANT " + group + " TO " + appRole);
            }
        }
        if (memberOf(c, appRole, OWNER_ROLE)) {
            LOG.warn("The role {} could act as the schema's owner; taking that back", appRole);
            s.execute("REVOKE " + OWNER_ROLE + " FROM " + appRole);
        }
    }

    /** Whether {@code role} is a direct member of {@code group}. */
    private static boolean memberOf(Connection c, String role, String group) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("""
                SELECT EXISTS (SELECT 1 FROM pg_auth_members m
                               WHERE m.member = to_regrole(?) AND m.roleid = to_regrole(?))""")) {
            q.setString(1, role);
            q.setString(2, group);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static void ensureRole(Connection c, Statement s, String role, String password, boolean setPassword)
            throws SQLException {
        boolean exists;
        boolean needsAlter = false;
        try (PreparedStatement q = c.prepareStatement("""
                SELECT NOT rolcanlogin OR rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls
                FROM pg_roles WHERE rolname = ?""")) {
            q.setString(1, role);
            try (ResultSet rs = q.executeQuery()) {
                exists = rs.next();
                if (exists) {
                    needsAlter = rs.getBoolean(1);
                }
            }
        }
        if (!exists) {
            LOG.info("Creating the role {} for Lockstep's data", role);
            s.execute("CREATE ROLE " + role + " LOGIN");
        } else if (needsAlter) {
            LOG.warn("The role {} had powers it must not have; removing them", role);
            s.execute("ALTER ROLE " + role
                    + " LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS");
        }
        if (!exists || setPassword || heavierVerifier(c, role)) {
            setPassword(s, role, password);
        }
    }

    /**
     * Whether {@code role}'s password is kept as a SCRAM verifier of more than {@value #SCRAM_ITERATIONS} iterations
     * (one set by initdb, or by a Lockstep before issue 30's phase 4). Only a superuser can read it.
     */
    private static boolean heavierVerifier(Connection c, String role) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT rolpassword FROM pg_authid WHERE rolname = ?")) {
            q.setString(1, role);
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null) {
                    return false;
                }
                Matcher m = SCRAM_VERIFIER.matcher(rs.getString(1));
                return m.matches() && Long.parseLong(m.group(1)) > SCRAM_ITERATIONS;
            }
        }
    }

    /**
     * Sets {@code role}'s password as a SCRAM verifier of {@value #SCRAM_ITERATIONS} iterations, hashed here, so the
     * password itself never reaches the server or its log.
     */
    private static void setPassword(Statement s, String role, String password) throws SQLException {
        byte[] salt = new byte[16];
        SALTS.nextBytes(salt);
        String verifier = PasswordUtil.encodeScramSha256(password.toCharArray(), SCRAM_ITERATIONS, salt);
        s.execute("ALTER ROLE " + role + " PASSWORD '" + verifier + "'"); // base64 and '$:': nothing to escape
    }

    /**
     * Makes {@code database} owned by {@code role}, or gives it to {@code role}. {@code CREATE DATABASE} needs a
     * connection to another database, which only a missing database gets ({@link #apply}); {@code ALTER DATABASE …
     * OWNER TO} works from inside it.
     */
    private static void ensureDatabase(Connection c, String role, String database) throws SQLException {
        try (Statement s = c.createStatement(); PreparedStatement q = c.prepareStatement(
                "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = ?")) {
            q.setString(1, database);
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next()) {
                    s.execute("CREATE DATABASE " + database + " OWNER " + role);
                } else if (!role.equals(rs.getString(1))) {
                    LOG.info("Giving the database {} to the role {}", database, role);
                    s.execute("ALTER DATABASE " + database + " OWNER TO " + role);
                }
            }
        }
    }

    private static void giveObjects(Connection c, String appRole, String role, String database)
            throws SQLException {
        List<String> statements = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement(OWNED_BY_ADMIN)) {
            q.setString(1, appRole);
            q.setString(2, role);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    statements.add(rs.getString(1));
                }
            }
        }
        if (statements.isEmpty()) {
            return;
        }
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            // The connection goes on (pg_prewarm next): a statement after this one would otherwise open a transaction
            // that the closing connection rolls back.
            c.setAutoCommit(true);
        }
        LOG.info("Gave {} objects of the database {} to the role {}", statements.size(), database, role);
    }
}
