package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.DraftFile;
import org.lockstep.drafts.DraftJournal;
import org.lockstep.drafts.MergeDraft;

/** {@code lockstep drafts list|discard} on real journal files: what a script reads, what it may remove. */
class DraftsCommandTest {

    @TempDir
    Path dataDir;

    record Run(int exit, String out, String err) {
    }

    Run lockstep(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 2];
        all[0] = "--data-dir";
        all[1] = dataDir.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        int exit = Launcher.run(new PrintWriter(out), new PrintWriter(err), all);
        return new Run(exit, out.toString(), err.toString());
    }

    static Draft draft(long customer, long version, Map<CustomerField, String> typed, Optional<MergeDraft> merge) {
        return new Draft("customer-" + customer, OptionalLong.of(customer), version,
                CustomerData.EMPTY.with(CustomerField.CONTACT_NAME, "Maria da Silva"), typed,
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "alice", Instant.parse("2026-12-04T10:15:30Z"),
                merge);
    }

    /** Drafts left by a Lockstep that ended: customer 4 typed on version 3, customer 9 in a merge with version 6. */
    void draftsOfAnEndedClient() throws Exception {
        try (DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir))) {
            ended.save(draft(4, 3, Map.of(CustomerField.PHONE, "+55 11 5555 0188", CustomerField.CONTACT_TITLE,
                    "Gerente\u001b[31m"), Optional.empty()));
            ended.save(draft(9, 5, Map.of(CustomerField.CREDIT_LIMIT, "1.250,00"), Optional.of(new MergeDraft(6,
                    CustomerData.EMPTY.with(CustomerField.CREDIT_LIMIT, new BigDecimal("900")), Map.of()))));
        }
    }

    @Test
    void listShowsEachDraftsCustomerBaseFieldsAndWhenAsTextAndAsJson() throws Exception {
        draftsOfAnEndedClient();

        Run text = lockstep("drafts", "list");
        Run json = lockstep("drafts", "list", "--json");

        assertThat(text.exit()).as(text.toString()).isZero();
        assertThat(text.out()).contains("customer 4 on version 3, by alice, ")
                .contains("  phone         +55 11 5555 0188")
                .contains("  contact_title Gerente\uFFFD[31m") // the escape byte shown, never sent to the terminal
                .contains(", in a merge with version 6").endsWith("2 drafts\n");
        assertThat(json.exit()).isZero();
        JsonNode array = new ObjectMapper().readTree(json.out());
        assertThat(array).hasSize(2);
        assertThat(array.get(0).get("id").asLong()).isEqualTo(4);
        assertThat(array.get(0).get("baseVersion").asLong()).isEqualTo(3);
        assertThat(array.get(0).get("typed").get("phone").asText()).isEqualTo("+55 11 5555 0188");
        assertThat(array.get(0).get("running").asBoolean()).isFalse();
        assertThat(array.get(1).get("merge").get("theirsVersion").asLong()).isEqualTo(6);
    }

    @Test
    void aDamagedDraftIsListedInOneLineWithoutWhatItHoldsReachingTheTerminal() throws Exception {
        DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir));
        // A key no draft may have (it names the file): terminal escapes, a line break. And a file cut short.
        Files.writeString(ended.directory().resolve("planted.json"), "{\"format\": 1, \"key\": "
                + "\"\\u001b]0;pwned\\u0007\\u001b[2J\\nsecond line\"}");
        Files.writeString(ended.directory().resolve("cut.json"), "{\"format\": 1, \"key\": \"cu");
        ended.close(); // leaves both: they are drafts, if damaged ones

        Run text = lockstep("drafts", "list");

        assertThat(text.exit()).isZero();
        assertThat(text.out()).doesNotContain("\u001b").doesNotContain("\u0007").endsWith("2 drafts\n");
        assertThat(text.out().lines()).hasSize(3).anySatisfy(l -> assertThat(l).startsWith("planted.json: damaged ("))
                .anySatisfy(l -> assertThat(l).startsWith("cut.json: damaged ("));
    }

    @Test
    void discardRemovesOneCustomersDraftsButNotThoseOfARunningLockstepAndSaysWhenThereWasNone() throws Exception {
        draftsOfAnEndedClient();
        try (DraftJournal running = DraftJournal.open(DraftJournal.under(dataDir))) {
            running.save(draft(4, 7, Map.of(CustomerField.CITY, "Lund"), Optional.empty()));

            Run one = lockstep("drafts", "discard", "4");
            Run again = lockstep("drafts", "discard", "4");
            Run unknown = lockstep("drafts", "discard", "77");

            assertThat(one.exit()).as(one.toString()).isZero();
            assertThat(one.out()).isEqualTo("discarded 1 draft\n");
            assertThat(one.err()).contains("1 draft is open in a Lockstep that is still running");
            assertThat(again.exit()).as(again.toString()).isEqualTo(ExitCodes.CONFLICT);
            assertThat(unknown.exit()).isEqualTo(ExitCodes.CONFLICT);
            assertThat(unknown.err()).isEqualTo("lockstep: no draft of customer 77 to discard\n");
            List<DraftFile> left = DraftJournal.listAll(DraftJournal.under(dataDir));
            assertThat(left).extracting(f -> f.draft().orElseThrow().customerId().getAsLong() + "@"
                    + f.draft().orElseThrow().baseVersion()).containsExactlyInAnyOrder("9@5", "4@7");
        }
    }

    @Test
    void discardAllEmptiesTheDirectoryAndAListOfNoneSaysSo() throws Exception {
        draftsOfAnEndedClient();

        Run all = lockstep("drafts", "discard", "--all");
        Run none = lockstep("drafts", "list");
        Run nothing = lockstep("drafts", "discard", "--all");

        assertThat(all.out()).isEqualTo("discarded 2 drafts\n");
        assertThat(none.exit()).isZero();
        assertThat(none.out()).startsWith("no drafts in ");
        assertThat(nothing.exit()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(nothing.err()).isEqualTo("lockstep: no drafts to discard\n");
        assertThat(DraftJournal.under(dataDir)).isEmptyDirectory();
    }
}
