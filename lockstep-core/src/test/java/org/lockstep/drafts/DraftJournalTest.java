package org.lockstep.drafts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/** The journal on a real file system: whole drafts after a crash at any point, each client's own, 0600. */
class DraftJournalTest {

    @TempDir
    Path dataDir;

    Path drafts() {
        return dataDir.resolve("drafts");
    }

    static Draft draft(String key, long version, String phone) {
        CustomerData base = CustomerData.EMPTY.with(CustomerField.CONTACT_NAME, "Maria da Silva")
                .with(CustomerField.CREDIT_LIMIT, new BigDecimal("1000.00"));
        long customer = Long.parseLong(key.substring(key.lastIndexOf('-') + 1)); // "customer-4": customer 4
        return new Draft(key, OptionalLong.of(customer), version, base,
                Map.of(CustomerField.PHONE, phone, CustomerField.CONTACT_TITLE, "Gerente de compras"),
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "alice", Instant.parse("2026-12-04T10:15:30Z"),
                Optional.empty());
    }

    static List<Draft> readable(List<DraftFile> files) {
        return files.stream().flatMap(f -> f.draft().stream()).toList();
    }

    @Test
    void aSavedDraftIsReadBackWholeFromAFileOnlyItsOperatorCanRead() throws IOException {
        try (DraftJournal journal = DraftJournal.open(drafts())) {
            journal.save(draft("customer-4", 3, "+55 11 5555 0188"));

            assertThat(readable(journal.drafts())).containsExactly(draft("customer-4", 3, "+55 11 5555 0188"));
            Path file = journal.directory().resolve("customer-4.json");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal.directory())))
                    .isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(drafts())))
                    .isEqualTo("rwx------");
        }
    }

    @Test
    void aNewerDraftReplacesTheOlderAndARemovedOneIsGone() throws IOException {
        try (DraftJournal journal = DraftJournal.open(drafts())) {
            journal.save(draft("customer-4", 3, "1"));
            journal.save(draft("customer-4", 3, "12"));
            journal.save(draft("customer-9", 1, "9"));

            assertThat(readable(journal.drafts())).containsExactly(draft("customer-4", 3, "12"),
                    draft("customer-9", 1, "9"));
            journal.remove("customer-4");
            journal.remove("customer-4"); // twice: nothing to remove is no fault
            assertThat(readable(journal.drafts())).containsExactly(draft("customer-9", 1, "9"));
        }
    }

    @Test
    void aWriteCutHalfWayLeavesThePreviousDraftWhole() throws IOException {
        DraftJournal crashed = DraftJournal.open(drafts());
        crashed.save(draft("customer-4", 3, "+55 11 5555 0188"));
        // The crash came during the next write: half of its bytes reached the temporary file, the rename never ran.
        byte[] next = DraftFormat.write(draft("customer-4", 3, "+55 11 5555 0199"));
        Files.write(crashed.directory().resolve("customer-4.json.tmp"), java.util.Arrays.copyOf(next,
                next.length / 2));
        crashed.abandon();

        try (DraftJournal next2 = DraftJournal.open(drafts())) {
            List<DraftFile> adopted = next2.adoptOrphans("alice");

            assertThat(readable(adopted)).containsExactly(draft("customer-4", 3, "+55 11 5555 0188"));
            assertThat(readable(next2.drafts())).containsExactly(draft("customer-4", 3, "+55 11 5555 0188"));
            assertThat(crashed.directory()).doesNotExist();
        }
    }

    @Test
    void aRunningClientsDraftsStayItsOwnUntilItEnds() throws IOException {
        DraftJournal first = DraftJournal.open(drafts());
        first.save(draft("customer-4", 3, "first's"));
        try (DraftJournal second = DraftJournal.open(drafts())) {
            second.save(draft("customer-4", 5, "second's"));

            assertThat(second.adoptOrphans("alice")).isEmpty();
            assertThat(DraftJournal.listAll(drafts())).extracting(DraftFile::ownerRunning).containsOnly(true);
            assertThat(readable(DraftJournal.listAll(drafts()))).hasSize(2);

            first.abandon(); // it crashed
            List<DraftFile> adopted = second.adoptOrphans("alice");
            // Both keys were "customer-4": the adopted one takes a name, and so a key, of its own; neither is lost.
            assertThat(readable(adopted)).containsExactly(draft("customer-4", 3, "first's").withKey("customer-4-2"));
            assertThat(readable(second.drafts())).containsExactlyInAnyOrder(draft("customer-4", 5, "second's"),
                    draft("customer-4", 3, "first's").withKey("customer-4-2"));
        }
    }

    @Test
    void aClientThatEndsWithDraftsLeavesThemForTheNextStartAndOneWithoutLeavesNothing() throws IOException {
        try (DraftJournal kept = DraftJournal.open(drafts())) {
            kept.save(draft("customer-4", 3, "kept"));
        }
        try (DraftJournal empty = DraftJournal.open(drafts())) {
            empty.save(draft("customer-8", 1, "saved later"));
            empty.remove("customer-8");
        }
        try (DraftJournal next = DraftJournal.open(drafts())) {
            assertThat(readable(next.adoptOrphans("alice"))).containsExactly(draft("customer-4", 3, "kept"));
        }
        try (Stream<Path> left = Files.list(drafts())) {
            assertThat(left).as("owner directories left behind").hasSize(1);
        }
    }

    @Test
    void aDraftFromANewerLockstepOrCutByHandIsKeptWhereItIsAndSaysWhy() throws IOException {
        DraftJournal crashed = DraftJournal.open(drafts());
        Files.writeString(crashed.directory().resolve("customer-5.json"), "{\"format\": 2, \"key\": \"customer-5\"}");
        Files.writeString(crashed.directory().resolve("customer-6.json"), "{\"format\": 1, \"key\": \"custo");
        crashed.abandon();

        try (DraftJournal next = DraftJournal.open(drafts())) {
            assertThat(next.adoptOrphans("alice")).isEmpty();

            assertThat(DraftJournal.listAll(drafts()))
                    .extracting(f -> f.problem().map(UnreadableDraftException::reason).orElseThrow())
                    .containsExactly(UnreadableDraftException.Reason.NEWER, UnreadableDraftException.Reason.DAMAGED);
            assertThat(DraftJournal.listAll(drafts())).extracting(DraftFile::path).allMatch(Files::exists);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"9e99999999", "-5.00", "1.234", "10000000000.00", "NaN"})
    void aDraftWhoseStoredAmountNoStoreCouldHoldIsDamagedNotRead(String amount) throws IOException {
        String good = new String(DraftFormat.write(draft("customer-4", 3, "+55 11 5555 0188")),
                StandardCharsets.UTF_8);
        assertThat(good).contains("\"credit_limit\" : \"1000.00\"");
        DraftJournal crashed = DraftJournal.open(drafts());
        Files.writeString(crashed.directory().resolve("customer-4.json"), good.replace("\"credit_limit\" : "
                + "\"1000.00\"", "\"credit_limit\" : \"" + amount + "\""));
        crashed.abandon();

        assertThat(DraftJournal.listAll(drafts())).singleElement().satisfies(f -> {
            assertThat(f.draft()).isEmpty();
            assertThat(f.problem().orElseThrow().reason()).isEqualTo(UnreadableDraftException.Reason.DAMAGED);
        });
    }

    @Test
    void draftsOthersCouldReadAreMadeOnlyTheirOperatorsAndLinksAreNotFollowed() throws IOException {
        DraftJournal crashed = DraftJournal.open(drafts());
        crashed.save(draft("customer-4", 3, "wide open"));
        Path wide = crashed.directory().resolve("customer-4.json");
        Files.setPosixFilePermissions(wide, PosixFilePermissions.fromString("rw-r--r--"));
        Path elsewhere = Files.writeString(dataDir.resolve("elsewhere.json"), new String(DraftFormat.write(
                draft("customer-5", 1, "linked")), StandardCharsets.UTF_8));
        Files.createSymbolicLink(crashed.directory().resolve("customer-5.json"), elsewhere);
        crashed.abandon();
        Files.setPosixFilePermissions(drafts(), PosixFilePermissions.fromString("rwxrwxrwx")); // umask 000, say

        try (DraftJournal next = DraftJournal.open(drafts())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(drafts()))).isEqualTo("rwx------");
            List<DraftFile> adopted = next.adoptOrphans("alice");

            assertThat(readable(adopted)).containsExactly(draft("customer-4", 3, "wide open"));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(adopted.get(0).path())))
                    .isEqualTo("rw-------");
            assertThat(elsewhere).exists();
        }
    }

    @Test
    void aDraftOfAnotherAccountIsNotAdopted() throws IOException {
        DraftJournal crashed = DraftJournal.open(drafts());
        crashed.save(draft("customer-4", 3, "planted"));
        crashed.abandon();
        Path planted = crashed.directory().resolve("customer-4.json");
        Assumptions.assumeTrue(givenAway(planted), "only a superuser gives a file to another account");

        try (DraftJournal next = DraftJournal.open(drafts())) {
            assertThat(next.adoptOrphans("alice")).isEmpty();
            assertThat(planted).exists();
        }
    }

    /** Gives {@code file} to the account "nobody", if this process may. */
    private static boolean givenAway(Path file) {
        try {
            UserPrincipal nobody = file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(file, nobody);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void anotherOperatorsDraftsStayWhereTheyAreForTheirOwnNextStartWhileThisClientRuns() throws IOException {
        DraftJournal crashed = DraftJournal.open(drafts());
        crashed.save(draft("customer-4", 3, "alice's"));
        Draft bobs = new Draft("customer-9", OptionalLong.of(9), 1, CustomerData.EMPTY,
                Map.of(CustomerField.CITY, "Bergen"), ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "bob",
                Instant.parse("2026-12-04T10:16:00Z"), Optional.empty());
        crashed.save(bobs);
        crashed.abandon();

        try (DraftJournal carol = DraftJournal.open(drafts())) {
            assertThat(carol.adoptOrphans("carol")).isEmpty();
            // Carol's client runs on; Bob and Alice start beside it, and each gets their own.
            try (DraftJournal bob = DraftJournal.open(drafts()); DraftJournal alice = DraftJournal.open(drafts())) {
                assertThat(readable(bob.adoptOrphans("bob"))).containsExactly(bobs);
                assertThat(readable(alice.adoptOrphans("alice"))).containsExactly(draft("customer-4", 3, "alice's"));
                assertThat(crashed.directory()).doesNotExist();
                assertThat(readable(carol.drafts())).isEmpty();
            }
        }
    }

    @Test
    void aDraftIsKnownByTheNameOfItsFileSoThatRemovingItNeverTouchesAnother() throws IOException {
        for (String phone : List.of("first", "second")) {
            DraftJournal crashed = DraftJournal.open(drafts());
            crashed.save(draft("customer-4", 3, phone));
            crashed.abandon();
        }
        // And one copied back by hand under a name of its own, its content naming another key.
        DraftJournal copied = DraftJournal.open(drafts());
        Files.write(copied.directory().resolve("copy-4.json"), DraftFormat.write(draft("customer-4", 3, "copied")));
        copied.abandon();

        try (DraftJournal next = DraftJournal.open(drafts())) {
            List<Draft> adopted = readable(next.adoptOrphans("alice"));

            assertThat(adopted).extracting(d -> d.typed().get(CustomerField.PHONE))
                    .containsExactlyInAnyOrder("first", "second", "copied");
            assertThat(adopted).extracting(Draft::key).doesNotHaveDuplicates();
            for (Draft each : adopted) {
                next.remove(each.key());
                assertThat(readable(next.drafts())).as("after removing " + each.key()).doesNotContain(each)
                        .hasSize(adopted.size() - 1 - adopted.indexOf(each));
            }
        }
    }

    @Test
    void theCommandLineDiscardsOnlyDraftsOfClientsThatEnded() throws IOException {
        DraftJournal ended = DraftJournal.open(drafts());
        ended.save(draft("customer-4", 3, "ended"));
        ended.save(draft("customer-9", 1, "ended"));
        ended.abandon();
        try (DraftJournal running = DraftJournal.open(drafts())) {
            running.save(draft("customer-4", 5, "running"));

            List<DraftFile> removed = DraftJournal.discard(drafts(),
                    f -> f.draft().map(d -> d.customerId().getAsLong() == 4).orElse(false));

            assertThat(readable(removed)).containsExactly(draft("customer-4", 3, "ended"));
            assertThat(readable(DraftJournal.listAll(drafts()))).containsExactlyInAnyOrder(
                    draft("customer-9", 1, "ended"), draft("customer-4", 5, "running"));
        }
    }

    @Test
    void aClientKilledWithSigkillLeavesItsDraftToTheNextOne() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), JournalingChild.class.getName(), drafts().toString())
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("journaled");
            assertThat(DraftJournal.listAll(drafts())).singleElement().satisfies(f -> {
                assertThat(f.ownerRunning()).isTrue();
                assertThat(f.draft()).contains(draft("customer-4", 3, "typed before the crash"));
            });

            child.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no close
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();

            try (DraftJournal next = DraftJournal.open(drafts())) {
                assertThat(readable(next.adoptOrphans("alice")))
                        .containsExactly(draft("customer-4", 3, "typed before the crash"));
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A client that journals one draft, says so, and waits to be killed. */
    static final class JournalingChild {
        public static void main(String[] args) throws Exception {
            DraftJournal journal = DraftJournal.open(Path.of(args[0]));
            journal.save(draft("customer-4", 3, "typed before the crash"));
            System.out.println("journaled");
            System.out.flush();
            System.in.read(); // the parent never writes: it kills this process
            journal.close();
        }
    }
}
