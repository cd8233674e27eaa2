package org.lockstep.screenshots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.DraftJournal;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.drafts.JournalDrafts;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.main.MainWindow;
import org.lockstep.ui.restore.DraftsOfferView;
import org.lockstep.ui.restore.DraftsOfferViewModel;
import org.lockstep.ui.theme.Themes;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * README's picture of the restore offer (issue 28), taken headless on a real database and a real data directory: the
 * main window at the start after Lockstep closed with unsaved changes to two customers — one typed into an editor, one
 * in a merge with a newer version — offering each and both to Restore or Discard. Written as {@code drafts-offer.png}
 * to {@code -Dlockstep.screenshots=DIR} (else target/screenshots):
 * {@code ./mvnw -o test -pl lockstep-desktop -am -Dtest=DraftsOfferScreenshotTest -Dsurefire.failIfNoSpecifiedTests=false -Dlockstep.screenshots=$PWD/docs/screenshots}.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
@Timeout(120)
class DraftsOfferScreenshotTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static final Preferences NODE = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());

    @TempDir
    Path dataDir;
    JournalDrafts journal;
    Stage primary;

    @BeforeAll
    static void startExecutor() {
        executor = new FxTaskExecutor(2);
    }

    @AfterAll
    static void close() throws BackingStoreException {
        executor.closeAndWait(Duration.ofSeconds(10));
        NODE.removeNode();
        WaitForAsyncUtils.waitForAsyncFx(10_000,
                () -> Themes.install(Preferences.userRoot().node(Themes.NODE), () -> false));
    }

    @AfterEach
    void closeTheJournal() throws Exception {
        Fx.run(primary::close);
        journal.close();
    }

    @Start
    void start(Stage stage) {
        primary = stage;
        Themes.install(NODE, () -> false);
    }

    @Test
    void theStartOffersTheUnsavedChangesOfTwoCustomers() throws Exception {
        EditorServices ana = Sessions.services(db, "Ana", executor, Platform::runLater, Sessions.quickLocks());
        ana.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "1").build());
        Customer tremblay = ana.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "2")
                .with(CustomerField.COMPANY, "Tremblay Équipements").with(CustomerField.CONTACT_NAME,
                        "François Tremblay")
                .with(CustomerField.CITY, "Montréal").with(CustomerField.COUNTRY, "Canada")
                .build());
        Customer nordic = ana.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "3")
                .with(CustomerField.COMPANY, "Nordic Pine AB").with(CustomerField.CONTACT_NAME, "Sven Berg")
                .with(CustomerField.CITY, "Umeå").with(CustomerField.COUNTRY, "Sweden").build());
        EditorServices bob = Sessions.services(db, "Bob", executor, Platform::runLater, Sessions.quickLocks());
        Customer bobs = ((SaveOutcome.Saved) bob.customers().save(nordic.id(), nordic.version(),
                nordic.data().with(CustomerField.CITY, "Luleå"))).saved();
        Instant closed = Instant.parse("2026-12-04T09:07:00Z");
        try (DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir))) {
            ended.save(new Draft("editor-1", OptionalLong.of(tremblay.id()), tremblay.version(), tremblay.data(),
                    Map.of(CustomerField.PHONE, "+1 (514) 555-0199", CustomerField.CITY, "Laval"),
                    ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "Ana", closed, Optional.empty()));
            ended.save(new Draft("editor-2", OptionalLong.of(nordic.id()), nordic.version(), nordic.data(),
                    Map.of(CustomerField.CITY, "Skellefteå"), ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(),
                    "Ana", closed.plusSeconds(40), Optional.of(new MergeDraft(bobs.version(), bobs.data(),
                            Map.of(CustomerField.CITY, "Skellefteå"), Map.of(CustomerField.CITY,
                                    MergeDraft.Choice.mine())))));
        }
        journal = JournalDrafts.open(dataDir);

        DraftsOfferViewModel offer = Fx.call(() -> {
            MainWindow main = MainWindow.show(primary, ana);
            DraftsOfferViewModel vm = new DraftsOfferViewModel(journal, executor, "Ana", d -> {},
                    ZoneId.of("Europe/Lisbon"));
            main.addBanner(new DraftsOfferView(vm).root());
            vm.start();
            return vm;
        });
        Fx.await("the offer and the list", () -> offer.offered().size() == 2
                && primary.getScene().getRoot().lookup(".table-row-cell") != null);
        WaitForAsyncUtils.waitForFxEvents();

        Path dir = Path.of(System.getProperty("lockstep.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        Path file = dir.resolve("drafts-offer.png");
        WritableImage shot = Fx.call(() -> primary.getScene().snapshot(null));
        ImageIO.write(Screens.image(shot), "png", file.toFile());

        assertThat(Files.size(file)).isPositive();
        assertThat(Fx.call(() -> primary.getScene().getRoot().lookup("#drafts-headline").isVisible())).isTrue();
    }
}
