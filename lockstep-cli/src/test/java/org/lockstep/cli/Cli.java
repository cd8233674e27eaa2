package org.lockstep.cli;

import org.lockstep.testing.db.TestDatabases;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs Lockstep's command line in-process against one database as one operator, capturing stdout and stderr.
 *
 * @param dbUrl   a JDBC URL carrying its credentials ({@link TestDatabases#freshUrlWithCredentials()})
 * @param user    the operator's name ({@code --user})
 * @param dataDir the data directory ({@code --data-dir}), where the command line keeps its session: two Clis with
 *                different data directories are two machines, even under the same user name
 */
public record Cli(String dbUrl, String user, Path dataDir) {

    /** The data directory of every Cli made without one: one machine. */
    public static final Path THIS_MACHINE = Path.of("target", "cli-data");

    /** A Cli on {@link #THIS_MACHINE}. */
    public Cli(String dbUrl, String user) {
        this(dbUrl, user, THIS_MACHINE);
    }

    /** The same database and data directory, as another operator. */
    public Cli as(String otherUser) {
        return new Cli(dbUrl, otherUser, dataDir);
    }

    /** What one command did. */
    public record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs {@code lockstep --db-url URL --user USER ARGS...}. */
    public Result run(String... args) {
        List<String> all = new ArrayList<>(List.of("--db-url", dbUrl, "--user", user, "--data-dir",
                dataDir.toString()));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Launcher.run(new PrintWriter(out), new PrintWriter(err), all.toArray(String[]::new));
        return new Result(exit, out.toString(), err.toString());
    }
}
