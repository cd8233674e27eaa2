package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.transfer.CsvExport;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.TestDatabases;

/** {@code lockstep export}, and reading its file back with {@code lockstep import}. */
@DatabaseTest
class ExportCommandTest {

    @TempDir
    Path dir;

    static final List<CustomerData> TRICKY = List.of(
            new CustomerData("RT-1", "Quote \"Q\" & Sons, Ltd.", "Zoë Ångström", "CFO", "zoe@q.example",
                    "+46 8 123 45", "+46 8 123 46", "Storgatan 1\nLägenhet 2, 3 tr", "Göteborg", "VG", "411 38",
                    "Sweden", "Notes with \"quotes\",\ncommas and\n\nblank lines", new BigDecimal("0.50")),
            new CustomerData("RT-2", null, "Only A. Contact", null, null, null, null, null, null, null, null, null,
                    null, null),
            new CustomerData("RT-3", "Ünïcødé 株式会社", null, null, null, null, null, "=SUM(A1)", "São Paulo",
                    null, null, "Brasil", "trailing spaces kept inside", new BigDecimal("9999999999.99")));

    static List<Customer> seed(Database db) {
        JdbiCustomerRepository repo = new JdbiCustomerRepository(db.jdbi(), "Alice");
        List<Customer> created = new ArrayList<>();
        TRICKY.forEach(d -> created.add(repo.create(d)));
        // One without an external ref, and one at a later version.
        created.add(repo.create(CustomerData.EMPTY.with(CustomerField.COMPANY, "No Ref Co")));
        Customer c = created.get(0);
        repo.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+46 8 999 99"));
        return created;
    }

    static CustomerData byRef(Database db, String ref) {
        long id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE external_ref = :r")
                .bind("r", ref).mapTo(Long.class).one());
        return new JdbiCustomerRepository(db.jdbi(), "x").find(id).orElseThrow().data();
    }

    @Test
    void reImportingAnExportDoesNotOverwriteChangesMadeSinceOrCustomersLockedByOthers() throws IOException {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "Lockstep test")) {
            List<Customer> seeded = seed(db);
            Path csv = dir.resolve("before.csv");
            Cli tess = new Cli(url, "Tess");
            assertThat(tess.run("export", csv.toString()).exitCode()).isZero();
            // Unchanged since the export: importing it again changes nothing and is not a conflict.
            Cli.Result again = tess.run("import", csv.toString(), "--key", "external_ref");
            assertThat(again.exitCode()).as(again.toString()).isZero();
            assertThat(again.out()).contains("updated 0");

            Customer rt2 = seeded.get(1);
            new JdbiCustomerRepository(db.jdbi(), "Bob").save(rt2.id(), 1, rt2.data().with(CustomerField.CITY,
                    "Campinas"));
            String edited = Files.readString(csv, StandardCharsets.UTF_8).replace("Göteborg", "Malmö");
            Files.writeString(csv, edited, StandardCharsets.UTF_8);

            Cli.Result stale = tess.run("import", csv.toString(), "--key", "external_ref");

            assertThat(stale.exitCode()).as(stale.toString()).isEqualTo(ExitCodes.CONFLICT);
            assertThat(stale.err()).contains("customer " + rt2.id() + " changed since version 1")
                    .contains("nothing imported");
            assertThat(byRef(db, "RT-2").city()).isEqualTo("Campinas");
            assertThat(byRef(db, "RT-1").city()).isEqualTo("Göteborg");

            // A customer locked by another operator is not overwritten either.
            Path fresh = dir.resolve("fresh.csv");
            assertThat(tess.run("export", fresh.toString()).exitCode()).isZero();
            new org.lockstep.store.JdbiLeaseRepository(db.jdbi(), "Bob", "bob-session").acquire(seeded.get(2).id(),
                    60_000);
            Files.writeString(fresh, Files.readString(fresh, StandardCharsets.UTF_8).replace("São Paulo", "Santos"),
                    StandardCharsets.UTF_8);
            Cli.Result locked = tess.run("import", fresh.toString(), "--key", "external_ref");
            assertThat(locked.exitCode()).as(locked.toString()).isEqualTo(ExitCodes.LOCKED);
            assertThat(locked.err()).contains("locked for editing by Bob");
            assertThat(byRef(db, "RT-3").city()).isEqualTo("São Paulo");
        }
    }

    @Test
    void exportWritesTheHeaderAndEveryCustomer() throws IOException {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "Lockstep test")) {
            seed(db);
            Path csv = dir.resolve("all.csv");

            Cli.Result r = new Cli(url, "Tester").run("export", csv.toString());

            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains("exported 4 customers");
            List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
            assertThat(lines.get(0)).isEqualTo(String.join(",", CsvExport.HEADER));
            assertThat(String.join("\n", lines)).contains("\"Quote \"\"Q\"\" & Sons, Ltd.\"").contains(",0.50,2,")
                    .contains("Alice");
        }
    }

    @Test
    void anExportImportedWithKeyExternalRefIntoAFreshDatabaseReproducesTheValues() throws IOException {
        Path csv = dir.resolve("round-trip.csv");
        String sourceUrl = TestDatabases.freshUrlWithCredentials();
        try (Database source = Database.open(sourceUrl, null, null, "Lockstep test")) {
            seed(source);
            assertThat(new Cli(sourceUrl, "Tester").run("export", csv.toString()).exitCode()).isZero();
        }
        String targetUrl = TestDatabases.freshUrlWithCredentials();

        Cli.Result r = new Cli(targetUrl, "Tester").run("import", csv.toString(), "--key", "external_ref");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("inserted 4, updated 0");
        try (Database target = Database.open(targetUrl, null, null, "Lockstep test")) {
            assertThat(byRef(target, "RT-1")).isEqualTo(TRICKY.get(0).with(CustomerField.PHONE, "+46 8 999 99"));
            assertThat(byRef(target, "RT-2")).isEqualTo(TRICKY.get(1));
            assertThat(byRef(target, "RT-3")).isEqualTo(TRICKY.get(2));
            long noRef = target.jdbi().withHandle(h -> h.createQuery(
                    "SELECT count(*) FROM customer WHERE company = 'No Ref Co' AND external_ref IS NULL")
                    .mapTo(Long.class).one());
            assertThat(noRef).isEqualTo(1);
            // Importing the same file again changes nothing: every keyed row already holds its values.
            Cli.Result again = new Cli(targetUrl, "Tester").run("import", csv.toString(), "--key", "external_ref");
            assertThat(again.out()).contains("inserted 1, updated 0, unchanged 3");
        }
    }

    @Test
    void exportIntoAMissingDirectoryIsAUsageErrorAndWritesNothing() {
        String url = TestDatabases.freshUrlWithCredentials();
        Path csv = dir.resolve("missing").resolve("out.csv");

        Cli.Result r = new Cli(url, "Tester").run("export", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("missing");
        assertThat(dir.resolve("missing")).doesNotExist();
    }
}
