package org.lockstep.editing;

import java.util.List;
import java.util.Optional;
import org.lockstep.domain.Customer;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.merge.FieldMerge;

/**
 * How {@link CustomerEditing#mergeAndSave} ended. Sealed, so that the merge dialog and {@code set --merge} each handle
 * every outcome.
 */
public sealed interface MergeSave {

    /** The merged values were saved: {@code saved} is the new row. */
    record Saved(Customer saved) implements MergeSave {
    }

    /** The record already holds exactly the merged values: nothing was written (a new version would say nothing). */
    record AlreadyStored(Customer theirs) implements MergeSave {
    }

    /** Fields that only a person can decide: changed by both sides to different values, or insisted on by mine. */
    record Conflicts(Customer theirs, List<FieldMerge> fields) implements MergeSave {
        /** Copies the list. */
        public Conflicts {
            fields = List.copyOf(fields);
        }
    }

    /**
     * Another save landed during the last attempt and no attempt was left to merge with it: nothing was written;
     * {@code theirs} is the record now.
     */
    record MovedOn(Customer theirs) implements MergeSave {
    }

    /** The record was deleted meanwhile: nothing was written. */
    record Deleted() implements MergeSave {
    }

    /** Another session holds the record's lease: nothing was written. */
    record Locked(LeaseInfo holder) implements MergeSave {
    }

    /** The lease the save went out under is no longer the record's: nothing was written. */
    record LeaseLost(Optional<LeaseInfo> current) implements MergeSave {
    }
}
