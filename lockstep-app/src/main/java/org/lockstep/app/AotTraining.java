package org.lockstep.app;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.lockstep.cli.ExitCodes;
import org.lockstep.cli.Launcher;

/**
 * The commands of the app image's training run (issue 30; {@code lockstep-app/src/dist/train-aot.sh}): the JVM
 * records which classes a run loads and links into the image's AOT cache ({@code -XX:AOTCacheOutput}, JEP 483 and
 * 514), and a cache comes from one run, so the commands an operator's scripts run most — {@code get}, {@code set},
 * {@code lease acquire} and {@code release}, {@code list} — run here in the same JVM before it opens the desktop to its
 * first page. They run on the training's scratch data directory (the sample customers), their output discarded.
 */
final class AotTraining {

    /** The system property that runs the commands before the arguments given ({@code true}). */
    static final String PROPERTY = "lockstep.training.commands";

    private static final Pattern VERSION = Pattern.compile("\"version\"\\s*:\\s*(\\d+)");
    private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*(\\d+)");

    private AotTraining() {
    }

    /**
     * Runs the training's commands on customer 1 of the configured data directory, then says so on stderr ({@code
     * lockstep-training commands done}, which the training script waits for).
     *
     * @throws IllegalStateException when a command fails: a cache trained on a failure would be no cache of the usual
     *                               path
     */
    static void runCommands() {
        run("get", "1");
        String version = find(VERSION, run("get", "1", "--json"));
        run("set", "1", "notes=Trained at build time", "--if-version", version);
        String token = find(TOKEN, run("lease", "acquire", "1", "--json"));
        run("lease", "release", "1", "--token", token);
        run("list");
        run("list", "--json");
        System.err.println("lockstep-training commands done");
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Launcher.run(new PrintWriter(out), new PrintWriter(err), args);
        if (code != ExitCodes.OK) {
            throw new IllegalStateException("The training's lockstep " + String.join(" ", args) + " failed (exit "
                    + code + "): " + err);
        }
        return out.toString();
    }

    private static String find(Pattern pattern, String json) {
        Matcher m = pattern.matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("The training's command printed no " + pattern + ": " + json);
        }
        return m.group(1);
    }
}
