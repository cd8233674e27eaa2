package org.lockstep.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep bench …}, as it was before the benchmarks got a jar of their own (issue 25): not in {@code --help},
 * it only says where the benchmarks are now and ends with {@link ExitCodes#INVALID}, so that a script written for the
 * old command fails with the way to fix it.
 */
@Command(name = "bench", hidden = true,
        description = "The benchmarks moved to their own jar, target/lockstep-bench.jar.")
public final class BenchmarksMovedCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Unmatched
    List<String> rest = new ArrayList<>();

    @Override
    public Integer call() {
        String command = rest.isEmpty() ? "save" : String.join(" ", rest);
        spec.commandLine().getErr().printf("The benchmarks and the data generator are in their own jar now: "
                + "java -jar target/lockstep-bench.jar %s (its --help lists save, list, live, lease, operators and "
                + "generate).%n", command);
        return ExitCodes.INVALID;
    }
}
