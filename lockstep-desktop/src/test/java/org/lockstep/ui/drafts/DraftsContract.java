package org.lockstep.ui.drafts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.drafts.Draft;

/**
 * What every {@link Drafts} does, run against the real journal on a temporary data directory
 * ({@link JournalDraftsTest}) and against the in-memory fake the view-model tests use ({@link InMemoryDraftsTest}),
 * so that the fake cannot promise what the journal does not do. Each implementation says how an ended client leaves
 * a draft behind.
 */
abstract class DraftsContract {

    static Draft draft(String key, String phone) {
        CustomerData base = CustomerData.EMPTY.with(CustomerField.COMPANY, "Embraer")
                .with(CustomerField.CREDIT_LIMIT, new BigDecimal("1000.00"));
        return new Draft(key, OptionalLong.of(4), 3, base, Map.of(CustomerField.PHONE, phone),
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "alice", Instant.parse("2026-12-04T10:15:30Z"),
                Optional.empty());
    }

    abstract Drafts drafts();

    abstract void leftByEndedClient(Draft draft) throws IOException;

    @Test
    void aSavedDraftIsReadBackWhole() throws IOException {
        drafts().save(draft("e-1", "+55 11 4000-1111"));

        assertThat(drafts().drafts()).containsExactly(draft("e-1", "+55 11 4000-1111"));
    }

    @Test
    void aSaveReplacesTheDraftOfTheSameKey() throws IOException {
        drafts().save(draft("e-1", "+55 11 4000-1111"));
        drafts().save(draft("e-1", "+55 11 4000-2222"));

        assertThat(drafts().drafts()).extracting(d -> d.typed().get(CustomerField.PHONE))
                .containsExactly("+55 11 4000-2222");
    }

    @Test
    void removeTakesTheDraftAwayAndAnUnknownKeyIsNothing() throws IOException {
        drafts().save(draft("e-1", "+55 11 4000-1111"));
        drafts().save(draft("e-2", "+55 11 4000-2222"));

        drafts().remove("e-1");
        drafts().remove("never-kept");

        assertThat(drafts().drafts()).extracting(Draft::key).containsExactly("e-2");
    }

    @Test
    void anEndedClientsDraftsAreAdoptedOnceAndThenThisClientsOwn() throws IOException {
        leftByEndedClient(draft("e-9", "+55 11 4000-9999"));

        assertThat(drafts().adoptOrphans("alice")).containsExactly(draft("e-9", "+55 11 4000-9999"));
        assertThat(drafts().adoptOrphans("alice")).isEmpty();
        assertThat(drafts().drafts()).extracting(Draft::key).containsExactly("e-9");
        drafts().remove("e-9");
        assertThat(drafts().drafts()).isEmpty();
    }

    @Test
    void anotherOperatorsDraftsAreNotAdoptedAndStayForThem() throws IOException {
        Draft bobs = new Draft("e-7", OptionalLong.of(7), 2, CustomerData.EMPTY, Map.of(CustomerField.CITY, "Bergen"),
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "bob", Instant.parse("2026-12-04T10:16:00Z"),
                Optional.empty());
        leftByEndedClient(bobs);
        leftByEndedClient(draft("e-9", "+55 11 4000-9999"));

        assertThat(drafts().adoptOrphans("alice")).containsExactly(draft("e-9", "+55 11 4000-9999"));
        assertThat(drafts().drafts()).extracting(Draft::key).containsExactly("e-9");
        assertThat(drafts().adoptOrphans("bob")).as("Bob's next start, while Alice's client runs")
                .containsExactly(bobs);
    }
}
