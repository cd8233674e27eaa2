package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import java.security.cert.CertPathBuilderException;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * Says which limit was hit when a server or PgBouncer refuses a new connection because it is full, and what to do —
 * instead of the pool's "Connection is not available, request timed out after 5000ms", which HikariCP reports with
 * the refusal's SQLSTATE and the refusal as its cause. SQLSTATE 53300 {@code too_many_connections}: PostgreSQL docs,
 * Appendix A; the server's words: "sorry, too many clients already" ({@code max_connections}), "too many connections
 * for role …" / "… for database …" ({@code CONNECTION LIMIT}); PgBouncer's: "no more connections allowed
 * (max_client_conn)" (SQLSTATE 08P01).
 *
 * <p>Also says why a TLS connection with {@code sslmode=verify-ca} or {@code verify-full} was refused, which pgjdbc
 * reports as the JDK's "unable to find valid certification path to requested target" (the server's certificate is
 * not signed by the CA in {@code sslrootcert}: a {@link CertPathBuilderException} under the handshake's failure) or
 * as "The hostname … could not be verified by hostnameverifier PgjdbcHostnameVerifier" (the certificate is not for the
 * URL's host; pgjdbc's {@code MakeSSL}, SQLSTATE 08006). docs/admin-guide.md, "TLS to the server".
 *
 * <p>And says so when a connection pooler in transaction mode (PgBouncer) is reached as if it were the server (no
 * {@code --listen-url}): it refuses Lockstep's startup options, drops them ({@link SessionSettings#STARTUP_OPTIONS_MARK}),
 * or mixes up prepared statements (issue 28). docs/admin-guide.md, "PgBouncer".
 */
public final class ConnectionRefusals {

    /** PostgreSQL's SQLSTATE {@code undefined_object}: here, a setting the session does not know. */
    private static final String UNDEFINED_OBJECT = "42704";

    /** pgjdbc's names for the statements it prepares on the server: S_1, S_2, … */
    private static final java.util.regex.Pattern PREPARED_STATEMENT =
            java.util.regex.Pattern.compile("prepared statement \"S_\\d+\"");

    private ConnectionRefusals() {
    }

    /**
     * One sentence for the operator when {@code failure} is a refusal for want of connections, or a TLS connection
     * refused because the server's certificate could not be verified.
     *
     * @param failure any failure to connect or to run a statement
     * @return the sentence naming the limit or the certificate's fault and what to do, or empty when {@code failure}
     *         is something else
     */
    public static Optional<String> explain(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertPathBuilderException) {
                return Optional.of(tr("The server''s certificate is not signed by the CA in sslrootcert (by default "
                        + "~/.postgresql/root.crt), so Lockstep did not connect: it may not be your database server. "
                        + "Check that sslrootcert names the CA certificate your administrator gave you, or ask for it "
                        + "(docs/admin-guide.md, \"TLS to the server\")."));
            }
            if (!(t instanceof SQLException sql)) {
                continue;
            }
            String message = sql.getMessage() == null ? "" : sql.getMessage();
            // pgjdbc's words, translated or not, name its verifier: "… by hostnameverifier PgjdbcHostnameVerifier."
            if (message.toLowerCase(Locale.ROOT).contains("hostnameverifier")) {
                return Optional.of(tr("The server''s certificate is not for the host name in the URL, so Lockstep "
                        + "did not connect (sslmode=verify-full checks it). Connect by a name the certificate lists "
                        + "(its subjectAltName), or ask the administrator for a certificate that lists the name you "
                        + "connect by (docs/admin-guide.md, \"TLS to the server\")."));
            }
            // A pooler in transaction mode reached as if it were the server (no --listen-url): PgBouncer refuses the
            // startup options a direct pool sends ("unsupported startup parameter: options", 08P01), or, where it
            // ignores them, hands one client's server-side prepared statements to another (SQLSTATE 42P05
            // duplicate_prepared_statement, 26000 invalid_sql_statement_name: "prepared statement "S_1" …").
            if (message.contains("unsupported startup parameter")) {
                return Optional.of(tr("The database URL leads to a connection pooler (PgBouncer), which refuses "
                        + "Lockstep''s session settings ({0}). Give the database server itself as well, with "
                        + "--listen-url (or LOCKSTEP_LISTEN_URL): Lockstep then sends the pooler no settings and "
                        + "listens for changes on the server (docs/admin-guide.md, \"PgBouncer\").",
                        StoreErrors.firstLine(message)));
            }
            // A pooler that ignores the startup options (PgBouncer with ignore_startup_parameters naming options):
            // every statement would run without Lockstep's time limits and LISTEN would be lost with the
            // transaction, so live updates would stop without a word. The mark Lockstep sent is missing.
            if (UNDEFINED_OBJECT.equals(sql.getSQLState()) && message.contains(SessionSettings.STARTUP_OPTIONS_MARK)) {
                return Optional.of(tr("A connection pooler (PgBouncer) between Lockstep and the database server "
                        + "drops Lockstep''s session settings (its time limits on statements and locks) and would not "
                        + "pass on live updates, so Lockstep did not use the connection. Give the database server "
                        + "itself, not the pooler, with --listen-url (or LOCKSTEP_LISTEN_URL): Lockstep then sends the "
                        + "pooler no settings and listens for changes on the server (docs/admin-guide.md, "
                        + "\"PgBouncer\")."));
            }
            if (("42P05".equals(sql.getSQLState()) || "26000".equals(sql.getSQLState()))
                    && PREPARED_STATEMENT.matcher(message).find()) {
                return Optional.of(tr("A connection pooler in transaction mode (PgBouncer) sits in front of the "
                        + "database and mixed up prepared statements; this statement did not run. Give the database "
                        + "server itself with --listen-url (or LOCKSTEP_LISTEN_URL): Lockstep then prepares no "
                        + "statements through the pooler (docs/admin-guide.md, \"PgBouncer\")."));
            }
            if (message.contains("max_client_conn")) {
                return Optional.of(tr("PgBouncer refused the connection: it serves as many clients as it may "
                        + "(max_client_conn in pgbouncer.ini). Ask its administrator to raise max_client_conn."));
            }
            if (!"53300".equals(sql.getSQLState())) {
                continue;
            }
            if (message.contains("for role")) {
                return Optional.of(tr("The database refused the connection: your database role has as many "
                        + "connections as it may (its CONNECTION LIMIT). Close other Lockstep windows, or ask the "
                        + "administrator to raise the role's CONNECTION LIMIT."));
            }
            if (message.contains("for database")) {
                return Optional.of(tr("The database refused the connection: it has as many connections as it may "
                        + "(its CONNECTION LIMIT). Ask the administrator to raise the database's CONNECTION LIMIT."));
            }
            return Optional.of(tr("The database server refused the connection: all its connections are in use "
                    + "(max_connections). Ask its administrator to raise max_connections or to put PgBouncer in "
                    + "front of it (docs/admin-guide.md, \"PgBouncer\"); closing other Lockstep windows frees some."));
        }
        return Optional.empty();
    }
}
