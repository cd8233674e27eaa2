package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;
import org.lockstep.transfer.CustomerBulkStore.ImportRow;

/**
 * A rule a DBA adds to the customer table, which Lockstep's validator does not know, refuses a save with its name or
 * its field, in the operator's words, and nothing is written (found by an attack on 6199e1d: an exclusion or unique
 * constraint gave the server's English sentence as if the database were out of reach, a NOT NULL the server's English
 * sentence, a rule whose name held a line break split the message in two, and an import's row refused by a rule gave
 * pgjdbc's "Batch entry 1 <unknown> was aborted: ... Call getNextException to see other errors in the batch").
 */
@DatabaseTest
class DatabaseRulesTest {

    @Test
    void aDbasExclusionOrUniqueConstraintRefusesASaveByItsName(Database db) {
        db.jdbi().useHandle(h -> {
            h.execute("CREATE EXTENSION IF NOT EXISTS btree_gist");
            h.execute("ALTER TABLE customer ADD CONSTRAINT customer_email_once EXCLUDE USING gist (email WITH =)");
            h.execute("CREATE UNIQUE INDEX customer_phone_once ON customer (phone)");
        });
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        Customer first = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DR-1")
                .with(CustomerField.EMAIL, "ana@example.com").with(CustomerField.PHONE, "+351 1").build());
        long customers = count(db);

        assertThatThrownBy(() -> alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DR-2")
                .with(CustomerField.EMAIL, "ana@example.com").with(CustomerField.PHONE, "+351 2").build()))
                .isInstanceOfSatisfying(InvalidCustomerException.class, e -> assertThat(e.errors()).containsExactly(
                        new FieldError(CustomerField.EMAIL,
                                "Refused by the database's rule customer_email_once; nothing was saved")));
        assertThatThrownBy(() -> alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DR-3")
                .with(CustomerField.EMAIL, "bea@example.com").with(CustomerField.PHONE, "+351 1").build()))
                .isInstanceOfSatisfying(InvalidCustomerException.class, e -> assertThat(e.errors()).containsExactly(
                        new FieldError(CustomerField.PHONE,
                                "Refused by the database's rule customer_phone_once; nothing was saved")));
        assertThat(count(db)).isEqualTo(customers);
        assertThat(alice.find(first.id()).orElseThrow()).isEqualTo(first);
    }

    @Test
    void aRuleWhoseNameHoldsALineBreakIsNamedOnOneLine(Database db) {
        db.jdbi().useHandle(h -> h.execute("ALTER TABLE customer ADD CONSTRAINT \"no\nAtlantis\""
                + " CHECK (city IS DISTINCT FROM 'Atlantis')"));
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");

        assertThatThrownBy(() -> alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DR-4")
                .with(CustomerField.CITY, "Atlantis").build()))
                .isInstanceOfSatisfying(InvalidCustomerException.class, e -> assertThat(e.errors())
                        .extracting(FieldError::message)
                        .containsExactly("Refused by the database's rule no Atlantis; nothing was saved"));
    }

    @Test
    void aNotNullADbaAddedNamesTheFieldInTheOperatorsWords(Database db) {
        db.jdbi().useHandle(h -> h.execute("ALTER TABLE customer ALTER COLUMN region SET NOT NULL"));
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        long customers = count(db);

        assertThatThrownBy(() -> alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DR-5")
                .with(CustomerField.REGION, null).build()))
                .isInstanceOfSatisfying(InvalidCustomerException.class, e -> assertThat(e.errors()).containsExactly(
                        new FieldError(CustomerField.REGION,
                                "The database requires a value here; nothing was saved")));
        assertThat(count(db)).isEqualTo(customers);
    }

    @Test
    void anImportOneOfWhoseRowsBreaksADbasRuleIsRefusedByTheRulesNameAndWritesNothing(Database db) {
        db.jdbi().useHandle(h -> h.execute("ALTER TABLE customer ADD CONSTRAINT customer_city_not_atlantis"
                + " CHECK (city IS DISTINCT FROM 'Atlantis')"));
        long customers = count(db);
        List<ImportRow> rows = List.of(
                new ImportRow(2, null, null, aCustomer().with(CustomerField.EXTERNAL_REF, "DR-6").build()),
                new ImportRow(3, null, null, aCustomer().with(CustomerField.EXTERNAL_REF, "DR-7")
                        .with(CustomerField.CITY, "Atlantis").build()));

        assertThatThrownBy(() -> new JdbiCustomerBulkStore(db.jdbi(), "Alice").write(ImportKey.NONE,
                rows.iterator()))
                .isInstanceOfSatisfying(InvalidCustomerException.class, e -> assertThat(e.errors()).containsExactly(
                        new FieldError(CustomerField.CITY,
                                "Refused by the database's rule customer_city_not_atlantis; nothing was saved")));
        assertThat(count(db)).isEqualTo(customers);
    }

    private static long count(Database db) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }
}
