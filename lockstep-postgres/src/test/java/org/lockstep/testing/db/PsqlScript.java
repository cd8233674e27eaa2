package org.lockstep.testing.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.lockstep.server.admin.PsqlFile;

/**
 * An administrator's SQL file as it is in {@code docs/admin}, run as {@code psql -f FILE} would run it, by the same
 * interpreter the {@code lockstep admin} commands use ({@link PsqlFile}: the little of psql such a file uses; any
 * other meta-command, or a variable not given, fails).
 *
 * @param file the file, for messages
 * @param text its text
 */
public record PsqlScript(Path file, String text) {

    /** The file as it is. */
    public static PsqlScript read(Path file) throws IOException {
        return new PsqlScript(file, Files.readString(file, StandardCharsets.UTF_8));
    }

    /**
     * Runs the file on {@code server}, starting in {@code database} as {@code user}; {@code \connect} keeps the user.
     * Each statement runs on its own, in auto-commit mode, as psql sends them.
     *
     * @param variables psql's {@code -v name=value}
     * @param answer    what is typed when {@code \password} asks
     * @return the statements that ran, variables filled in ({@code \gexec}'s: those its queries wrote)
     * @throws SQLException the first statement the server refuses (psql would go on; the test must not)
     */
    public List<String> run(TestDatabases.Server server, String database, String user, String password,
            Map<String, String> variables, String answer) throws SQLException {
        return new PsqlFile(file.toString(), text).run(db -> DriverManager.getConnection(server.url(db), user,
                password), database, variables, role -> answer.toCharArray(), false).stream()
                .map(PsqlFile.Sent::sql).toList();
    }
}
