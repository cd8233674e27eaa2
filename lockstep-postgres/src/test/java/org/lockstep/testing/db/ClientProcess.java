package org.lockstep.testing.db;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.lockstep.server.Database;
import org.lockstep.config.LockstepConfig;

/**
 * A second Lockstep client in its own JVM, for tests of the shared embedded server: it opens the database of a data
 * directory as the desktop app does, prints {@code ready}, then answers each line on stdin: {@code count} prints the
 * number of customers, {@code quit} closes as the app does on exit (stopping the server when last). A closed stdin
 * also quits.
 */
public final class ClientProcess {

    private ClientProcess() {
    }

    /** @param args the data directory */
    public static void main(String[] args) throws Exception {
        LockstepConfig config =
                LockstepConfig.resolve(null, Path.of(args[0]), "process-" + ProcessHandle.current().pid(),
                        Map.of());
        Database db = Database.open(config, "Lockstep test client");
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("quit")) {
            if (line.equals("count")) {
                long n = db.jdbi()
                        .withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
                System.out.println("count " + n);
                System.out.flush();
            }
        }
        db.closeAndStopIfLast();
        System.out.println("closed");
        System.out.flush();
    }
}
