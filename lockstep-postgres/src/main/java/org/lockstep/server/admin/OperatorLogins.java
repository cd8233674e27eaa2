package org.lockstep.server.admin;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code lockstep admin add-operator}: a login for one person, a member of {@code lockstep_operators} and of the
 * {@link Group groups} asked, made by {@code docs/admin/add-operator.sql} (its password hashed here, SCRAM-SHA-256,
 * never sent), in one transaction with the further groups. An operator's login that exists already joins the groups
 * asked that it is not yet in; its password stays as it is.
 */
public final class OperatorLogins {

    static final String FILE = "add-operator.sql";

    /** PostgreSQL's longest name, bytes (NAMEDATALEN - 1); a longer one would be cut short without an error. */
    public static final int MAX_NAME_BYTES = 63;

    /** The groups a login may join besides {@code lockstep_operators}. */
    public enum Group {
        /** May break another's lock. */
        SUPERVISORS("lockstep_supervisors"),
        /** A login several people share at one machine, whose client names the operator. */
        SHARED_LOGIN("lockstep_shared_login");

        private final String role;

        Group(String role) {
            this.role = role;
        }

        /** The group's role name. */
        public String role() {
            return role;
        }
    }

    /** What adding a login did. */
    public sealed interface Outcome {
        /** The login's name. */
        String name();
    }

    /** A new login, a member of {@code lockstep_operators} and of {@code groups}. */
    public record Created(String name, Set<Group> groups) implements Outcome {
    }

    /** An operator's login that was there already: it joined {@code joined}, and is now in {@code groups}. */
    public record Joined(String name, Set<Group> joined, Set<Group> groups) implements Outcome {
    }

    /** A role of that name exists and is not an operator's login (another application's, a group, the owner). */
    public record NotAnOperator(String name) implements Outcome {
    }

    private OperatorLogins() {
    }

    /**
     * Adds (or completes) an operator's login, as described above.
     *
     * @param c        a connection as a superuser or a role with CREATEROLE, to any database of the server
     * @param name     the login, as it is to be written (any characters; capitals kept)
     * @param groups   the groups besides {@code lockstep_operators}
     * @param password asked only when the login is created; its array is cleared after use
     * @throws IllegalArgumentException when the name is empty, too long or reserved by PostgreSQL
     * @throws IllegalStateException    when Lockstep's groups are not on this server ({@code admin setup} first)
     * @throws NotPermittedHere         when {@code c}'s login may not create roles or grant these groups
     */
    public static Outcome add(Connection c, String name, Set<Group> groups, Supplier<char[]> password)
            throws SQLException {
        requireName(name);
        requireGroups(c);
        boolean exists;
        boolean operator = false;
        Set<Group> has = new LinkedHashSet<>();
        try (PreparedStatement q = c.prepareStatement("""
                SELECT r.rolcanlogin AND pg_has_role(r.oid, 'lockstep_operators', 'MEMBER') AND NOT r.rolsuper,
                       pg_has_role(r.oid, 'lockstep_supervisors', 'MEMBER'),
                       pg_has_role(r.oid, 'lockstep_shared_login', 'MEMBER')
                FROM pg_roles r WHERE r.rolname = ?""")) {
            q.setString(1, name);
            try (ResultSet rs = q.executeQuery()) {
                exists = rs.next();
                if (exists) {
                    operator = rs.getBoolean(1);
                    if (rs.getBoolean(2)) {
                        has.add(Group.SUPERVISORS);
                    }
                    if (rs.getBoolean(3)) {
                        has.add(Group.SHARED_LOGIN);
                    }
                }
            }
        }
        if (exists && !operator) {
            return new NotAnOperator(name);
        }
        Set<Group> missing = new LinkedHashSet<>(groups);
        missing.removeAll(has);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            if (!exists) {
                char[] secret = password.get();
                PsqlFile.resource(FILE).runOn(c, Map.of("name", name), role -> secret);
            }
            for (Group g : missing) {
                try (Statement s = c.createStatement()) {
                    s.execute("GRANT " + g.role() + " TO " + PsqlFile.quoteIdentifier(name));
                }
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw refusal(e, name);
        } finally {
            c.setAutoCommit(autoCommit);
        }
        Set<Group> now = new LinkedHashSet<>(has);
        now.addAll(groups);
        return exists ? new Joined(name, missing, now) : new Created(name, now);
    }

    /**
     * @throws IllegalArgumentException for a name PostgreSQL would refuse or cut short
     */
    public static void requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an operator's login needs a name");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("\"" + name + "\" is longer than PostgreSQL's " + MAX_NAME_BYTES
                    + " bytes for a name");
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("an operator's login cannot hold control characters");
        }
    }

    private static void requireGroups(Connection c) throws SQLException {
        List<String> absent = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
                SELECT g FROM unnest(ARRAY['lockstep_operators', 'lockstep_supervisors', 'lockstep_shared_login']) g
                WHERE to_regrole(g) IS NULL""")) {
            while (rs.next()) {
                absent.add(rs.getString(1));
            }
        }
        if (!absent.isEmpty()) {
            throw new IllegalStateException("this server has no " + String.join(", ", absent)
                    + ": run lockstep admin setup first");
        }
    }

    private static SQLException refusal(SQLException e, String name) {
        String state = e.getSQLState();
        if ("42501".equals(state)) {
            throw new NotPermittedHere("only a superuser or a role with CREATEROLE (and the right to grant Lockstep's"
                    + " groups) can add an operator's login (" + e.getMessage() + "): connect as one, or ask your"
                    + " database administrator to run lockstep admin add-operator " + name, e);
        }
        if ("42939".equals(state)) {
            throw new IllegalArgumentException("PostgreSQL reserves the name \"" + name + "\": " + e.getMessage(), e);
        }
        return e;
    }
}
