package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerSort;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The list's search folds the row and the term alike, in SQL: case, accents and the Unicode form do not matter,
 * and what an operator types is never a wildcard.
 */
@DatabaseTest
class SearchFoldingTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository repository;

    @BeforeAll
    static void load() {
        repository = new JdbiCustomerRepository(db.jdbi(), "reader");
        for (String[] c : new String[][]{
                {"FOLD-1", "Companhia São Paulo", "São Paulo"},
                {"FOLD-2", "Fabryka Łódź", "Łódź"},
                {"FOLD-3", "Müller & Söhne GmbH", "München"},
                {"FOLD-4", "Bäckerei an der Hauptstraße", "Köln"},
                {"FOLD-5", "ΟΔΟΣ ΑΘΗΝΩΝ Α.Ε.", "Αθήνα"},
                {"FOLD-6", "İzmir Liman İşletmesi", "İzmir"},
                {"FOLD-7", "Growth 100% Ltd", "Leeds"},
                {"FOLD-8", "snake_case Studio", "Bristol"},
                {"FOLD-9", "Cafe José", "Sevilla"},
        }) {
            repository.create(aCustomer().with(CustomerField.EXTERNAL_REF, c[0]).with(CustomerField.COMPANY, c[1])
                    .with(CustomerField.CITY, c[2]).with(CustomerField.EMAIL, null).build());
        }
    }

    @ParameterizedTest(name = "\"{0}\" finds {1}")
    @CsvSource(textBlock = """
            sao paulo,   FOLD-1
            SÃO PAULO,   FOLD-1
            lodz,        FOLD-2
            ŁÓDŹ,        FOLD-2
            muller,      FOLD-3
            MÜLLER,      FOLD-3
            munchen,     FOLD-3
            strasse,     FOLD-4
            hauptstraße, FOLD-4
            koln,        FOLD-4
            οδος,        FOLD-5
            ΟΔΟΣ,        FOLD-5
            Οδος,        FOLD-5
            αθηνα,       FOLD-5
            İzmir,       FOLD-6
            izmir,       FOLD-6
            IZMIR,       FOLD-6
            işletme,     FOLD-6
            100%,        FOLD-7
            ％,          FOLD-7
            snake_case,  FOLD-8
            ＿case,      FOLD-8
            jose,        FOLD-9
            """)
    void aTermFindsItsCustomerWhateverTheCaseAccentsOrForm(String term, String ref) {
        assertThat(refsFound(term)).containsExactly(ref);
        // The same term typed on a keyboard that sends decomposed characters (NFD), as macOS does.
        assertThat(refsFound(Normalizer.normalize(term, Normalizer.Form.NFD))).containsExactly(ref);
    }

    /**
     * A writer other than Lockstep (psql, a script) may store another Unicode form than the NFC Lockstep's clients
     * store: Korean as conjoining jamo, or the precomposed Devanagari QA U+0958, which NFC decomposes (a composition
     * exclusion). What an operator types, NFC or NFD, finds it all the same (V26; found by an attack on issue 29).
     */
    @ParameterizedTest(name = "stored as {0}, \"{1}\" finds it")
    @CsvSource(textBlock = """
            '\u1112\u1161\u11ab\u1100\u116e\u11a8 Trading',  \ud55c\uad6d,      FOLD-NFD-1
            '\u1112\u1161\u11ab\u1100\u116e\u11a8 Trading',  \ud55c,            FOLD-NFD-1
            '\u0958\u093e\u0930 Exports',                   \u0958\u093e\u0930,  FOLD-NFD-2
            '\u0958\u093e\u0930 Exports',                   \u0915\u093c\u093e,  FOLD-NFD-2
            """)
    void aCompanyStoredInAnotherFormByAnotherWriterIsFound(String stored, String typed, String ref) {
        String company = stored; // the escapes above are read by javac, so no editor can normalise the forms
        db.jdbi()
                .useHandle(h -> h
                        .createUpdate("INSERT INTO customer (external_ref, company, city) VALUES (:ref, :company,"
                                + " 'Seoul') ON CONFLICT (external_ref) DO NOTHING")
                        .bind("ref", ref).bind("company", company).execute());
        String term = typed;
        String kept = db.jdbi().withHandle(h -> h.createQuery("SELECT company FROM customer WHERE external_ref = :ref")
                .bind("ref", ref).mapTo(String.class).one());
        assertThat(kept).isEqualTo(company); // stored as written, not NFC

        assertThat(refsFound(term)).containsExactly(ref);
        assertThat(refsFound(Normalizer.normalize(term, Normalizer.Form.NFD))).containsExactly(ref);
        assertThat(refsFound(Normalizer.normalize(term, Normalizer.Form.NFC))).containsExactly(ref);
    }

    @ParameterizedTest(name = "\"{0}\" is no wildcard")
    @CsvSource(textBlock = """
            %,  FOLD-7
            _,  FOLD-8
            !,  none
            %%, none
            """)
    void wildcardsTypedByTheOperatorAreLiteral(String term, String ref) {
        assertThat(refsFound(term)).isEqualTo(ref.equals("none") ? List.of() : List.of(ref));
    }

    @Test
    void theCountAgreesWithThePage() {
        assertThat(repository.count("muller", 1_000).count()).isEqualTo(1);
        assertThat(repository.count("ΟΔΟΣ", 1_000).count()).isEqualTo(1);
    }

    @Test
    void pagingByCompanyAfterAKeyTheDatabaseLowersDifferentlyFromJavaSkipsNothing() {
        // Keyset paging after "İzmir…" and "ΟΔΟΣ…": the key must be lowered by the database, like the rows' keys.
        List<String> all = new ArrayList<>();
        Customer after = null;
        do {
            List<Customer> page = repository.page(new CustomerPageRequest("", CustomerSort.COMPANY, false, after, 2));
            page.forEach(c -> all.add(c.data().externalRef()));
            after = page.size() < 2 ? null : page.get(page.size() - 1);
        } while (after != null);

        // The nine above, and the rows other writers stored if that test ran first: each once.
        assertThat(all).doesNotHaveDuplicates().filteredOn(r -> r.matches("FOLD-\\d")).hasSize(9);
        assertThat(all).hasSize(Math.toIntExact(repository.count("", 1_000).count()));
    }

    private static List<String> refsFound(String term) {
        return repository.page(new CustomerPageRequest(term, CustomerSort.ID, false, null, 50)).stream()
                .map(c -> c.data().externalRef()).toList();
    }
}
