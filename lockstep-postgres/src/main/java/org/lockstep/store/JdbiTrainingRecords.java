package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.TrainingRecords;

/**
 * {@link TrainingRecords} in PostgreSQL: the delete and the insert run in one transaction, written as the trainer
 * (so the history and the change feed name the trainer, not an operator).
 */
public final class JdbiTrainingRecords implements TrainingRecords {

    /** The name the reset writes as. */
    public static final String TRAINER = "Trainer";

    private final Jdbi jdbi;
    private final JdbiCustomerRepository writer;

    /** Resets through {@code jdbi}, writing as {@link #TRAINER}. */
    public JdbiTrainingRecords(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.writer = new JdbiCustomerRepository(jdbi, TRAINER, "trainer-" + java.util.UUID.randomUUID());
    }

    @Override
    public Customer reset(CustomerData start) {
        String ref = start.externalRef();
        if (ref == null || ref.isBlank()) {
            throw new IllegalArgumentException("A training record needs an external reference");
        }
        CustomerData clean = JdbiCustomerRepository.valid(start);
        // A reset repeated after a lost reply ends in the same state (the record, fresh at version 1): safe to repeat.
        return DatabaseCalls.repeatable(() -> jdbi.inTransaction(h -> {
            // A lock on the record ends first, as a supervisor's break, recorded in its trail (issue 26: the lease
            // binds every writer, the trainer's reset too); a trainer who is not a supervisor is refused here.
            h.createQuery("SELECT count(*) FROM customer c, lockstep_lease_break(c.id, :user) b"
                    + " WHERE c.external_ref = :ref AND EXISTS (SELECT 1 FROM record_lease l"
                    + " WHERE l.record_id = c.id AND l.ended IS NULL AND l.expires_at > clock_timestamp())")
                    .bind("ref", ref).bind("user", TRAINER).mapTo(Integer.class).one();
            // The delete names the writer for its history row and notification, as the saves do: no extra round trip.
            h.createUpdate("DELETE FROM customer WHERE external_ref = :ref AND "
                    + Writers.NAMES_THE_WRITER)
                    .bind("ref", ref).bind("user", TRAINER).bind("session", writer.sessionId())
                    .bind("request", RequestIds.next()).execute();
            return writer.insert(h, clean);
        }), tr("whether the training record was reset is unknown — press Reset data again"));
    }
}
