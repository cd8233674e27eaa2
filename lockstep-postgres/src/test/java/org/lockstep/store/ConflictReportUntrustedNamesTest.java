package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.config.LockstepConfig;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.report.ConflictReport;
import org.lockstep.report.ConflictReportFormats;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The conflict report with names nobody checked: operators' names come from {@code --user}, {@code LOCKSTEP_USER}
 * or the OS account, companies may have been written by psql. One operator typed in two Unicode forms (NFC and the
 * NFD a macOS keyboard gives) is one operator; and no name — line breaks, carriage returns, ESC and C1 escape
 * sequences — may add a line to the text report or reach the reader's terminal.
 */
@DatabaseTest
class ConflictReportUntrustedNamesTest {

    static final String NFC = "Jos\u00e9";
    static final String NFD = "Jose\u0301";
    static final List<String> HOSTILE = List.of("Mallory\n2026-12-01       9999        0  0.0 %",
            "Carriage\rreturn", "Esc\u001b[31mRED\u001b[0m", "CSI\u009b2J", "Tab\tand\u000bvertical", "Bell\u0007");
    @FreshDatabase
    static Database db;
    static Customer shared;
    static Customer hostile;

    @BeforeAll
    static void seed() {
        JdbiCustomerRepository creator = new JdbiCustomerRepository(db.jdbi(), "Ada", "ada-1");
        shared = creator.create(aCustomer().with(CustomerField.COMPANY, "Shared Desk Ltd")
                .with(CustomerField.EXTERNAL_REF, "UN-1").build());
        hostile = creator.create(aCustomer().with(CustomerField.COMPANY, "Plain Name")
                .with(CustomerField.EXTERNAL_REF, "UN-2").build());
        creator.save(shared.id(), 1, shared.data().with(CustomerField.CITY, "Leith"));
        creator.save(hostile.id(), 1, hostile.data().with(CustomerField.CITY, "Leith"));
        // Two desks, one operator: the name as each desk's settings gave it; three conflicts in one form, two in the other.
        for (int i = 0; i < 5; i++) {
            String name = LockstepConfig.resolve(null, Path.of("/tmp"), i < 3 ? NFD : NFC, Duration.ofMinutes(1),
                    Duration.ofMinutes(15), Map.of()).user();
            new JdbiCustomerRepository(db.jdbi(), name, "desk-" + i).save(shared.id(), 1,
                    shared.data().with(CustomerField.PHONE, "+44 131 496 000" + i));
        }
        // Recorded before names were normalized, or by another client: the NFD form straight into the table.
        db.jdbi().useHandle(h -> h.execute("INSERT INTO customer_conflict (customer_id, detected_by, kind)"
                + " VALUES (?, ?, 'save')", shared.id(), NFD));
        for (int i = 0; i < HOSTILE.size(); i++) {
            new JdbiCustomerRepository(db.jdbi(), HOSTILE.get(i), "hostile-" + i).save(hostile.id(), 1,
                    hostile.data().with(CustomerField.PHONE, "+44 131 496 001" + i));
        }
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET company = ? WHERE id = ?",
                "Evil\nCorp\u001b]0;owned\u0007", hostile.id()));
    }

    @Test
    void oneOperatorInTwoUnicodeFormsIsOneNameWithAllTheirConflicts() {
        ConflictReport report = new JdbiConflictReports(db.jdbi()).read(1, java.time.ZoneOffset.UTC);

        ConflictReport.CustomerConflicts c = report.customers().stream().filter(x -> x.customerId() == shared.id())
                .findFirst().orElseThrow();
        assertThat(c.conflicts()).isEqualTo(6);
        assertThat(c.metBy()).containsExactly(NFC);
        String names = db.jdbi().withHandle(h -> h.createQuery("SELECT string_agg(DISTINCT detected_by, '|')"
                + " FROM customer_conflict WHERE customer_id = :id AND session_id LIKE 'desk-%'")
                .bind("id", shared.id()).mapTo(String.class).one());
        assertThat(names).as("what the desks recorded").isEqualTo(NFC);
    }

    @Test
    void noNameAddsALineOrAControlCharacterToTheTextReport() {
        ConflictReport report = new JdbiConflictReports(db.jdbi()).read(1, java.time.ZoneOffset.UTC);
        String text = ConflictReportFormats.text(report);

        List<String> lines = text.lines().toList();
        // Title, blank, header, today, total, blank, "Customers…", two customers, two hot-record alerts.
        assertThat(lines).hasSize(11);
        assertThat(lines.get(3)).startsWith(report.to().toString());
        assertThat(text.replace(System.lineSeparator(), "").codePoints().filter(Character::isISOControl).toArray())
                .isEmpty();
        assertThat(lines).filteredOn(l -> l.contains("Mallory")).hasSize(1).allSatisfy(l -> assertThat(l)
                .contains("Evil Corp", "met by"));
        assertThat(lines).filteredOn(l -> l.startsWith("Hot record")).hasSize(2);
    }
}
