package org.lockstep.server.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;

/**
 * An administrator's SQL file ({@code docs/admin/*.sql}), run as {@code psql -f FILE} runs it, for the little of psql
 * such a file uses, so that the same file serves the {@code lockstep admin} commands and those who prefer psql:
 * <ul>
 *   <li>statements ended by a semicolon at the end of a line (outside a {@code $$} body), {@code --} comments;</li>
 *   <li>{@code \gexec} ending a query: each value of its result is then run as a statement, in order (psql docs,
 *       "Meta-Commands"), which is how a file says "only what is not yet so";</li>
 *   <li>{@code :'name'} and {@code :"name"}: psql's {@code -v name=value}, as a quoted literal or a quoted identifier,
 *       outside quoted text and {@code $$} bodies, as psql replaces them;</li>
 *   <li>{@code \connect DB} (also {@code \c}, the name given or a variable) and {@code \password ROLE}: the password
 *       asked for is hashed here (SCRAM-SHA-256), as psql does, so it never reaches the server or its log.</li>
 * </ul>
 * Any other meta-command, or a variable not given, fails, so a file that comes to need more of psql fails its test
 * instead of running differently here.
 *
 * @param name the file's name, for messages
 * @param text its text
 */
public record PsqlFile(String name, String text) {

    private static final Pattern VARIABLE = Pattern.compile(":(['\"])(\\w+)\\1");
    private static final Pattern META = Pattern.compile("\\\\(\\w+)(?:\\s+(.*?))?\\s*");
    private static final String GEXEC = "\\gexec";

    /** Where a file runs: a connection to a database of the same server, as the same login. */
    @FunctionalInterface
    public interface Server {
        Connection connect(String database) throws SQLException;
    }

    /** A statement the file sent and the line of the file it came from. */
    public record Sent(int line, String sql) {
    }

    /** A statement the server refused, with the line of the file it came from. */
    public static final class Refused extends SQLException {
        private final Sent statement;

        Refused(Sent statement, SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause);
            this.statement = statement;
        }

