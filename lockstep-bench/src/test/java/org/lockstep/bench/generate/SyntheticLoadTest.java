package org.lockstep.bench.generate;

import org.lockstep.synthetic.SyntheticCustomers;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.store.CustomerBulkLoader;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

@DatabaseTest
class SyntheticLoadTest {

    @FreshDatabase
    Database db;
    StringWriter progress = new StringWriter();
    SyntheticLoad load;

    @BeforeEach
    void open() {
        load = new SyntheticLoad(new CustomerBulkLoader(db.jdbi(), "gen"), new PrintWriter(progress), 2);
    }

    @Test
    void addsTheRowsOfTheSeedInOrderAndReportsProgress() {
        SyntheticLoad.Result r = load.run(4, 12_000);

        assertThat(r.added()).isEqualTo(12_000);
        assertThat(r.firstRow()).isEqualTo(1);
        List<String> refs = refs();
        assertThat(refs).hasSize(12_000).first().isEqualTo("GEN-4-0000000001");
        assertThat(refs).last().isEqualTo("GEN-4-0000012000");
        assertThat(refs).isSorted();
        assertThat(progress.toString()).contains("5,000 / 12,000 rows…").contains("12,000 / 12,000 rows…");
    }

    @Test
    void aSecondRunWithTheSameSeedContinuesTheNumbering() {
        load.run(4, 1_200);
        SyntheticLoad.Result second = load.run(4, 800);

        assertThat(second.firstRow()).isEqualTo(1_201);
        assertThat(refs()).hasSize(2_000).doesNotHaveDuplicates().last().isEqualTo("GEN-4-0000002000");
    }

    @Test
    void storedRowsAreTheGeneratorsRows() {
        load.run(6, 50);

        String company = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT company FROM customer WHERE external_ref = 'GEN-6-0000000037'").mapTo(String.class).one());
        assertThat(company).isEqualTo(new SyntheticCustomers(6).customer(37).company());
    }

    private List<String> refs() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT external_ref FROM customer ORDER BY id")
                .mapTo(String.class).list());
    }
}
