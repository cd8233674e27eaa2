package org.lockstep.cli;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lockstep create FIELD=VALUE... [--json]}: a new customer at version 1; prints its id and version. */
@Command(name = "create", description = "Create a customer; prints its id and version.")
public final class CreateCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FIELD=VALUE",
            description = "Field values, e.g. company=\"Acme Ltd\" email=sales@acme.example credit_limit=5000.")
    List<String> values;

    @Option(names = "--json", description = "Print the new record as a JSON object.")
    boolean json;

    @Override
    public Integer call() {
        Map<CustomerField, Object> assignments;
        try {
            assignments = CommandSupport.assignments(spec, values, launcher.config().fieldParser());
        } catch (IllegalArgumentException e) {
            return CommandSupport.failure(spec.commandLine().getErr(), e);
        }
        return CommandSupport.run(launcher, spec, s -> {
            Customer created = s.customers().create(CommandSupport.apply(CustomerData.EMPTY, assignments));
            if (json) {
                CommandSupport.printJson(s.out(), created);
            } else {
                s.out().println("id=" + created.id() + " version=" + created.version());
            }
            return ExitCodes.OK;
        });
    }
}
