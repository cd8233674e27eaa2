package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeDetail;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The lease trail entry each lease notification is told, on the real database, whatever the holder's client recorded
 * in between: a loss the client records ({@code lost}) writes a trail entry but no notification, so it must never
 * take the place of the entry a later notification of the same grant announced (a break, a release).
 */
@DatabaseTest
class ChangeDetailsLeaseTrailTest {

    @FreshDatabase
    static Database db;
    static final AtomicInteger REFS = new AtomicInteger();

    /**
     * Steps: A Ana locks (notifies), L Ana's client records the lock as lost (no notification), B Bruno breaks the
     * lock (notifies), R Ana releases it (notifies). The notifications are read back in one batch or one by one.
     */
    @ParameterizedTest(name = "{0}, in one batch: {2}")
    @CsvSource({
            "A L B, acquired broken, true",
            "A L B, acquired broken, false",
            "A L R, acquired released, true",
            "A L R, acquired released, false",
            "A B L, acquired broken, true",
            "A B L, acquired broken, false",
            "A R, acquired released, false"})
    void eachLeaseNotificationIsToldTheEntryItAnnounced(String steps, String expected, boolean oneBatch) {
        JdbiCustomerRepository customers = new JdbiCustomerRepository(db.jdbi(), "Ana", "ana-desk");
        Customer c = customers.create(aCustomer().with(CustomerField.EXTERNAL_REF, "CDL-" + REFS.incrementAndGet())
                .build());
        JdbiLeaseRepository ana = new JdbiLeaseRepository(db.jdbi(), "Ana", "ana-desk");
        JdbiLeaseRepository bruno = new JdbiLeaseRepository(db.jdbi(), "Bruno", "bruno-desk");
        ChangeDetails details = new ChangeDetails(db.jdbi());
        List<ChangeEvent> notified = new ArrayList<>();
        long token = 0;
        for (String step : steps.split(" ")) {
            switch (step) {
                case "A" -> token = ((AcquireOutcome.Granted) ana.acquire(c.id(), 60_000)).lease().token();
                case "L" -> ana.recordLost(c.id(), token);
                case "B" -> assertThat(bruno.breakLease(c.id())).isPresent();
                case "R" -> ana.release(c.id(), token);
                default -> throw new IllegalArgumentException(step);
            }
            if (!step.equals("L")) {
                notified.add(new ChangeEvent("record_lease", c.id(), token, "UPDATE", Optional.empty()));
            }
        }

        List<Optional<ChangeDetail>> told = new ArrayList<>();
        if (oneBatch) {
            told.addAll(details.of(notified));
        } else {
            notified.forEach(n -> told.addAll(details.of(List.of(n))));
        }

        assertThat(told).map(d -> d.flatMap(ChangeDetail::lease).map(ChangeDetail.LeaseStep::event).orElse("none"))
                .containsExactlyElementsOf(Arrays.asList(expected.split(" ")));
    }
}
