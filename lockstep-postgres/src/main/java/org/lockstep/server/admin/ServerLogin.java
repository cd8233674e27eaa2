package org.lockstep.server.admin;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

/**
 * An administrator's login to a PostgreSQL server, from a {@code --db-url} ({@code
 * jdbc:postgresql://HOST[:PORT]/DB[?user=…&password=…]}): plain JDBC connections to any of its databases, as that
 * login. The user and password come from the URL, else {@code PGUSER} and {@code PGPASSWORD}, else pgjdbc's own
 * defaults ({@code ~/.pgpass}), as for every other Lockstep command.
 *
 * @param url the URL as given
 * @param env the environment ({@code PGUSER}, {@code PGPASSWORD})
 */
public record ServerLogin(String url, Map<String, String> env) implements PsqlFile.Server {

    private static final String PREFIX = "jdbc:postgresql://";

    /** The database of an administrator's commands when the URL names none. */
    public static final String DEFAULT_DATABASE = "lockstep";

    /** @throws IllegalArgumentException when {@code url} is not a PostgreSQL JDBC URL */
    public ServerLogin {
        if (!url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("Not a PostgreSQL JDBC URL: " + redacted(url)
                    + " (expected jdbc:postgresql://HOST[:PORT]/DATABASE)");
        }
    }

    /** The database the URL names, or {@value #DEFAULT_DATABASE}. */
    public String database() {
        String path = path();
        return path.isEmpty() ? DEFAULT_DATABASE : URLDecoder.decode(path, StandardCharsets.UTF_8);
    }

    /** The same URL naming {@code database} instead. */
    public String urlFor(String database) {
        int slash = url.indexOf('/', PREFIX.length());
        int query = url.indexOf('?');
        String hosts = url.substring(0, slash < 0 || (query >= 0 && slash > query) ? (query < 0 ? url.length() : query)
                : slash);
        String rest = query < 0 ? "" : url.substring(query);
        return hosts + "/" + URLEncoder.encode(database, StandardCharsets.UTF_8).replace("+", "%20") + rest;
    }

    /**
     * The same URL naming {@code database}, whose sessions work as {@code role} ({@code SET ROLE} at connection
     * start, PostgreSQL's {@code role} setting in the startup options): what this login creates there belongs to
     * {@code role}.
     */
    public String urlFor(String database, String role) {
        String u = urlFor(database);
        String escaped = role.replace("\\", "\\\\").replace(" ", "\\ ");
        String option = URLEncoder.encode("-c role=" + escaped, StandardCharsets.UTF_8).replace("+", "%20");
        return u + (u.contains("?") ? "&" : "?") + "options=" + option;
    }

    @Override
    public Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        if (!url.contains("user=") && env.get("PGUSER") != null) {
            p.setProperty("user", env.get("PGUSER"));
        }
        if (!url.contains("password=") && env.get("PGPASSWORD") != null) {
            p.setProperty("password", env.get("PGPASSWORD"));
        }
        p.setProperty("ApplicationName", "Lockstep admin");
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(urlFor(database), p);
    }

    /** A connection to the URL's own database. */
    public Connection connect() throws SQLException {
        return connect(database());
    }

    /** The URL without a password, for messages. */
    public String redacted() {
        return redacted(url);
    }

    private static String redacted(String url) {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    private String path() {
        int slash = url.indexOf('/', PREFIX.length());
        int query = url.indexOf('?');
        if (slash < 0 || (query >= 0 && slash > query)) {
            return "";
        }
        return url.substring(slash + 1, query < 0 ? url.length() : query);
    }
}
