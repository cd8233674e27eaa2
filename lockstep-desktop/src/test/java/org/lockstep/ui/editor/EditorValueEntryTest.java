package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.concurrency.TaskExecutor;

/**
 * The editor stores what the operator meant, or shows why not under the field and writes nothing (issue 11): the
 * credit limit in the editor's locale, text in NFC, and a stored value that breaks a rule in a field the operator
 * did not touch is a warning, not a block. The view model on a real database, database calls on the test's thread.
 */
@DatabaseTest
class EditorValueEntryTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @FreshDatabase
    static Database db;
    static CustomerRepository bob;

    Locale formatLocale = Locale.getDefault(Locale.Category.FORMAT);
    CustomerEditorViewModel editor;

    @BeforeAll
    static void open() {
        bob = Sessions.repository(db, "Bob");
    }

    @AfterEach
    void restoreTheLocaleAndCloseTheEditor() {
        Locale.setDefault(Locale.Category.FORMAT, formatLocale);
        if (editor != null) {
            editor.close();
        }
    }

    /** Alice's editor, reading numbers in {@code tag} (the JVM's format locale, as the operating system sets it). */
    CustomerEditorViewModel aliceOpens(String tag, long customerId) {
        Locale.setDefault(Locale.Category.FORMAT, Locale.forLanguageTag(tag));
        editor = new CustomerEditorViewModel(Sessions.services(db, "Alice", TaskExecutor.sameThread(), Runnable::run,
                Sessions.quickLocks()), Clock.system(ZoneOffset.UTC));
        editor.load(customerId);
        return editor;
    }

    static Customer stored() {
        return bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "EV-" + REFS.incrementAndGet()).build());
    }

    @ParameterizedTest(name = "{0}: \"{1}\" → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            en    | 1,500.50 | 1500.50
            en    | 12,345   | 12345
            en    | 1.5      | 1.5
            en    | 1,5      | invalid
            en    | 1,50     | invalid
            en    | 1,5000   | invalid
            en    | ,5       | invalid
            de    | 1.500,50 | 1500.50
            de    | 1,5      | 1.5
            de    | 1.500    | 1500
            de    | 1.5      | invalid
            de    | 1,500.50 | invalid
            pt-BR | 1.500,50 | 1500.50
            pt-BR | 1,5      | 1.5
            pt-BR | 1.5      | invalid
            es    | 1.500,50 | 1500.50
            es    | 1.5      | invalid
            """)
    void theCreditLimitIsReadInTheEditorsLocaleOrRefusedUnderTheField(String tag, String typed, String expected) {
        Customer c = stored();
        aliceOpens(tag, c.id());

        editor.buffer().text(CustomerField.CREDIT_LIMIT).set(typed);

        if (expected.equals("invalid")) {
            assertThat(editor.buffer().error(CustomerField.CREDIT_LIMIT).get())
                    .startsWith("Credit limit must be a number like").contains("\"" + typed + "\"");
            assertThat(editor.status().canSaveProperty().get()).isFalse();
            assertThat(editor.saves().save()).isFalse();
            assertThat(bob.find(c.id()).orElseThrow()).isEqualTo(c);
        } else {
            assertThat(editor.buffer().error(CustomerField.CREDIT_LIMIT).get()).isNull();
            assertThat(editor.saves().save()).isTrue();
            assertThat(bob.find(c.id()).orElseThrow().data().creditLimit()).isEqualByComparingTo(expected);
        }
    }

    @ParameterizedTest(name = "{0} shows 1000.00 as \"{1}\"; \"{2}\" is the same amount")
    @CsvSource(delimiter = '|', textBlock = """
            en    | 1000.00 | 1,000
            de    | 1000,00 | 1.000
            pt-BR | 1000,00 | 1000,0
            """)
    void theCreditLimitIsShownInTheEditorsLocaleAndTheSameAmountTypedAnotherWayIsNoChange(String tag, String shown,
            String same) {
        aliceOpens(tag, stored().id());

        assertThat(editor.buffer().text(CustomerField.CREDIT_LIMIT).get()).isEqualTo(shown);
        editor.buffer().text(CustomerField.CREDIT_LIMIT).set(same);
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
    }

    @Test
    void aSavedAmountIsShownBackInTheEditorsLocale() {
        Customer c = stored();
        aliceOpens("de", c.id());

        editor.buffer().text(CustomerField.CREDIT_LIMIT).set("2.500,5");
        editor.saves().save();

        assertThat(editor.buffer().text(CustomerField.CREDIT_LIMIT).get()).isEqualTo("2500,50");
        assertThat(bob.find(c.id()).orElseThrow().data().creditLimit()).isEqualByComparingTo("2500.50");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            CITY         | Sa\u0303o Jose\u0301 dos Campos
            CONTACT_NAME | Lui\u0301s Gonc\u0327alves
            COMPANY      | Embraer - Empresa Brasileira de Aerona\u0301utica S.A.
            """)
    void typingTheNfdFormOfTheStoredValueIsNoChange(CustomerField field, String nfd) {
        aliceOpens("en", stored().id());

        editor.buffer().text(field).set(nfd);

        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.status().canSaveProperty().get()).isFalse();
        assertThat(editor.status().titleProperty().get()).doesNotStartWith("• ");
    }

    /** A row as psql may write it: a control character in City, an email today's rule refuses. */
    static Customer insertedByAnotherTool() {
        long id = db.jdbi().withHandle(h -> h.createQuery("""
                        INSERT INTO customer (external_ref, company, city, email)
                        VALUES (:ref, 'Written by psql', E'Recife\\x07', 'not-an-email') RETURNING id""")
                .bind("ref", "EV-" + REFS.incrementAndGet()).mapTo(Long.class).one());
        return bob.find(id).orElseThrow();
    }

    @Test
    void aStoredValueThatBreaksARuleIsAWarningAndAnEditOfAnotherFieldSaves() {
        Customer c = insertedByAnotherTool();
        aliceOpens("en", c.id());

        assertThat(editor.buffer().warning(CustomerField.CITY).get())
                .isEqualTo("City must be one line of text, without line breaks or control characters"
                        + CustomerValidator.UNCHANGED);
        assertThat(editor.buffer().warning(CustomerField.EMAIL).get()).startsWith("Email must look like");
        assertThat(editor.buffer().error(CustomerField.CITY).get()).isNull();
        assertThat(editor.buffer().problemsProperty().get()).isEmpty();

        editor.buffer().text(CustomerField.PHONE).set("+55 81 3000-0000");
        assertThat(editor.status().canSaveProperty().get()).isTrue();
        assertThat(editor.saves().save()).isTrue();

        Customer now = bob.find(c.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(2);
        assertThat(now.data()).isEqualTo(c.data().with(CustomerField.PHONE, "+55 81 3000-0000"));
        assertThat(editor.buffer().warning(CustomerField.CITY).get()).isNotNull();
    }

    @Test
    void changingSuchAValueToAnotherThatBreaksTheRuleBlocksTheSave() {
        Customer c = insertedByAnotherTool();
        aliceOpens("en", c.id());

        editor.buffer().text(CustomerField.CITY).set("Olinda\u001b[31m");

        assertThat(editor.buffer().error(CustomerField.CITY).get())
                .isEqualTo("City must be one line of text, without line breaks or control characters");
        assertThat(editor.buffer().warning(CustomerField.CITY).get()).isNull();
        assertThat(editor.status().canSaveProperty().get()).isFalse();
        assertThat(editor.saves().save()).isFalse();
        assertThat(bob.find(c.id()).orElseThrow()).isEqualTo(c);

        editor.buffer().text(CustomerField.CITY).set("Olinda");
        assertThat(editor.saves().save()).isTrue();
        assertThat(bob.find(c.id()).orElseThrow().data().city()).isEqualTo("Olinda");
        assertThat(editor.buffer().warning(CustomerField.CITY).get()).isNull();
    }
}
