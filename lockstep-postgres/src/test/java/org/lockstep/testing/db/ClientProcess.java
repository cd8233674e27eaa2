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

    /** The {@code application_name} of the sessions of the client process {@code pid}. */
    public static String applicationName(long pid) {
        return "Lockstep test client " + pid;
    }

    /** @param args the data directory */
    public static void main(String[] args) throws Exception {
        LockstepConfig config =
                LockstepConfig.resolve(null, Path.of(args[0]), "process-" + ProcessHandle.current().pid(),
                        Map.of());
        // Named by its pid, so that a test can tell its sessions from another client's on the same server.
        Database db = Database.open(config, applicationName(ProcessHandle.current().pid()));
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
