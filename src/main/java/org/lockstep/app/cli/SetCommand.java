package org.lockstep.app.cli;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.lockstep.app.Launcher;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep set ID FIELD=VALUE... --if-version N [--json]}: changes the named fields with the same versioned
 * save as the editor ({@code UPDATE … WHERE id = ? AND version = N}). The other fields keep the values of version N;
 * when the customer is no longer at version N, nothing is saved and the command exits 3 with the current record.
 */
@Command(name = "set", description = "Change fields of a customer if it is still at the given version; "
        + "prints the new version.")
public final class SetCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
    long id;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "FIELD=VALUE",
            description = "New values; FIELD= (nothing after =) clears the field.")
    List<String> values;

    @Option(names = "--if-version", required = true, paramLabel = "N",
            description = "The version these changes are based on (from get or list).")
    long ifVersion;

    @Option(names = "--json", description = "Print the saved record as a JSON object.")
    boolean json;

    @Option(names = "--lease-token", paramLabel = "T",
            description = "Save under this lease (from lease acquire); exit 4 when it is no longer the record's lease.")
    Long leaseToken;

    @Override
    public Integer call() {
        Map<CustomerField, Object> assignments;
        try {
            assignments = CommandSupport.assignments(values);
        } catch (IllegalArgumentException e) {
            return CommandSupport.failure(spec.commandLine().getErr(), e);
        }
        return CommandSupport.run(launcher, spec, s -> {
            String nothingDone = "nothing saved";
            Optional<Customer> current = s.customers().find(id);
            // The changes are based on version N: only version N's values are the right base for the other fields.
            if (current.isEmpty() || current.get().version() != ifVersion) {
                return CommandSupport.conflict(s, id, ifVersion, current, nothingDone);
            }
            var mine = CommandSupport.apply(current.get().data(), assignments);
            SaveOutcome outcome = leaseToken == null ? s.customers().save(id, ifVersion, mine)
                    : s.customers().saveUnderLease(id, ifVersion, mine, leaseToken);
            if (outcome instanceof SaveOutcome.Conflict conflict) {
                return CommandSupport.conflict(s, id, ifVersion, conflict.theirs(), nothingDone);
            }
            if (outcome instanceof SaveOutcome.Locked locked) {
                return CommandSupport.locked(s, id, Optional.of(locked.holder()), nothingDone);
            }
            if (outcome instanceof SaveOutcome.LeaseLost lost) {
                return CommandSupport.locked(s, id, lost.current(), nothingDone);
            }
            Customer saved = ((SaveOutcome.Saved) outcome).saved();
            if (json) {
                CommandSupport.printJson(s.out(), saved);
            } else {
                s.out().println("id=" + saved.id() + " version=" + saved.version());
            }
            return Launcher.OK;
        });
    }
}
