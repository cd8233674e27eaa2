package org.lockstep.ui.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TableView;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiConflictReports;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.FxTaskExecutor;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The README's screenshot of the conflict report, taken headless (Monocle) from the real window on a database seeded
 * with a month of conflicts, merges and lease events. Written to {@code target/screenshots/conflict-report.png};
 * with {@code -Dlockstep.screenshots=docs/screenshots} to the README's folder:
 * {@code ./mvnw -o test -Dtest=ConflictReportScreenshotTest -Dlockstep.screenshots=docs/screenshots}.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class ConflictReportScreenshotTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    Stage window;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(1);
        JdbiCustomerRepository setup = new JdbiCustomerRepository(db.jdbi(), "Setup");
        String[] names = {"Tremblay Équipements", "Nordic Pine Furniture", "Harbour Lights Trading",
                "Müller & Söhne GmbH", "Café Łódź", "Ærø Fisk ApS"};
        String[] operators = {"Alice", "Bob", "Carol", "Dev", "Eun-ji"};
        long[] ids = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            Customer c = setup.create(aCustomer().with(CustomerField.COMPANY, names[i])
                    .with(CustomerField.EXTERNAL_REF, "SHOT-" + i).build());
            ids[i] = c.id();
        }
        LocalDate today = LocalDate.now(ZoneId.systemDefault());
        SplittableRandom random = new SplittableRandom(15);
        db.jdbi().useHandle(h -> {
            for (int day = 29; day >= 0; day--) {
                boolean weekday = today.minusDays(day).getDayOfWeek().getValue() <= 5;
                int saves = weekday ? 120 + random.nextInt(60) : 15 + random.nextInt(10);
                OffsetDateTime noon = today.minusDays(day).atTime(12, 0).atZone(ZoneId.systemDefault())
                        .toOffsetDateTime();
                h.createUpdate("INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at,"
                        + " new_row) SELECT :id, 100 + g, 'UPDATE', 'Alice', :at - make_interval(mins => g), '{}'"
                        + " FROM generate_series(1, :n) g").bind("id", ids[day % ids.length]).bind("at", noon)
                        .bind("n", saves).execute();
                int conflicts = weekday ? 2 + random.nextInt(day < 7 ? 9 : 5) : random.nextInt(2);
                for (int k = 0; k < conflicts; k++) {
                    long customer = ids[random.nextInt(k % 2 == 0 ? 2 : ids.length)];
                    String who = operators[random.nextInt(operators.length)];
                    h.createUpdate("INSERT INTO customer_conflict (customer_id, detected_at, detected_by, kind)"
                            + " VALUES (:id, :at, :who, 'save')").bind("id", customer)
                            .bind("at", noon.minusMinutes(k * 7L)).bind("who", who).execute();
                    String kind = k % 3 == 2 ? "merge_abandoned" : "merge_saved";
                    h.createUpdate("INSERT INTO conflict_event (kind, customer_id, happened_at, operator)"
                            + " VALUES (:kind, :id, :at, :who)").bind("kind", kind).bind("id", customer)
                            .bind("at", noon.minusMinutes(k * 7L - 2)).bind("who", who).execute();
                }
                if (weekday && random.nextInt(3) == 0) {
                    h.createUpdate("INSERT INTO conflict_event (kind, customer_id, happened_at, operator)"
                            + " VALUES ('lease_wait', :id, :at, 'Bob')").bind("id", ids[1]).bind("at", noon)
                            .execute();
                    h.createUpdate("INSERT INTO lease_event (record_id, token, holder, event, actor, at)"
                            + " VALUES (:id, :t, 'Carol', 'broken', 'Dev', :at)").bind("id", ids[1])
                            .bind("t", 1000 + day).bind("at", noon.plusHours(1)).execute();
                }
                if (day % 6 == 1) {
                    // A lapse: a grant nobody released or broke, its expiry passed (the holder's client stopped).
                    h.createUpdate("INSERT INTO lease_event (record_id, token, holder, event, actor, at, expires_at)"
                            + " VALUES (:id, :t, 'Alice', 'acquired', 'Alice', :at, :at + interval '60 seconds')")
                            .bind("id", ids[0]).bind("t", 2000 + day).bind("at", noon.minusHours(2)).execute();
                }
                if (day % 9 == 4) {
                    h.createUpdate("INSERT INTO conflict_event (kind, happened_at, operator, detail, count)"
                            + " VALUES ('lab_retries_exhausted', :at, 'trainer', 'optimistic', 3)")
                            .bind("at", noon).execute();
                }
            }
        });
    }

    @AfterAll
    static void close() {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @Start
    void start(Stage owner) {
        window = ConflictReportWindow.open(owner, new JdbiConflictReports(db.jdbi()), executor);
    }

    @Test
    @SuppressWarnings("unchecked")
    void screenshotOfTheReport(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> Fx.call(() -> !robot.lookup("#conflict-report-table")
                .queryAs(TableView.class).getItems().isEmpty())); // on the FX thread, whose scene graph it reads
        WaitForAsyncUtils.waitForFxEvents();
        WritableImage image = WaitForAsyncUtils.asyncFx(() -> window.getScene().snapshot(null)).get(30,
                TimeUnit.SECONDS);

        Path dir = Path.of(System.getProperty("lockstep.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        Path file = dir.resolve("conflict-report.png");
        ConflictReportScreenshots.write(image, file);
        assertThat(Files.size(file)).isPositive();
    }
}
