package org.lockstep.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.DraftFile;
import org.lockstep.drafts.DraftJournal;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.drafts.JournalDrafts;
import org.lockstep.ui.restore.DraftsOfferViewModel;

/**
 * Nothing typed is lost when the client itself dies (issue 28), with a real {@code kill -9}: Lockstep's desktop runs
 * in a child JVM ({@link DrivenDesktop}: the product's command line and desktop, headless under Monocle as the
 * surefire JVM is), started as {@code lockstep edit A}. Alice types a phone into customer A and, in customer B, a
 * city that meets Bob's newer save in the merge dialog, where she keeps her city. Once both drafts are on the disk the
 * process is killed ({@link Process#destroyForcibly()}: SIGKILL on Linux). Meanwhile Carol saves B once more and Bob
 * deletes A. Lockstep starts again on the same data directory and offers both: B's merge opens again against Carol's
 * version with Alice's choice kept and saves; A is offered to be created again and is. The values are read back from
 * the database.
 *
 * <p>And two clients of one data directory (two processes): a client of the test's own, running beside the first
 * child, keeps a draft of its own; neither offers the other's while both run, and once both have ended the next start
 * offers all three.
 */
@DatabaseTest
@Tag(WindowTest.TAG) // its windows open in a child JVM: no toolkit starts in this one
@Timeout(600)
class CrashRecoveryTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final List<Child> children = new ArrayList<>();

    @AfterEach
    void endTheChildren() throws InterruptedException {
        for (Child child : children) {
            child.process.destroyForcibly();
            child.process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aKilledClientsEditorAndMergeComeBackOneThroughTheMergeOneCreatedAgain() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        Path dataDir = dir.resolve("data");
        try (Database db = Database.open(url, null, null, "crash test")) {
            JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
            JdbiCustomerRepository carol = new JdbiCustomerRepository(db.jdbi(), "Carol");
            Customer a = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "CRASH-A")
                    .with(CustomerField.COMPANY, "Aurora Ltda").build());
            Customer b = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "CRASH-B")
                    .with(CustomerField.COMPANY, "Borealis SA").with(CustomerField.CITY, "Coimbra").build());
            Customer c = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "CRASH-C")
                    .with(CustomerField.COMPANY, "Cerrado ME").build());

            // Another client of the same data directory, in this process, with a draft of its own.
            JournalDrafts beside = JournalDrafts.open(dataDir);
            Draft mineBeside = new Draft("beside-1", OptionalLong.of(c.id()), c.version(), c.data(),
                    Map.of(CustomerField.CITY, "Campinas"), ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(),
                    "Alice", Instant.now(), Optional.empty());
            beside.save(mineBeside);

            Child first = start(url, dataDir, "edit", Long.toString(a.id()));
            assertThat(first.ask("editor " + a.id())).as("lockstep edit: the first field has the keyboard")
                    .endsWith("version 1 focus company");
            first.ask("type " + a.id() + " phone +55 11 4000-1111");
            first.ask("open " + b.id());
            first.ask("editor " + b.id());
            first.ask("type " + b.id() + " city Lisboa");
            Customer bobs = ((SaveOutcome.Saved) bob.save(b.id(), b.version(), b.data()
                    .with(CustomerField.CITY, "Porto").with(CustomerField.EMAIL, "bob@borealis.example"))).saved();
            first.ask("save " + b.id());
            assertThat(first.ask("merge " + b.id())).contains("theirs " + bobs.version())
                    .contains("city=Conflict:_choose").contains("email=theirs");
            first.ask("press-merge " + b.id() + " use-mine-city");

            // Both drafts on the disk, as the running client left them: A's edits, B's merge with its choice.
            Awaitility.await("both drafts on the disk").atMost(WAIT).until(() -> childDrafts(dataDir).size() == 2
                    && childDrafts(dataDir).stream().anyMatch(d -> d.merge().map(m -> m.choices()
                            .get(CustomerField.CITY)).filter(MergeDraft.Choice.mine()::equals).isPresent()));
            Draft draftA = draftOf(dataDir, a.id());
            Draft draftB = draftOf(dataDir, b.id());
            assertThat(draftA.typed()).containsExactly(Map.entry(CustomerField.PHONE, "+55 11 4000-1111"));
            assertThat(draftB.typed()).containsExactly(Map.entry(CustomerField.CITY, "Lisboa"));
            assertThat(draftB.merge().orElseThrow().theirsVersion()).isEqualTo(bobs.version());
            assertThat(draftB.merge().orElseThrow().resolved()).containsExactly(Map.entry(CustomerField.CITY,
                    "Lisboa"));

            // Two running clients: neither offers the other's drafts; each keeps its own.
            DraftsOfferViewModel offerBeside = new DraftsOfferViewModel(beside, TaskExecutor.sameThread(), "Alice",
                    d -> {}, ZoneOffset.UTC);
            offerBeside.start();
            assertThat(offerBeside.offered()).as("the child's drafts, while it runs").isEmpty();
            assertThat(first.ask("offered 0")).as("this client's draft, while it runs").isEmpty();
            assertThat(beside.drafts()).containsExactly(mineBeside);

            first.process.destroyForcibly(); // SIGKILL: no shutdown hook, no stop(), nothing flushed
            assertThat(first.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            Customer carols = ((SaveOutcome.Saved) carol.save(b.id(), bobs.version(), bobs.data()
                    .with(CustomerField.PHONE, "+351 22 000 0003"))).saved();
            assertThat(bob.delete(a.id(), a.version())).isInstanceOf(DeleteOutcome.Deleted.class);
            beside.close(); // the other client ends too, keeping its draft

            Child again = start(url, dataDir);
            String offered = again.ask("offered 3");
            assertThat(offered).contains(draftA.key()).contains(draftB.key()).contains(mineBeside.key());
            assertThat(again.ask("headline")).isEqualTo("Unsaved changes to 3 customers from before Lockstep "
                    + "closed");

            // B: the merge opens again, against Carol's version, with Alice's city kept; it saves.
            again.ask("restore " + draftB.key());
            assertThat(again.ask("merge " + b.id())).contains("theirs " + carols.version())
                    .contains("city=Resolved:_mine").contains("phone=theirs").contains("email=theirs")
                    .contains("notice=Carol_saved_version_" + carols.version() + "_while_you_were_merging");
            again.ask("press-merge " + b.id() + " save-merged");
            again.ask("saved " + b.id() + " " + (carols.version() + 1));
            Customer readB = bob.find(b.id()).orElseThrow();
            assertThat(readB.data().city()).isEqualTo("Lisboa");
            assertThat(readB.data().email()).isEqualTo("bob@borealis.example");
            assertThat(readB.data().phone()).isEqualTo("+351 22 000 0003");
            assertThat(readB.updatedBy()).isEqualTo("Alice");

            // A: deleted meanwhile, offered to be created again with Alice's values.
            again.ask("restore " + draftA.key());
            assertThat(again.ask("new-editor")).isEqualTo("Customer #" + a.id() + " was deleted after you made "
                    + "these changes. Save creates it again with these values.");
            String created = again.ask("save-new");
            long recreated = Long.parseLong(created.split(" ")[1]);
            Customer readA = bob.find(recreated).orElseThrow();
            assertThat(recreated).isNotEqualTo(a.id());
            assertThat(readA.data().phone()).isEqualTo("+55 11 4000-1111");
            assertThat(readA.data().company()).isEqualTo("Aurora Ltda");
            assertThat(readA.data().externalRef()).isEqualTo("CRASH-A");

            again.ask("discard " + mineBeside.key());
            Awaitility.await("every draft saved or discarded").atMost(WAIT)
                    .until(() -> DraftJournal.listAll(DraftJournal.under(dataDir)).isEmpty());
            assertThat(again.ask("quit")).isEqualTo("quitting");
            assertThat(again.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(again.process.exitValue()).isZero();
        }
    }

    /** The drafts of the child: every readable one not of the client beside it. */
    private static List<Draft> childDrafts(Path dataDir) throws IOException {
        return DraftJournal.listAll(DraftJournal.under(dataDir)).stream().map(DraftFile::draft)
                .flatMap(Optional::stream).filter(d -> !d.key().startsWith("beside-")).toList();
    }

    private static Draft draftOf(Path dataDir, long customerId) throws IOException {
        return childDrafts(dataDir).stream().filter(d -> d.customerId().orElse(-1) == customerId).findFirst()
                .orElseThrow();
    }

    /** {@code lockstep --db-url URL --data-dir DIR --user Alice ARGS…} in a child JVM under {@link DrivenDesktop}. */
    private Child start(String url, Path dataDir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx512m", "-Dtestfx.robot=glass", "-Dtestfx.headless=true", "-Dglass.platform=Monocle",
                "-Dmonocle.platform=Headless", "-Dprism.order=sw", "-Djava.awt.headless=true", "-Duser.language=en",
                "-Duser.country=US", "-Djava.util.prefs.userRoot=" + dir.resolve("prefs"),
                "-cp", System.getProperty("java.class.path"), DrivenDesktop.class.getName(),
                "--db-url", url, "--data-dir", dataDir.toString(), "--user", "Alice"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(dir.resolve("child-" + children.size()
                + ".err").toFile());
        pb.environment().remove("LOCKSTEP_DATA_DIR");
        Files.createDirectories(dir.resolve("prefs"));
        Child child = new Child(pb.start(), dataDir);
        children.add(child);
        return child;
    }

    /** A child and its answers, one line each. */
    private static final class Child {

        final Process process;
        final Path dataDir;
        final PrintWriter commands;
        final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

        Child(Process process, Path dataDir) {
            this.process = process;
            this.dataDir = dataDir;
            this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        answers.add(line);
                    }
                } catch (IOException e) {
                    answers.add("fail reading: " + e);
                }
            }, "child-answers");
            reader.setDaemon(true);
            reader.start();
        }

        /** Sends a command and returns what follows {@code ok }; fails the test on {@code fail …} or silence. */
        String ask(String command) throws InterruptedException {
            commands.println(command);
            Instant until = Instant.now().plus(WAIT);
            while (Instant.now().isBefore(until)) {
                String line = answers.poll(1, TimeUnit.SECONDS);
                if (line == null) {
                    if (!process.isAlive()) {
                        break;
                    }
                    continue;
                }
                if (line.startsWith("ok ")) {
                    return line.substring(3);
                }
                if (line.startsWith("fail ")) {
                    throw new AssertionError(line + "\n" + log());
                }
            }
            throw new AssertionError("no answer to " + command + "\n" + log());
        }

        private String log() {
            Path file = dataDir.resolve("logs").resolve("lockstep.log");
            try {
                List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
                return String.join("\n", all.subList(Math.max(0, all.size() - 120), all.size()));
            } catch (IOException e) {
                return "(no log: " + e + ")";
            }
        }
    }
}
