package org.lockstep.cli;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.FieldParser;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.merge.FieldMerge;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.MergeSave;
import org.lockstep.store.JdbiHistoryRepository;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * With {@code --merge} ({@link CustomerEditing#mergeAndSave}, as the editor's merge dialog), a customer that moved past version N is merged three-way (base = version N from the
 * history, mine = version N with these changes, theirs = the customer now) and saved when nothing conflicts; when
 * something does, nothing is saved and it exits 3 with the conflicting fields as JSON.
 */
@Command(name = "set", description = "Change fields of a customer if it is still at the given version; "
        + "prints the new version.")
public final class SetCommand implements Callable<Integer> {

    private static final int MAX_MERGE_ATTEMPTS = 5;

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

    @Option(names = "--merge", description = "If the customer moved past version N, merge these changes with the "
            + "newer version (three-way, base = version N from the history) and save when nothing conflicts.")
    boolean merge;

    @Option(names = "--lease-token", paramLabel = "T",
            description = "Save under this lease (from lease acquire); exit 4 when it is no longer the record's lease.")
    Long leaseToken;

    @Override
    public Integer call() {
        Map<CustomerField, Object> assignments;
        try {
            CommandSupport.requireVersion(ifVersion);
            assignments = CommandSupport.assignments(spec, values, launcher.config().fieldParser());
        } catch (IllegalArgumentException e) {
            return CommandSupport.failure(spec.commandLine().getErr(), e);
        }
        return CommandSupport.run(launcher, spec, s -> {
            String nothingDone = "nothing saved";
            Optional<Customer> found = s.customers().find(id);
            if (found.isPresent()) {
                // Invalid input is exit 2 whatever the version: judged on what these assignments change.
                judgeChanges(found.get().data(), CommandSupport.apply(found.get().data(), assignments));
            }
            if (found.isPresent() && found.get().version() < ifVersion) {
                return CommandSupport.neverExisted(s, id, ifVersion, found.get(), nothingDone);
            }
            if (found.isPresent() && found.get().version() > ifVersion && !merge) {
                // Refused by the versioned save on version N itself, not by this read alone, so that the repository
                // counts the conflict (hot-record advice) as it counts an editor's. Versions only grow: it writes
                // nothing, and says why (a conflict, or a lock, most actionable first).
                return savedOrRefused(s, versionedSave(s, ifVersion, CommandSupport.apply(found.get().data(),
                        assignments)), nothingDone);
            }
            if (found.isEmpty() || (found.get().version() != ifVersion && !merge)) {
                return CommandSupport.conflict(s, id, ifVersion, found, nothingDone);
            }
            // The changes are based on version N: only version N's values are the right base for the other fields.
            Optional<CustomerData> base = found.get().version() == ifVersion ? Optional.of(found.get().data())
                    : new JdbiHistoryRepository(s.db().jdbi()).valuesAt(id, ifVersion);
            if (base.isEmpty()) {
                s.err().println("lockstep: customer " + id + " has no recorded version " + ifVersion
                        + " to merge from; " + nothingDone);
                return ExitCodes.CONFLICT;
            }
            CustomerData mine = CommandSupport.apply(base.get(), assignments);
            Customer current = found.get();
            Customer baseVersion = new Customer(id, ifVersion, base.get(), current.updatedAt(), current.updatedBy());
            // A stored value that breaks a rule in a field left alone is saved as it is, with a warning naming the
            // field: a record another tool wrote must stay editable.
            CustomerEditing.MergeOptions options = new CustomerEditing.MergeOptions(merge ? MAX_MERGE_ATTEMPTS : 1,
                    assignments.keySet(), leaseToken == null ? OptionalLong.empty() : OptionalLong.of(leaseToken),
                    (now, toSave) -> judgeChanges(now.data(), toSave).warnings()
                            .forEach(w -> s.err().println("lockstep: warning: " + w)));
            MergeSave outcome = new CustomerEditing(s.customers()).mergeAndSave(baseVersion, mine, current, options);
            return finished(s, outcome, nothingDone);
        });
    }

    /**
     * Judges what this command changes in {@code stored}; exit 2 (through {@link CommandSupport#failure}) when a
     * changed value breaks a rule.
     *
     * @return the findings, whose warnings name stored values that break a rule in fields left alone
     */
    private static CustomerValidator.Findings judgeChanges(CustomerData stored, CustomerData mine) {
        CustomerValidator.Findings findings = CustomerValidator.validateChanges(stored, mine);
        if (!findings.ok()) {
            throw new InvalidCustomerException(findings.errors());
        }
        return findings;
    }

    private SaveOutcome versionedSave(CommandSupport.Session s, long baseVersion, CustomerData data) {
        return leaseToken == null ? s.customers().save(id, baseVersion, data)
                : s.customers().saveUnderLease(id, baseVersion, data, leaseToken);
    }

    /** The exit code for a plain versioned save's outcome, after printing it. */
    private int savedOrRefused(CommandSupport.Session s, SaveOutcome outcome, String nothingDone) throws Exception {
        if (outcome instanceof SaveOutcome.Saved saved) {
            print(s, saved.saved());
            return ExitCodes.OK;
        }
        if (outcome instanceof SaveOutcome.Locked locked) {
            return CommandSupport.locked(s, id, Optional.of(locked.holder()), nothingDone);
        }
        if (outcome instanceof SaveOutcome.LeaseLost lost) {
            return leaseLost(s, lost.current(), nothingDone);
        }
        return CommandSupport.conflict(s, id, ifVersion, ((SaveOutcome.Conflict) outcome).theirs(), nothingDone);
    }

    /** The exit code for {@link CustomerEditing#mergeAndSave}'s outcome, after printing it. */
    private int finished(CommandSupport.Session s, MergeSave outcome, String nothingDone) throws Exception {
        if (outcome instanceof MergeSave.Saved saved) {
            print(s, saved.saved());
            return ExitCodes.OK;
        } else if (outcome instanceof MergeSave.AlreadyStored stored) {
            s.err().println("lockstep: customer " + id + " already holds these values; nothing saved");
            print(s, stored.theirs());
            return ExitCodes.OK;
        } else if (outcome instanceof MergeSave.Conflicts conflicts) {
            return mergeConflict(s, conflicts.theirs(), conflicts.fields());
        } else if (outcome instanceof MergeSave.Locked locked) {
            return CommandSupport.locked(s, id, Optional.of(locked.holder()), nothingDone);
        } else if (outcome instanceof MergeSave.LeaseLost lost) {
            return leaseLost(s, lost.current(), nothingDone);
        } else if (outcome instanceof MergeSave.Deleted) {
            return CommandSupport.conflict(s, id, ifVersion, Optional.empty(), nothingDone);
        }
        Customer theirs = ((MergeSave.MovedOn) outcome).theirs();
        if (!merge) {
            return CommandSupport.conflict(s, id, ifVersion, Optional.of(theirs), nothingDone);
        }
        s.err().println("lockstep: customer " + id + " kept changing while merging; " + nothingDone);
        return ExitCodes.CONFLICT;
    }

    private int leaseLost(CommandSupport.Session s, Optional<LeaseInfo> current, String nothingDone) throws Exception {
        // Deleted meanwhile, and its lease with it: say it is gone, not that the token is stale.
        if (current.isEmpty() && s.customers().find(id).isEmpty()) {
            return CommandSupport.missing(s, id, nothingDone);
        }
        return CommandSupport.locked(s, id, current, nothingDone);
    }

    private void print(CommandSupport.Session s, Customer saved) {
        if (json) {
            CommandSupport.printJson(s.out(), saved);
        } else {
            s.out().println("id=" + saved.id() + " version=" + saved.version());
        }
    }

    /** Exit 3 with the conflicting fields as JSON on stdout: {@code {id, base_version, current_version, conflicts}}. */
    private int mergeConflict(CommandSupport.Session s, Customer theirs, List<FieldMerge> fields) throws Exception {
        ObjectNode node = Json.mapper().createObjectNode();
        node.put("id", id);
        node.put("base_version", ifVersion);
        node.put("current_version", theirs.version());
        ArrayNode conflicts = node.putArray("conflicts");
        for (FieldMerge f : fields) {
            ObjectNode c = conflicts.addObject();
            c.put("field", f.field().column());
            c.put("base", FieldParser.NEUTRAL.format(f.base()));
            c.put("mine", FieldParser.NEUTRAL.format(f.mine()));
            c.put("theirs", FieldParser.NEUTRAL.format(f.theirs()));
        }
        s.out().println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(node));
        s.err().println("lockstep: conflict: " + fields.size() + " field(s) given here were also changed since "
                + "version " + ifVersion + " (now version " + theirs.version() + "): " + String.join(", ",
                        fields.stream().map(f -> f.field().column()).toList())
                + "; nothing saved. The conflicts are on stdout.");
        return ExitCodes.CONFLICT;
    }
}
