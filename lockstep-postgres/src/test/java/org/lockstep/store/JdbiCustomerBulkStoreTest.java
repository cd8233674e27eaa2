package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.transfer.CustomerBulkStore.ImportCounts;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;
import org.lockstep.transfer.CustomerBulkStore.ImportRow;

@DatabaseTest
class JdbiCustomerBulkStoreTest {

    @FreshDatabase
    Database db;
    JdbiCustomerBulkStore store;

    @BeforeEach
    void open() {
        store = new JdbiCustomerBulkStore(db.jdbi(), "Importer");
    }

    long count() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }

    static List<ImportRow> rows(int n, String refPrefix) {
        return IntStream.range(0, n).mapToObj(i -> new ImportRow(i + 2, null,
                aCustomer().with(CustomerField.EXTERNAL_REF, refPrefix + i).build().normalized())).toList();
    }

    @Test
    void aRowTheDatabaseRejectsInALaterBatchUndoesEveryEarlierBatch() {
        new JdbiCustomerRepository(db.jdbi(), "Alice").create(aCustomer().with(CustomerField.EXTERNAL_REF, "TAKEN")
                .build());
        List<ImportRow> rows = new ArrayList<>(rows(JdbiCustomerBulkStore.BATCH_SIZE + 10, "B-"));
        rows.add(new ImportRow(9999, null, aCustomer().with(CustomerField.EXTERNAL_REF, "TAKEN").build()));

        assertThatThrownBy(() -> store.write(ImportKey.NONE, rows.iterator()))
                .isInstanceOf(InvalidCustomerException.class).hasMessageContaining("external_ref");

        assertThat(count()).isEqualTo(1);
    }

    @Test
    void keyedRowsUpdateByExternalRefAcrossBatches() {
        store.write(ImportKey.NONE, rows(JdbiCustomerBulkStore.BATCH_SIZE + 3, "K-").iterator());
        List<ImportRow> changed = rows(JdbiCustomerBulkStore.BATCH_SIZE + 3, "K-").stream()
                .map(r -> new ImportRow(r.line(), null, r.data().with(CustomerField.CITY, "Natal"))).toList();

        ImportCounts counts = store.write(ImportKey.EXTERNAL_REF, changed.iterator());

        assertThat(counts).isEqualTo(new ImportCounts(0, JdbiCustomerBulkStore.BATCH_SIZE + 3, 0));
        List<Customer> all = new ArrayList<>();
        store.forEachCustomer(all::add);
        assertThat(all).hasSize(JdbiCustomerBulkStore.BATCH_SIZE + 3)
                .allSatisfy(c -> {
                    assertThat(c.version()).isEqualTo(2);
                    assertThat(c.data().city()).isEqualTo("Natal");
                    assertThat(c.updatedBy()).isEqualTo("Importer");
                });
    }

    @Test
    void everyCustomerStreamsOnceInIdOrder() {
        int n = 2 * JdbiCustomerBulkStore.FETCH_SIZE + 7;
        store.write(ImportKey.NONE, rows(n, "S-").iterator());

        List<Long> ids = new ArrayList<>();
        store.forEachCustomer(c -> ids.add(c.id()));

        assertThat(ids).hasSize(n).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void insertIfEmptyInsertsNothingIntoATableWithRows() {
        CustomerData one = aCustomer().build().normalized();
        assertThat(store.insertIfEmpty(42, List.of(one))).isTrue();

        assertThat(store.insertIfEmpty(42, List.of(one.with(CustomerField.EXTERNAL_REF, "OTHER")))).isFalse();

        assertThat(count()).isEqualTo(1);
    }
}
