package org.lockstep.editing;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.Set;
import java.util.function.BiConsumer;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.merge.FieldMerge;
import org.lockstep.domain.merge.MergeResult;
import org.lockstep.domain.merge.ThreeWayMerge;

/**
 * The editing rules every front end shares (the editor, the merge dialog, {@code lockstep set}): which save a
 * {@link ConcurrencyMode} makes, when a save has nothing to write, and the merge-and-retry loop after a conflict.
 * Plain Java and blocking: callers run it off the UI thread (the view models through their task executor).
 *
 * <p>Rules kept here, and only here:
 * <ul>
 *   <li>The save by mode (PoEAA, Optimistic / Pessimistic Offline Lock): optimistic saves on the base version; under
 *       a held lease the save carries its fencing token; last write wins (teaching only) overwrites blindly.</li>
 *   <li>"Already stored": values the record already holds are not written again — a new version with nothing new
 *       would only make everyone else's version stale.</li>
 *   <li>"Same as theirs": a conflict whose newer version holds exactly my values needs no merge; yet it is not my
 *       save (the store recognises a retry of my own save by its request id, ADR 0009), so it is reported as such.</li>
 * </ul>
 */
public final class CustomerEditing {

    private final CustomerRepository customers;

    /** @param customers the repository acting as the writer (an editor's writer id, or the CLI's session) */
    public CustomerEditing(CustomerRepository customers) {
        this.customers = Objects.requireNonNull(customers, "customers");
    }

    /** The repository these rules write through. */
    public CustomerRepository customers() {
        return customers;
    }

    /**
     * Saves {@code mine} over {@code base} the way {@code mode} guards it: {@code save(id, base.version, mine)}
     * optimistically; {@code saveUnderLease} when in lock mode with {@code leaseToken}; {@code overwrite} for last
     * write wins. Blocking.
     *
     * @param leaseToken the fencing token of the lease the editor holds; empty when it holds none
     * @return the repository's outcome: saved, conflict (theirs, or deleted), locked by another, or lease lost
     */
    public SaveOutcome save(ConcurrencyMode mode, OptionalLong leaseToken, Customer base, CustomerData mine) {
        return save(customers, mode, leaseToken, base, mine);
    }

    /**
     * As {@link #save}, recorded in the history as restoring {@code restoredFrom} of the customer
     * ({@link CustomerRepository#restoring}): "Restore this version" saves that version's values, {@code mine}. A
     * conflict is a conflict as for any save; whatever is saved after it (a merge) is no restore.
     *
     * @param restoredFrom the version whose values {@code mine} are, at least 1
     */
    public SaveOutcome restore(ConcurrencyMode mode, OptionalLong leaseToken, Customer base, CustomerData mine,
            long restoredFrom) {
        return save(customers.restoring(restoredFrom), mode, leaseToken, base, mine);
    }

    private static SaveOutcome save(CustomerRepository customers, ConcurrencyMode mode, OptionalLong leaseToken,
            Customer base, CustomerData mine) {
        if (mode == ConcurrencyMode.LAST_WRITE_WINS) {
            return customers.overwrite(base.id(), mine);
        }
        if (mode == ConcurrencyMode.LOCK_FOR_EDITING && leaseToken.isPresent()) {
            return customers.saveUnderLease(base.id(), base.version(), mine, leaseToken.getAsLong());
        }
        return customers.save(base.id(), base.version(), mine);
    }

    /** A versioned delete of {@code base}, fenced by {@code leaseToken} when present. Blocking. */
    public DeleteOutcome delete(Customer base, OptionalLong leaseToken) {
        return leaseToken.isPresent() ? customers.deleteUnderLease(base.id(), base.version(), leaseToken.getAsLong())
                : customers.delete(base.id(), base.version());
    }

    /** Creates a customer from {@code values}. Blocking. */
    public Customer create(CustomerData values) {
        return customers.create(values);
    }

    /** Creates a customer from {@code values} once, however often {@code request} is sent. Blocking. */
    public Customer create(CustomerData values, UUID request) {
        return customers.create(values, request);
    }

    /**
     * Whether {@code stored} already holds {@code values}, compared as the database stores them (NFC, trimmed):
     * saving them again would write nothing new.
     */
    public static boolean alreadyStored(Customer stored, CustomerData values) {
        return stored != null && values.normalized().sameValues(stored.data().normalized());
    }

    /**
     * Whether a conflict's newer version holds exactly the values this save asked for: someone else's save (another
     * operator's, or another desk's under the same name) got there first; there is nothing to merge.
     */
    public static boolean sameAsTheirs(SaveOutcome.Conflict conflict, CustomerData mine) {
        return conflict.theirs().map(theirs -> alreadyStored(theirs, mine)).orElse(false);
    }

    /**
     * Merges {@code mine} (edited from {@code base}) with {@code theirs} (the record now) three-way and saves the
     * result on theirs' version; when another save lands meanwhile, merges again with that, up to {@code attempts}
     * saves. Nothing is written when a field conflicts, or when the record already holds the merged values. Blocking.
     *
     * @param base     the version mine was edited from (its id and version matter, and its values)
     * @param mine     my values
     * @param theirs   the record now; its version may equal base's (then mine is saved as it is)
     * @param attempts how many saves to try, at least 1; the merge dialog tries once (a newer version is shown to the
     *                 operator), {@code set --merge} a few times
     */
    public MergeSave mergeAndSave(Customer base, CustomerData mine, Customer theirs, int attempts) {
        return mergeAndSave(base, mine, theirs, MergeOptions.attempts(attempts));
    }

