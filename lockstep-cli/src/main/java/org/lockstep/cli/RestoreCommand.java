package org.lockstep.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiHistoryRepository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep restore ID --to-version N --if-version V [--lease-token T] [--json]}: saves the values of version N
 * from the customer's history as a new version, with the same versioned save as {@code set} on version V, recorded
 * in the history as restoring version N (as the editor's "Restore this version"; V23). Exit 3 with the current record
 * when the customer moved past V (nothing is merged: the restore is of whole values), or when it is gone; exit 2 when
 * V is above its version, or N is no version its history holds with values.
 */
@Command(name = "restore", description = "Save an earlier version's values as a new version, if the customer is "
        + "still at the given version; the history records it as a restore.")
public final class RestoreCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
    long id;

    @Option(names = "--to-version", required = true, paramLabel = "N",
            description = "The earlier version whose values are saved (from the timeline or the History tab).")
    long toVersion;

    @Option(names = "--if-version", required = true, paramLabel = "V",
            description = "The version the restore is based on (from get or list).")
    long ifVersion;

    @Option(names = "--json", description = "Print the saved record as a JSON object.")
    boolean json;

    @Option(names = "--lease-token", paramLabel = "T",
            description = "Save under this lease (from lease acquire); exit 4 when it is no longer the record's lease.")
    Long leaseToken;

    @Override
    public Integer call() {
        try {
            CommandSupport.requireVersion(ifVersion);
            if (toVersion < 1) {
                throw new CommandSupport.UsageException("--to-version must be a version (1 or more), not " + toVersion);
            }
        } catch (IllegalArgumentException e) {
            return CommandSupport.failure(spec.commandLine().getErr(), e);
        }
        return CommandSupport.run(launcher, spec, s -> {
            String nothingDone = "nothing saved";
            Optional<Customer> found = s.customers().find(id);
            if (found.isEmpty()) {
                return CommandSupport.missing(s, id, nothingDone);
            }
            if (found.get().version() < ifVersion) {
                return CommandSupport.neverExisted(s, id, ifVersion, found.get(), nothingDone);
            }
            Optional<CustomerData> values = new JdbiHistoryRepository(s.db().jdbi()).valuesAt(id, toVersion);
            if (values.isEmpty()) {
                s.err().println("lockstep: customer " + id + " has no recorded version " + toVersion
                        + " to restore; " + nothingDone);
                return ExitCodes.INVALID;
            }
            if (found.get().version() == ifVersion && found.get().data().sameValues(values.get())) {
                s.err().println("lockstep: customer " + id + " already holds the values of version " + toVersion
                        + "; nothing saved");
                print(s, found.get(), false);
                return ExitCodes.OK;
            }
            // On version V itself even when the customer moved on, so that the conflict is the database's and counted.
            CustomerRepository restoring = s.customers().restoring(toVersion);
            SaveOutcome outcome = leaseToken == null ? restoring.save(id, ifVersion, values.get())
                    : restoring.saveUnderLease(id, ifVersion, values.get(), leaseToken);
            if (outcome instanceof SaveOutcome.Saved saved) {
                print(s, saved.saved(), true);
                return ExitCodes.OK;
            }
            if (outcome instanceof SaveOutcome.Locked locked) {
                return CommandSupport.locked(s, id, Optional.of(locked.holder()), nothingDone);
            }
            if (outcome instanceof SaveOutcome.LeaseLost lost) {
                if (lost.current().isEmpty() && s.customers().find(id).isEmpty()) {
                    return CommandSupport.missing(s, id, nothingDone);
                }
                return CommandSupport.locked(s, id, lost.current(), nothingDone);
            }
            return CommandSupport.conflict(s, id, ifVersion, ((SaveOutcome.Conflict) outcome).theirs(), nothingDone);
        });
    }

    /** @param restored whether this command saved it (as a restore of {@code --to-version}) */
    private void print(CommandSupport.Session s, Customer saved, boolean restored) {
        if (json) {
            CommandSupport.printJson(s.out(), saved);
        } else {
            s.out().println("id=" + saved.id() + " version=" + saved.version()
                    + (restored ? " restored_from=" + toVersion : ""));
        }
    }
}
