package org.lockstep.testing.db;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.lockstep.server.Database;
import org.postgresql.PGConnection;

/**
 * A team server set up as docs/admin-guide.md ("Roles and privileges") says for those who prefer psql, from its
 * files: {@code docs/admin/team-roles.sql} as a superuser, the owner's password ({@code \password}), Lockstep's first
 * start as the owner (it migrates and grants), then {@code docs/admin/add-operator.sql} for the operators {@link #alice()} and {@link #bob()} and the supervisor
 * {@link #sam()}. Roles belong to the whole server, which other tests share, so the owner, the operators and the
 * database get names of this run; {@link #close()} drops them all.
 */
public final class TeamServer implements AutoCloseable {

    private static final Path ROLES_SQL = Path.of("..", "docs", "admin", "team-roles.sql");
    private static final Path OPERATOR_SQL = Path.of("..", "docs", "admin", "add-operator.sql");
    /** Every login's password; a quote in it, as a real one may have. */
    public static final String PASSWORD = "operator 'secret'";

    private final TestDatabases.Server server;
    private final String suffix;

    private TeamServer(TestDatabases.Server server, String suffix) {
        this.server = server;
        this.suffix = suffix;
    }

    /** Sets the team server up; the owner's first start migrates it. */
    public static TeamServer create() throws Exception {
        String suffix = ProcessHandle.current().pid() + "_" + System.nanoTime() % 1_000_000_000L;
        TeamServer team = new TeamServer(TestDatabases.server(), suffix);
        PsqlScript.read(ROLES_SQL).run(team.server, "postgres", team.server.adminUser(), team.server.adminPassword(),
                Map.of("owner", team.owner(), "database", team.database()), PASSWORD);
        try (Connection c = team.admin("postgres")) {
            // psql's \password lockstep_owner: the owner signs in below, as the guide's psql path has it do.
            c.unwrap(PGConnection.class).alterUserPassword(team.owner(), PASSWORD.toCharArray(), "scram-sha-256");
        }
        Database.open(team.server.url(team.database()), team.owner(), PASSWORD, "Lockstep owner").close();
        for (String name : List.of(team.alice(), team.bob(), team.sam())) {
            PsqlScript.read(OPERATOR_SQL).run(team.server, "postgres", team.server.adminUser(),
                    team.server.adminPassword(), Map.of("name", name), PASSWORD);
        }
        try (Connection c = team.admin("postgres"); Statement s = c.createStatement()) {
            s.execute("GRANT lockstep_supervisors TO " + team.sam());
        }
        return team;
    }

    public String owner() {
        return "lk_owner_" + suffix;
    }

    public String alice() {
        return "lk_alice_" + suffix;
    }

    public String bob() {
        return "lk_bob_" + suffix;
    }

    /** A supervisor: may break another's lock. */
    public String sam() {
        return "lk_sam_" + suffix;
    }

    public String database() {
        return "lk_team_" + suffix;
    }

    public TestDatabases.Server server() {
        return server;
    }

    /** The database's JDBC URL without credentials. */
    public String url() {
        return server.url(database());
    }

    /** The database's JDBC URL signing in as {@code login}, its password in the URL. */
    public String urlFor(String login) {
        return url() + "?user=" + URLEncoder.encode(login, StandardCharsets.UTF_8) + "&password="
                + URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8);
    }

    /** Lockstep's client signed in as {@code login}. */
    public Database open(String login) {
        return Database.open(url(), login, PASSWORD, "Lockstep (" + login + ")");
    }

    /** A plain connection as {@code login}: what psql would do. */
    public Connection login(String login) throws SQLException {
        return DriverManager.getConnection(url(), login, PASSWORD);
    }

    /** A connection as the server's administrator (a superuser on the embedded server) to {@code db}. */
    public Connection admin(String db) throws SQLException {
        return DriverManager.getConnection(server.url(db), server.adminUser(), server.adminPassword());
    }

    /** The first column of every row of {@code sql}, run as the administrator in the team's database. */
    public List<String> strings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = admin(database()); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    /** Drops the database and every role made for it. */
    @Override
    public void close() throws SQLException {
        try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database() + " WITH (FORCE)");
            for (String role : List.of(alice(), bob(), sam(), owner())) {
                s.execute("DROP ROLE IF EXISTS " + role);
            }
        }
    }
}
