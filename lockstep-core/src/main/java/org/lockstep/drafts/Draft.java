package org.lockstep.drafts;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * An editor's unsaved work as it was journaled: what the operator typed, on which stored version, so that it can be
 * offered again after the client ended without saving (a crash, a power cut, a forced logout). A draft knows its
 * base, which word processors' recovery files do not: restoring it is an ordinary versioned save from that base, so a
 * customer saved meanwhile goes through the three-way merge and the recovery never overwrites anyone.
 *
 * @param key          the editor's own name for the draft, unique in its client (a file name: letters, digits, '-')
 * @param customerId   the customer edited, or empty for a customer not yet created
 * @param baseVersion  the stored version the edits were made on; 0 for a customer not yet created
 * @param base         the values of that version (empty values for a new customer)
 * @param typed        the text of each field the operator changed, exactly as typed — it may not parse yet ("12,5"
 *                     in a credit limit under an English locale), so it is kept as text, not as a value
 * @param mode         the editor's concurrency mode
 * @param leaseToken   the fencing token of the lock the editor held, for the record only: a restart never trusts it,
 *                     since the lock may have lapsed and been granted to someone else meanwhile
 * @param operator     who typed it (the sign-in name), so a client offers only its own operator's drafts
 * @param savedAt      when it was journaled, by this machine's clock: shown to the operator, never used to decide
 * @param merge        the merge dialog that was open over it, with its choices, if one was
 */
public record Draft(
        String key,
        OptionalLong customerId,
        long baseVersion,
        CustomerData base,
        Map<CustomerField, String> typed,
        ConcurrencyMode mode,
        OptionalLong leaseToken,
        String operator,
        Instant savedAt,
        Optional<MergeDraft> merge) {

    public Draft {
        if (!DraftJournal.isValidKey(key)) {
            throw new IllegalArgumentException("A draft's key is letters, digits and '-': " + key);
        }
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(leaseToken, "leaseToken");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(savedAt, "savedAt");
        Objects.requireNonNull(merge, "merge");
        if (baseVersion < 0) {
            throw new IllegalArgumentException("baseVersion " + baseVersion + " is negative");
        }
        typed = typed.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(typed));
    }

    /**
     * The request id a create of the customer drafted under {@code key} goes under ({@link
     * org.lockstep.domain.CustomerRepository#create(CustomerData, java.util.UUID)}): derived from the key, so the
     * same in the editor that typed it and in the one that restores it in the next process. A client killed after
     * the create committed and before the draft went leaves a draft whose create the store then recognises, and the
     * customer is never created twice.
     */
    public static UUID createRequestOf(String key) {
        return UUID.nameUUIDFromBytes(("lockstep create " + key).getBytes(StandardCharsets.UTF_8));
    }

    /** The request id a create of this draft's customer goes under: {@link #createRequestOf} its key. */
    public UUID createRequest() {
        return createRequestOf(key);
    }

    /** The same draft under another key. */
    public Draft withKey(String otherKey) {
        return new Draft(otherKey, customerId, baseVersion, base, typed, mode, leaseToken, operator, savedAt, merge);
    }

    /** Whether the draft is of a customer that was not yet created when it was journaled. */
    public boolean isNewCustomer() {
        return customerId.isEmpty();
    }
}
