package org.lockstep.server.admin;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lockstep admin check}: every privilege in Lockstep's database that an operator (a login in {@code
 * lockstep_operators}, at any depth) or {@code PUBLIC} holds and should not (docs/admin-guide.md, "Roles and
 * privileges"; ADR 0018), read from the catalogs, through whichever role it comes. An operator's login holds what
 * any role it is a member of holds ({@code pg_has_role … 'MEMBER'}: inherited, or one {@code SET ROLE} away).
 * Superusers are members of every role, so a superuser operator is named once, for that, and not again for each
 * privilege. Nothing is changed: {@code admin setup} takes most of it back (the audit tables' and the functions'
 * grants), an administrator the rest.
 */
public final class PrivilegeCheck {

    /** The tables only the owner's code writes (afterMigrate.sql keeps them so). */
    public static final List<String> AUDIT_TABLES = List.of("customer_history", "lease_event", "conflict_event",
            "customer_conflict", "client_request", "message", "record_lease", "customer_save_count",
            "customer_updated", "flyway_schema_history");

    /**
     * One thing found.
     *
     * @param kind    {@code attribute}, {@code member}, {@code owner}, {@code write} (on the audit trail),
     *                {@code grant} (any other privilege beyond Lockstep's), {@code execute} or {@code create}
     * @param role    the role that holds it ({@code PUBLIC} for everyone)
     * @param object  what it is held on (a table, a function, a schema, a role), or empty
     * @param logins  the operators' logins it gives it to, comma-separated ({@code every login} for PUBLIC)
     * @param message one line in plain words
     */
    public record Finding(String kind, String role, String object, String logins, String message) {
    }

    // The operators: lockstep_operators and every role in it, at any depth (not pg_has_role's: it counts superusers
    // as members of everything).
    private static final String OPERATORS = """
            WITH RECURSIVE ops(oid) AS (
                SELECT oid FROM pg_roles WHERE rolname = 'lockstep_operators'
              UNION
                SELECT m.member FROM pg_auth_members m JOIN ops ON m.roleid = ops.oid
            ), logins AS (
                SELECT r.oid, r.rolname FROM pg_roles r JOIN ops USING (oid) WHERE r.rolcanlogin AND NOT r.rolsuper
            ), lockstep AS (
                SELECT c.relowner AS owner FROM pg_class c WHERE c.oid = to_regclass('public.customer')
            ), acl AS (
            """;

    // Who a grant reaches: everyone for PUBLIC (grantee 0), else the operators' logins that are members of the grantee.
    private static final String REACHED = """
            ), reached AS (
                SELECT acl.*, CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(acl.grantee) END AS role,
                       CASE WHEN acl.grantee = 0 THEN 'every login' ELSE (
                           SELECT string_agg(l.rolname, ', ' ORDER BY l.rolname) FROM logins l
                           WHERE pg_has_role(l.oid, acl.grantee, 'MEMBER') AND NOT acl.supervisors_only
                              OR pg_has_role(l.oid, acl.grantee, 'MEMBER') AND acl.supervisors_only
                                 AND NOT pg_has_role(l.oid, 'lockstep_supervisors', 'MEMBER')) END AS who
                FROM acl
            )
            SELECT kind, role, object, who, privilege FROM reached WHERE who IS NOT NULL
            ORDER BY kind, object, role, privilege""";

    private static final String GRANTS = OPERATORS + """
                -- Every privilege on a table, sequence or column beyond Lockstep's grants, by the rule afterMigrate.sql
                -- takes them back by (lockstep_unexpected_grants, R__10): writes on the audit tables, TRIGGER or
                -- REFERENCES anywhere, a sequence's UPDATE … A SELECT gives an operator's login nothing more.
                SELECT CASE WHEN c.relname = ANY (?) AND u.privilege IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE')
                            THEN 'write' ELSE 'grant' END AS kind,
                       c.relname || coalesce('.' || u.col, '') AS object, u.privilege, u.grantee,
                       false AS supervisors_only
                FROM lockstep_unexpected_grants() u JOIN pg_class c ON c.oid = u.rel
                WHERE NOT (u.privilege = 'SELECT' AND NOT u.is_sequence)
              UNION
                -- Ending a lease without its trail: nobody but the owner's own functions.
                SELECT 'execute', p.oid::regprocedure::text, a.privilege_type, a.grantee, false
                FROM pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                WHERE p.pronamespace = 'public'::regnamespace AND p.proname = 'lockstep_lease_end'
                  AND a.grantee <> p.proowner
              UNION
                -- Breaking another's lock: supervisors only.
                SELECT 'execute', p.oid::regprocedure::text, a.privilege_type, a.grantee, true
                FROM pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                WHERE p.pronamespace = 'public'::regnamespace AND p.proname = 'lockstep_lease_break'
                  AND a.grantee <> p.proowner
              UNION
                SELECT 'create', 'schema public', a.privilege_type, a.grantee, false
                FROM pg_namespace n, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
                WHERE n.nspname = 'public' AND a.privilege_type = 'CREATE' AND a.grantee <> n.nspowner
                  AND a.grantee NOT IN (SELECT owner FROM lockstep)
              UNION
                SELECT 'create', 'database ' || d.datname, a.privilege_type, a.grantee, false
                FROM pg_database d, aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a
                WHERE d.datname = current_database() AND a.privilege_type = 'CREATE' AND a.grantee <> d.datdba
            """ + REACHED;

    /** Role attributes and memberships that give an operator's login more than logging in. */
    private static final String ROLES = OPERATORS.replace("), acl AS (\n", ")\n") + """
            SELECT 'attribute', r.rolname::text, '', r.rolname::text, concat_ws(', ',
                       CASE WHEN r.rolsuper THEN 'SUPERUSER' END, CASE WHEN r.rolcreaterole THEN 'CREATEROLE' END,
                       CASE WHEN r.rolcreatedb THEN 'CREATEDB' END, CASE WHEN r.rolreplication THEN 'REPLICATION' END,
                       CASE WHEN r.rolbypassrls THEN 'BYPASSRLS' END)
            FROM pg_roles r JOIN ops USING (oid)
            WHERE r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolreplication OR r.rolbypassrls
          UNION ALL
            -- A role with such attributes that an operator may SET ROLE to.
            SELECT 'attribute', g.rolname::text, '', string_agg(l.rolname, ', ' ORDER BY l.rolname), concat_ws(', ',
                       CASE WHEN g.rolsuper THEN 'SUPERUSER' END, CASE WHEN g.rolcreaterole THEN 'CREATEROLE' END,
                       CASE WHEN g.rolcreatedb THEN 'CREATEDB' END, CASE WHEN g.rolreplication THEN 'REPLICATION' END,
                       CASE WHEN g.rolbypassrls THEN 'BYPASSRLS' END)
            FROM pg_roles g JOIN logins l ON pg_has_role(l.oid, g.oid, 'MEMBER') AND l.oid <> g.oid
            WHERE (g.rolsuper OR g.rolcreaterole OR g.rolcreatedb OR g.rolreplication OR g.rolbypassrls)
              AND g.oid NOT IN (SELECT oid FROM ops)
            GROUP BY g.rolname, g.rolsuper, g.rolcreaterole, g.rolcreatedb, g.rolreplication, g.rolbypassrls
          UNION ALL
            -- Predefined roles that read or write the server's files or run its programs (PostgreSQL docs, 22.5).
            SELECT 'member', g.rolname::text, g.rolname::text, string_agg(l.rolname, ', ' ORDER BY l.rolname), ''
            FROM pg_roles g JOIN logins l ON pg_has_role(l.oid, g.oid, 'MEMBER')
            WHERE g.rolname IN ('pg_execute_server_program', 'pg_read_server_files', 'pg_write_server_files',
                                'pg_write_all_data', 'pg_signal_backend', 'pg_maintain')
            GROUP BY g.rolname
          UNION ALL
            -- An operator who may act as the owner: does everything the owner's functions guard.
            SELECT 'owner', pg_get_userbyid(o.owner)::text, pg_get_userbyid(o.owner)::text,
                   string_agg(l.rolname, ', ' ORDER BY l.rolname), 'member'
            FROM lockstep o JOIN logins l ON pg_has_role(l.oid, o.owner, 'MEMBER')
            GROUP BY o.owner
          UNION ALL
            -- The owner made an operator: its login would be used as one, naming operators as it pleases.
            SELECT 'owner', pg_get_userbyid(o.owner)::text, 'lockstep_operators', pg_get_userbyid(o.owner)::text,
                   'operator'
            FROM lockstep o WHERE o.owner IN (SELECT oid FROM ops)
            ORDER BY 1, 2""";

    private PrivilegeCheck() {
    }

    /**
     * What operators could do that they should not, as described above.
     *
     * @param c a connection to Lockstep's database, as any login (the catalogs are readable by all)
     * @return the findings, in a stable order; empty when clean
     * @throws IllegalStateException when the database holds no Lockstep schema or the server no Lockstep groups
     */
    public static List<Finding> findings(Connection c) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("""
                SELECT to_regclass('public.customer') IS NOT NULL, to_regrole('lockstep_operators') IS NOT NULL,
                       current_database()""");
                ResultSet rs = q.executeQuery()) {
            rs.next();
            if (!rs.getBoolean(1) || !rs.getBoolean(2)) {
                throw new IllegalStateException("the database " + rs.getString(3) + " holds no Lockstep schema"
                        + (rs.getBoolean(2) ? "" : " and the server no Lockstep groups")
                        + ": run lockstep admin setup first, or give the --db-url of Lockstep's database");
            }
        }
        List<Finding> found = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement(ROLES); ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
                found.add(role(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5)));
            }
        }
        try (PreparedStatement q = c.prepareStatement(GRANTS)) {
            java.sql.Array tables = c.createArrayOf("text", AUDIT_TABLES.toArray());
            q.setArray(1, tables);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    found.add(grant(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5)));
                }
            }
        }
        return found;
    }

    private static Finding role(String kind, String role, String object, String logins, String detail) {
        String message = switch (kind) {
            case "attribute" -> role.equals(logins)
                    ? "the operator " + role + " has " + detail + ": an operator's login should only log in"
                    : logins + " may SET ROLE to " + role + ", which has " + detail;
            case "member" -> logins + " " + (logins.contains(",") ? "are members" : "is a member") + " of " + role
                    + ": " + switch (role) {
                        case "pg_write_all_data" -> "writes every table, the audit trail and the leases included";
                        case "pg_signal_backend" -> "ends other operators' sessions";
                        case "pg_maintain" -> "locks, vacuums and reindexes every table";
                        default -> "reads or writes the server's files, or runs its programs";
                    };
            default -> detail.equals("member")
                    ? logins + " may act as the owner " + role
                            + ": writes the audit trail and the leases directly, changes the schema"
                    : "the owner " + role + " is a member of lockstep_operators: its login would be used as an"
                            + " operator's, naming operators as it pleases";
        };
        return new Finding(kind, role, object, logins, message);
    }

    private static Finding grant(String kind, String role, String object, String logins, String privilege) {
        String message = switch (kind) {
            case "write" -> role + " may " + privilege + " " + object + " (" + logins
                    + "): only the owner's functions write it";
            case "grant" -> role + " may " + privilege + " " + object + " (" + logins + "): "
                    + switch (privilege) {
                        case "TRIGGER" -> "a trigger of theirs would run inside the owner's functions, as the owner";
                        case "UPDATE", "USAGE" -> object.endsWith("_seq") ? "chooses the numbers it gives out"
                                : "more than Lockstep grants an operator";
                        default -> "more than Lockstep grants an operator";
                    } + " (admin setup takes it back)";
            case "execute" -> role + " may EXECUTE " + object + " (" + logins + "): "
                    + (object.startsWith("lockstep_lease_break") ? "only supervisors may break another's lock"
                            : "it ends a lease without its trail; only the owner's functions call it");
            default -> role + " may CREATE in " + object + " (" + logins + "): only the owner creates there";
        };
        return new Finding(kind, role, object, logins, message);
    }
}