    /** As {@link #mergeAndSave(Customer, CustomerData, Customer, int)}, with the CLI's options. */
    public MergeSave mergeAndSave(Customer base, CustomerData mine, Customer theirs, MergeOptions options) {
        if (theirs.id() != base.id()) {
            throw new IllegalArgumentException("theirs is customer " + theirs.id() + ", base is customer " + base.id());
        }
        Customer target = theirs;
        for (int attempt = 0; attempt < options.attempts(); attempt++) {
            CustomerData toSave = mine;
            boolean isMerge = options.merged();
            if (target.version() != base.version()) {
                isMerge = true;
                MergeResult merged = ThreeWayMerge.merge(base.data(), mine, target.data());
                List<FieldMerge> conflicts = conflicts(merged, options.insisted());
                if (!conflicts.isEmpty()) {
                    return new MergeSave.Conflicts(target, conflicts);
                }
                toSave = merged.merged();
            }
            if (alreadyStored(target, toSave)) {
                return new MergeSave.AlreadyStored(target);
            }
            options.beforeSave().accept(target, toSave);
            SaveOutcome outcome = options.leaseToken().isPresent()
                    ? customers.saveUnderLease(base.id(), target.version(), toSave, options.leaseToken().getAsLong())
                    : customers.save(base.id(), target.version(), toSave);
            if (outcome instanceof SaveOutcome.Saved saved) {
                if (isMerge) {
                    // Counted for the conflict report; a save with no merge in it (no one saved meanwhile) is not.
                    customers.recordMergeSaved(saved.saved().id(), saved.saved().version());
                }
                return new MergeSave.Saved(saved.saved());
            } else if (outcome instanceof SaveOutcome.Locked locked) {
                return new MergeSave.Locked(locked.holder());
            } else if (outcome instanceof SaveOutcome.LeaseLost lost) {
                return new MergeSave.LeaseLost(lost.current());
            }
            SaveOutcome.Conflict conflict = (SaveOutcome.Conflict) outcome;
            if (conflict.theirs().isEmpty()) {
                return new MergeSave.Deleted();
            }
            target = conflict.theirs().get(); // someone saved meanwhile: merge again against the newer theirs
        }
        return new MergeSave.MovedOn(target);
    }

    /**
     * Save merged (the merge dialog): saves {@code merged}, the Result the operator resolved against {@code theirs},
     * on theirs' version, once. When another save landed meanwhile, nothing is written ({@link MergeSave.MovedOn}):
     * the dialog shows the newer version instead. A save is counted as a merge saved for the conflict report.
     */
    public MergeSave saveMerged(Customer theirs, CustomerData merged) {
        return mergeAndSave(theirs, merged, theirs, MergeOptions.attempts(1).asMerged());
    }

    /**
     * The operator abandoned the merge of customer {@code customerId} (Discard my changes): counted for the
     * conflict report. Blocking; best effort (never throws for a failed count).
     */
    public void mergeAbandoned(long customerId) {
        customers.recordMergeAbandoned(customerId);
    }

    /**
     * The merge's conflicts, plus every field mine insists on that theirs changed or reached too: a value given
     * explicitly from version N (FIELD=VALUE) still asks for that value, so a newer, different value of theirs is a
     * conflict, not "unchanged by me"; and theirs having reached the same value is no proof the request is done — a
     * value computed from version N (a count, an amount: 5 - 1) meets another computed the same way, and taking it as
     * merged would lose one of the two changes. Only a person can tell.
     */
    private static List<FieldMerge> conflicts(MergeResult merged, Set<CustomerField> insisted) {
        List<FieldMerge> conflicts = new ArrayList<>(merged.conflicts());
        for (CustomerField field : insisted) {
            FieldMerge f = merged.field(field);
            if (f.resolution() == FieldMerge.Resolution.THEIRS || f.resolution() == FieldMerge.Resolution.BOTH_SAME) {
                conflicts.add(f);
            }
        }
        return conflicts;
    }

    /**
     * Options of {@link #mergeAndSave(Customer, CustomerData, Customer, MergeOptions)}.
     *
     * @param attempts   how many saves to try, at least 1
     * @param insisted   fields mine asks for explicitly (the CLI's FIELD=VALUE): see {@link #conflicts}
     * @param leaseToken save under this lease's fencing token; empty: optimistic
     * @param beforeSave called with the record now and the values about to be saved, before each save; may throw to
     *                   stop (the CLI judges the values there, and warns about stored values that break a rule)
     * @param merged     mine is already a merge's result (the merge dialog's): its save counts as a merge saved
     *                   even when no further merge is needed
     */
    public record MergeOptions(int attempts, Set<CustomerField> insisted, OptionalLong leaseToken,
            BiConsumer<Customer, CustomerData> beforeSave, boolean merged) {
        /** Checks the values. */
        public MergeOptions {
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1, not " + attempts);
            }
            insisted = Set.copyOf(insisted);
            Objects.requireNonNull(leaseToken, "leaseToken");
            Objects.requireNonNull(beforeSave, "beforeSave");
        }

        /** Options for values that are not a merge's result yet. */
        public MergeOptions(int attempts, Set<CustomerField> insisted, OptionalLong leaseToken,
                BiConsumer<Customer, CustomerData> beforeSave) {
            this(attempts, insisted, leaseToken, beforeSave, false);
        }

        /** The same options for values that already are a merge's result. */
        public MergeOptions asMerged() {
            return new MergeOptions(attempts, insisted, leaseToken, beforeSave, true);
        }

        /** {@code attempts} optimistic saves, no field insisted on, nothing checked before a save. */
        public static MergeOptions attempts(int attempts) {
            return new MergeOptions(attempts, Set.of(), OptionalLong.empty(), (now, values) -> {});
        }
    }
}
