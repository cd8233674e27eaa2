package org.lockstep.testing.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An administrator's SQL file, run as {@code psql -f FILE} would run it, for the little of psql such a file uses:
 * statements ended by a semicolon at the end of a line (outside a {@code $$} body), {@code --} comments,
 * {@code :'name'} and {@code :"name"} variables (psql's {@code -v name=value}, sent as a quoted literal or a quoted
 * identifier) and {@code \connect DB}. Any other meta-command, or a variable not
 * given, fails, so a file that comes to need more of psql fails its test instead of running differently here.
 *
 * @param file the file, for messages
 * @param text its text, names replaced by {@link #renaming}
 */
public record PsqlScript(Path file, String text) {

    private static final Pattern VARIABLE = Pattern.compile("(?<!:):(['\"])(\\w+)\\1");
    private static final Pattern CONNECT = Pattern.compile("\\\\(?:c|connect)\\s+(\\w+)\\s*");

    /** The file as it is. */
    public static PsqlScript read(Path file) throws IOException {
        return new PsqlScript(file, Files.readString(file, StandardCharsets.UTF_8));
    }

    /**
     * The same file with each name replaced as a whole word ({@code lockstep} is not replaced inside
     * {@code lockstep_owner}): roles belong to the whole server, which other tests and a developer's own Lockstep may
     * share, so a test gives them names of its own.
     */
    public PsqlScript renaming(Map<String, String> names) {
        String renamed = text;
        for (Map.Entry<String, String> e : names.entrySet()) {
            renamed = renamed.replaceAll("(?<![\\w$])" + Pattern.quote(e.getKey()) + "(?![\\w$])",
                    Matcher.quoteReplacement(e.getValue()));
        }
        return new PsqlScript(file, renamed);
    }

    /**
     * Runs the file on {@code server}, starting in {@code database} as {@code user}; {@code \connect} keeps the user.
     * Each statement runs on its own, in auto-commit mode, as psql sends them.
     *
     * @return the statements sent, variables filled in
     * @throws SQLException the first statement the server refuses (psql would go on; the test must not)
     */
    public List<String> run(TestDatabases.Server server, String database, String user, String password,
            Map<String, String> variables) throws SQLException {
        List<String> sent = new ArrayList<>();
        Connection c = DriverManager.getConnection(server.url(database), user, password);
        try {
            StringBuilder statement = new StringBuilder();
            for (String line : text.split("\n", -1)) {
                String code = withoutComment(line).strip();
                if (code.startsWith("\\")) {
                    Matcher connect = CONNECT.matcher(code);
                    if (!connect.matches() || !statement.toString().isBlank()) {
                        throw new IllegalArgumentException(file + ": psql's " + code + " is not supported here");
                    }
                    c.close();
                    c = DriverManager.getConnection(server.url(connect.group(1)), user, password);
                    continue;
                }
                statement.append(code).append('\n');
                if (code.endsWith(";") && dollarQuotes(statement) % 2 == 0) {
                    String sql = filled(statement.toString().strip(), variables);
                    try (Statement s = c.createStatement()) {
                        s.execute(sql);
                    }
                    sent.add(sql);
                    statement.setLength(0);
                }
            }
            if (!statement.toString().isBlank()) {
                throw new IllegalArgumentException(file + ": a statement without its semicolon: " + statement);
            }
        } finally {
            c.close();
        }
        return sent;
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

    private String filled(String sql, Map<String, String> variables) {
        Matcher m = VARIABLE.matcher(sql);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = variables.get(m.group(2));
            if (value == null) {
                throw new IllegalArgumentException(file + ": psql variable " + m.group(2) + " not given");
            }
            String quote = m.group(1);
            m.appendReplacement(out, Matcher.quoteReplacement(quote + value.replace(quote, quote + quote) + quote));
        }
        m.appendTail(out);
        return out.toString();
    }
}
