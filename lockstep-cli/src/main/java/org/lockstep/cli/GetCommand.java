package org.lockstep.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import org.lockstep.domain.Customer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep get ID [--json]}: one customer as stored now. Exit 3 when there is none: "no customer N", or
 * "customer N no longer exists" when it was deleted.
 */
@Command(name = "get", description = "Show one customer, with its version.")
public final class GetCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
    long id;

    @Option(names = "--json", description = "Print a JSON object whose keys are the column names.")
    boolean json;

    @Override
    public Integer call() {
        return CommandSupport.run(launcher, spec, s -> {
            Optional<Customer> customer = s.customers().find(id);
            if (customer.isEmpty()) {
                return CommandSupport.missing(s, id, "");
            }
            if (json) {
                CommandSupport.printJson(s.out(), customer.get());
            } else {
                CommandSupport.printPlain(s.out(), customer.get());
            }
            return ExitCodes.OK;
        });
    }
}
