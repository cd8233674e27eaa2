package org.lockstep.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.lockstep.app.Launcher;

/**
 * Runs Lockstep's command line in-process against one database as one operator, capturing stdout and stderr.
 *
 * @param dbUrl a JDBC URL carrying its credentials ({@link TestDatabases#freshUrlWithCredentials()})
 * @param user  the operator's name ({@code --user})
 */
public record Cli(String dbUrl, String user) {

    /** What one command did. */
    public record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs {@code lockstep --db-url URL --user USER ARGS...}. */
    public Result run(String... args) {
        List<String> all = new ArrayList<>(List.of("--db-url", dbUrl, "--user", user));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Launcher.run(new PrintWriter(out), new PrintWriter(err), all.toArray(String[]::new));
        return new Result(exit, out.toString(), err.toString());
    }
}