        /** The statement refused, variables filled in (a password as {@code '…'}). */
        public Sent statement() {
            return statement;
        }
    }

    /** Lockstep's copy of {@code docs/admin/NAME} (the build puts the files there). */
    public static PsqlFile resource(String name) {
        try (InputStream in = PsqlFile.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("Lockstep's " + name + " is missing from its jar");
            }
            return new PsqlFile(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs the file on {@code server}, starting in {@code database}. Without {@code oneTransaction} each statement
     * runs on its own in auto-commit mode, as psql sends them; with it, all of them in one transaction, committed at
     * the end or rolled back at the first refusal (psql's {@code -1}; {@code \connect} is refused then).
     *
     * @param variables what psql's {@code -v name=value} would give
     * @param passwords the password for a role that {@code \password ROLE} names
     * @return the statements that changed something, in order: the plain ones and those a {@code \gexec} query
     *         wrote, not the queries themselves (a password as {@code '…'})
     * @throws Refused the first statement the server refuses (psql would go on; an administrator's command must not)
     */
    public List<Sent> run(Server server, String database, Map<String, String> variables,
            Function<String, char[]> passwords, boolean oneTransaction) throws SQLException {
        Connection[] c = {server.connect(database)};
        try {
            c[0].setAutoCommit(!oneTransaction);
            List<Sent> sent = steps(c, oneTransaction ? null : server, variables, passwords);
            if (oneTransaction) {
                c[0].commit();
            }
            return sent;
        } catch (SQLException | RuntimeException e) {
            if (oneTransaction && !c[0].isClosed()) {
                c[0].rollback();
            }
            throw e;
        } finally {
            c[0].close();
        }
    }

    /**
     * Runs the file on {@code c}, in the caller's transaction (if any), leaving it open: for a caller that does more
     * in the same transaction. {@code \connect} is refused.
     *
     * @return as {@link #run}
     * @throws Refused as {@link #run}
     */
    public List<Sent> runOn(Connection c, Map<String, String> variables, Function<String, char[]> passwords)
            throws SQLException {
        return steps(new Connection[]{c}, null, variables, passwords);
    }

    private List<Sent> steps(Connection[] c, Server server, Map<String, String> variables,
            Function<String, char[]> passwords) throws SQLException {
        List<Sent> sent = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        int first = 0;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int line = i + 1;
            String code = withoutComment(lines[i]).strip();
            if (statement.toString().isBlank()) {
                first = line;
            }
            if (code.startsWith("\\") && statement.toString().isBlank()) {
                c[0] = meta(code, line, c[0], server, variables, passwords, sent);
                continue;
            }
            boolean gexec = code.endsWith(GEXEC) && dollarQuotes(statement) % 2 == 0;
            statement.append(gexec ? code.substring(0, code.length() - GEXEC.length()) : code).append('\n');
            if (gexec) {
                Sent query = new Sent(first, filled(statement.toString().strip(), variables));
                for (String generated : query(c[0], query)) {
                    execute(c[0], new Sent(first, generated), sent);
                }
                statement.setLength(0);
            } else if (code.endsWith(";") && dollarQuotes(statement) % 2 == 0) {
                execute(c[0], new Sent(first, filled(statement.toString().strip(), variables)), sent);
                statement.setLength(0);
            } else if (code.startsWith("\\")) {
                throw new IllegalArgumentException(name + ":" + line + ": psql's " + code
                        + " inside a statement is not supported here");
            }
        }
        if (!statement.toString().isBlank()) {
            throw new IllegalArgumentException(name + ": a statement without its semicolon: " + statement);
        }
        return sent;
    }

    private Connection meta(String code, int line, Connection c, Server server, Map<String, String> variables,
            Function<String, char[]> passwords, List<Sent> sent) throws SQLException {
        Matcher m = META.matcher(code);
        String command = m.matches() ? m.group(1) : code;
        String argument = m.matches() && m.group(2) != null ? identifier(m.group(2), variables, line) : null;
        if ((command.equals("c") || command.equals("connect")) && argument != null && server != null) {
            c.close();
            Connection next = server.connect(argument);
            next.setAutoCommit(true);
            return next;
        }
        if (command.equals("password") && argument != null) {
            char[] password = passwords.apply(argument);
            Sent statement = new Sent(line, "ALTER ROLE " + quoteIdentifier(argument) + " PASSWORD '…'");
            try {
                // pgjdbc hashes it (SCRAM-SHA-256) and sends only the hash, as psql's \password does.
                c.unwrap(PGConnection.class).alterUserPassword(argument, password, "scram-sha-256");
            } catch (SQLException e) {
                throw new Refused(statement, e);
            } finally {
                java.util.Arrays.fill(password, '\0');
            }
            sent.add(statement);
            return c;
        }
        throw new IllegalArgumentException(name + ":" + line + ": psql's " + code + " is not supported here");
    }

    /** A meta-command's argument: a name, a {@code "quoted"} name, or a variable giving one. */
    private String identifier(String argument, Map<String, String> variables, int line) {
        Matcher v = VARIABLE.matcher(argument);
        if (v.matches()) {
            return variable(v.group(2), variables);
        }
        if (argument.length() >= 2 && argument.startsWith("\"") && argument.endsWith("\"")) {
            return argument.substring(1, argument.length() - 1).replace("\"\"", "\"");
        }
        if (argument.matches("\\w+")) {
            return argument.toLowerCase(java.util.Locale.ROOT);
        }
        throw new IllegalArgumentException(name + ":" + line + ": cannot read the name " + argument);
    }

    private static List<String> query(Connection c, Sent query) throws SQLException {
        List<String> generated = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query.sql())) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    String value = rs.getString(i);
                    if (value != null) {
                        generated.add(value);
                    }
                }
            }
        } catch (SQLException e) {
            throw new Refused(query, e);
        }
        return generated;
    }

    private static void execute(Connection c, Sent statement, List<Sent> sent) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(statement.sql());
        } catch (SQLException e) {
            throw new Refused(statement, e);
        }
        sent.add(statement);
    }

    /** A name as a quoted identifier: {@code Ann "Bo"} becomes {@code "Ann ""Bo"""}. */
    public static String quoteIdentifier(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** How many {@code $$} the statement holds so far: odd while inside a function's or a DO block's body. */
    private static int dollarQuotes(CharSequence statement) {
        int n = 0;
        for (int i = statement.toString().indexOf("$$"); i >= 0; i = statement.toString().indexOf("$$", i + 2)) {
            n++;
        }
        return n;
    }

    /** {@code line} up to a {@code --} that is outside a quoted literal. */
    private static String withoutComment(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == '\'') {
                quoted = !quoted;
            } else if (!quoted && line.startsWith("--", i)) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** {@code sql} with its variables filled in, outside quoted text and {@code $$} bodies (psql leaves those). */
    private String filled(String sql, Map<String, String> variables) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < sql.length()) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"' || sql.startsWith("$$", i)) {
                String close = sql.startsWith("$$", i) ? "$$" : String.valueOf(ch);
                int end = sql.indexOf(close, i + close.length());
                end = end < 0 ? sql.length() : end + close.length();
                out.append(sql, i, end);
                i = end;
                continue;
            }
            Matcher m = VARIABLE.matcher(sql).region(i, sql.length());
            if (ch == ':' && m.lookingAt() && (i == 0 || sql.charAt(i - 1) != ':')) {
                String quote = m.group(1);
                String value = variable(m.group(2), variables);
                out.append(quote).append(value.replace(quote, quote + quote)).append(quote);
                i = m.end();
                continue;
            }
            out.append(ch);
            i++;
        }
        return out.toString();
    }

    private String variable(String variable, Map<String, String> variables) {
        String value = variables.get(variable);
        if (value == null) {
            throw new IllegalArgumentException(name + ": psql variable " + variable + " not given");
        }
        return value;
    }
}
