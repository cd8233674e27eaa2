package org.lockstep.cli;

import java.util.concurrent.Callable;
import org.lockstep.domain.DeleteOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep delete ID --if-version N}: a versioned delete ({@code DELETE … WHERE id = ? AND version = N});
 * exit 3 with the current record when the customer changed since version N, or when it is already gone ("no longer
 * exists") or never was ("no customer N").
 */
@Command(name = "delete", description = "Delete a customer if it is still at the given version.")
public final class DeleteCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
    long id;

    @Option(names = "--if-version", required = true, paramLabel = "N",
            description = "The version the deletion is based on (from get or list).")
    long ifVersion;

    @Option(names = "--lease-token", paramLabel = "T",
            description = "Delete under this lease; exit 4 when it is no longer the record's lease.")
    Long leaseToken;

    @Override
    public Integer call() {
        try {
            CommandSupport.requireVersion(ifVersion);
        } catch (IllegalArgumentException e) {
            return CommandSupport.failure(spec.commandLine().getErr(), e);
        }
        return CommandSupport.run(launcher, spec, s -> {
            DeleteOutcome outcome = leaseToken == null ? s.customers().delete(id, ifVersion)
                    : s.customers().deleteUnderLease(id, ifVersion, leaseToken);
            if (outcome instanceof DeleteOutcome.Conflict conflict && conflict.theirs().isPresent()
                    && conflict.theirs().get().version() < ifVersion) {
                return CommandSupport.neverExisted(s, id, ifVersion, conflict.theirs().get(), "nothing deleted");
            }
            if (outcome instanceof DeleteOutcome.Conflict conflict) {
                return CommandSupport.conflict(s, id, ifVersion, conflict.theirs(), "nothing deleted");
            }
            if (outcome instanceof DeleteOutcome.Locked locked) {
                return CommandSupport.locked(s, id, java.util.Optional.of(locked.holder()), "nothing deleted");
            }
            if (outcome instanceof DeleteOutcome.LeaseLost lost) {
                // No lease is left on a customer that is gone: say it is gone, not that the token is stale.
                if (lost.current().isEmpty() && s.customers().find(id).isEmpty()) {
                    return CommandSupport.missing(s, id, "nothing deleted");
                }
                return CommandSupport.locked(s, id, lost.current(), "nothing deleted");
            }
            s.out().println("deleted id=" + id);
            return ExitCodes.OK;
        });
    }
}
