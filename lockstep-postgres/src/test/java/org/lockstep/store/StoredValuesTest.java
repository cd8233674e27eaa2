package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.UnicodeText;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * What the repository stores is what the operator meant (ADR 0010): text in NFC, lengths in code points as the
 * database counts them, and a record another tool wrote with a value today's rules refuse stays editable in every
 * other field.
 */
@DatabaseTest
class StoredValuesTest {

    /** U+1F600: one code point, two UTF-16 code units. */
    static final String GRIN = new String(Character.toChars(0x1F600));
    static final AtomicInteger REFS = new AtomicInteger();

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository alice;

    @BeforeAll
    static void open() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
    }

    static CustomerData aFreshCustomer() {
        return aCustomer().with(CustomerField.EXTERNAL_REF, "SV-" + REFS.incrementAndGet()).build();
    }

    /** A value of exactly {@code length} code points, all astral but what the field's rules need. */
    static String astral(CustomerField field, int length) {
        return field == CustomerField.EMAIL ? GRIN.repeat(length - 6) + "@b.com" : GRIN.repeat(length);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = CustomerField.class, names = "CREDIT_LIMIT", mode = EnumSource.Mode.EXCLUDE)
    void aValueOfExactlyTheLimitInAstralCodePointsIsStoredAndReadBackUnchanged(CustomerField field) {
        String value = astral(field, field.maxLength());

        Customer created = alice.create(aFreshCustomer().with(field, value));

        assertThat(value.codePointCount(0, value.length())).isEqualTo(field.maxLength());
        assertThat(value.length()).as("UTF-16 code units, what was counted before").isGreaterThan(field.maxLength());
        assertThat(alice.find(created.id()).orElseThrow().data().get(field)).isEqualTo(value);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = CustomerField.class, names = "CREDIT_LIMIT", mode = EnumSource.Mode.EXCLUDE)
    void oneCodePointMoreIsRefusedNamingTheFieldAndNothingIsWritten(CustomerField field) {
        long before = count();
        CustomerData tooLong = aFreshCustomer().with(field, GRIN + astral(field, field.maxLength()));

        assertThatThrownBy(() -> alice.create(tooLong))
                .isInstanceOfSatisfying(InvalidCustomerException.class, e -> assertThat(e.errors())
                        .containsExactly(new FieldError(field, field.label() + " is too long: "
                                + (field.maxLength() + 1) + " characters, at most " + field.maxLength())));
        assertThat(count()).isEqualTo(before);
    }

    @Test
    void textTypedInNfdIsStoredInNfcAndASaveOfTheOtherFormIsNoChange() {
        Customer created =
                alice.create(aFreshCustomer().with(CustomerField.CONTACT_NAME, "Jose\u0301 Nu\u0301n\u0303ez"));

        Customer read = alice.find(created.id()).orElseThrow();
        assertThat(read.data().contactName()).isEqualTo("Jos\u00e9 N\u00fa\u00f1ez");
        assertThat(
                read.data().sameValues(created.data().with(CustomerField.CONTACT_NAME, "Jose\u0301 Nu\u0301n\u0303ez")))
                .isTrue();
    }

    @ParameterizedTest(name = "search \"{0}\"")
    @CsvSource(textBlock = """
            Jose\u0301 Nu\u0301n\u0303ez
            Jos\u00e9 N\u00fa\u00f1ez
            nu\u0301n\u0303
            """)
    void aSearchInEitherFormFindsTheStoredName(String search) {
        String ref = "SEARCH-NFC-" + REFS.incrementAndGet();
        alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, ref)
                .with(CustomerField.CONTACT_NAME, "Jose\u0301 Nu\u0301n\u0303ez " + ref).build());

        List<Customer> found = alice.page(CustomerPageRequest.first(search));

        assertThat(found).extracting(c -> c.data().externalRef()).contains(ref);
        assertThat(alice.count(CustomerPageRequest.searchTerm(search), 5_000).count()).isPositive();
    }

    /** A row as psql may write it: a control character in City, an email today's rule refuses. */
    static long insertedByAnotherTool(Database database) {
        return database.jdbi().withHandle(h -> h.createQuery("""
                        INSERT INTO customer (external_ref, company, city, email)
                        VALUES (:ref, 'Written by psql', E'Recife\\x07', 'not-an-email') RETURNING id""")
                .bind("ref", "PSQL-" + REFS.incrementAndGet()).mapTo(Long.class).one());
    }

    @Test
    void aRecordWithAnOutOfBoundsValueCanStillBeSavedWhenOnlyAnotherFieldChanges() {
        Customer stored = alice.find(insertedByAnotherTool(db)).orElseThrow();

        SaveOutcome outcome = alice.save(stored.id(), stored.version(),
                stored.data().with(CustomerField.PHONE, "+55 81 3000-0000"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        Customer now = alice.find(stored.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(stored.version() + 1);
        assertThat(now.data().phone()).isEqualTo("+55 81 3000-0000");
        assertThat(now.data().city()).isEqualTo("Recife\u0007");
        assertThat(now.data().email()).isEqualTo("not-an-email");
    }

    @Test
    void changingTheOutOfBoundsFieldToAnotherOutOfBoundsValueIsRefusedNamingItAndWritesNothing() {
        Customer stored = alice.find(insertedByAnotherTool(db)).orElseThrow();

        assertThatThrownBy(() -> alice.save(stored.id(), stored.version(), stored.data()
                .with(CustomerField.CITY, "Olinda\u001b[31m").with(CustomerField.PHONE, "+55 81 3000-0000")))
                .isInstanceOfSatisfying(InvalidCustomerException.class, e -> assertThat(e.errors())
                        .extracting(FieldError::field).containsExactly(CustomerField.CITY));
        assertThat(alice.find(stored.id()).orElseThrow()).isEqualTo(stored);
    }

    @Test
    void aStaleSaveOfSuchARecordIsAConflictNotARefusal() {
        Customer stored = alice.find(insertedByAnotherTool(db)).orElseThrow();
        alice.save(stored.id(), stored.version(), stored.data().with(CustomerField.REGION, "PE"));

        SaveOutcome outcome = alice.save(stored.id(), stored.version(),
                stored.data().with(CustomerField.PHONE, "+55 81 3000-0000"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Conflict.class);
        assertThat(alice.find(stored.id()).orElseThrow().data().phone()).isNull();
    }

    /**
     * A database whose schema allowed an over-long postal code (its CHECK constraint dropped, as in an older or
     * hand-altered schema; since V25 the one constraint holds every field's rule): the record stays editable, and the
     * over-long value stays as it is.
     */
    @Test
    void anOverLongValueTheDatabaseAllowedBlocksNoEditOfAnotherField(Database loose) {
        loose.jdbi().useHandle(h -> h.execute("ALTER TABLE customer DROP CONSTRAINT customer_values_check"));
        long id = loose.jdbi().withHandle(h -> h.createQuery("""
                        INSERT INTO customer (company, postal_code) VALUES ('Loose Ltd', repeat('9', 30))
                        RETURNING id""").mapTo(Long.class).one());
        JdbiCustomerRepository repository = new JdbiCustomerRepository(loose.jdbi(), "Alice");
        Customer stored = repository.find(id).orElseThrow();

        SaveOutcome saved = repository.save(id, stored.version(), stored.data().with(CustomerField.CITY, "Natal"));
        assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(repository.find(id).orElseThrow().data().postalCode()).isEqualTo("9".repeat(30));

        Customer now = ((SaveOutcome.Saved) saved).saved();
        assertThatThrownBy(() -> repository.save(id, now.version(),
                now.data().with(CustomerField.POSTAL_CODE, "8".repeat(30))))
                .isInstanceOfSatisfying(InvalidCustomerException.class, e -> assertThat(e.errors())
                        .extracting(FieldError::field).containsExactly(CustomerField.POSTAL_CODE));
    }

    /**
     * NaN compares as greater than every number, so "credit_limit >= 0" let another writer store it, and no client can
     * read it back (pgjdbc: "Bad value for type BigDecimal"): one psql write stopped every operator's list (an attack
     * on V25). The database refuses it for every writer, by the rule's name; Infinity the column's precision refuses.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"NaN, 23514 customer_credit_limit_check", "Infinity, 22003", "-Infinity, 22003"})
    void anotherWriterCannotStoreACreditLimitThatIsNotANumber(String value, String refused) {
        Customer stored = alice.create(aFreshCustomer());

        assertThat(refusal("UPDATE customer SET credit_limit = CAST(:v AS numeric) WHERE id = :id", value,
                stored.id())).isEqualTo(refused);
        assertThat(refusal("INSERT INTO customer (company, credit_limit) VALUES ('NaN Ltd', CAST(:v AS numeric))",
                value, 0)).isEqualTo(refused);
        assertThat(alice.find(stored.id()).orElseThrow()).isEqualTo(stored);
    }

    /**
     * Lengths are counted in code points of the NFC form for every writer, as Lockstep counts them: U+0958 (a
     * composition exclusion) is two code points in NFC, so 41 of them stored by psql would be a city Lockstep, which
     * sends NFC, could never save again (an attack on V25: no field of that customer could be saved). 40 are taken,
     * and the customer stays editable; a decomposed text longer than the limit as written but not in NFC is taken too.
     */
    @Test
    void aTextIsMeasuredInNfcForEveryWriter() {
        String qa = "\u0958";
        assertThat(refusal("INSERT INTO customer (company, city) VALUES ('Qa Ltd', :v)", qa.repeat(41), 0))
                .isEqualTo("23514 customer_city_check");

        long id = db.jdbi().withHandle(h -> h.createQuery(
                "INSERT INTO customer (company, city) VALUES ('Qa Ltd', :v) RETURNING id").bind("v", qa.repeat(40))
                .mapTo(Long.class).one());
        Customer stored = alice.find(id).orElseThrow();
        SaveOutcome saved = alice.save(id, stored.version(), stored.data().with(CustomerField.PHONE, "+91 22 0000"));
        assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(alice.find(id).orElseThrow().data().city()).isEqualTo(UnicodeText.nfc(qa.repeat(40)))
                .hasSize(80);

        String decomposed = "e\u0301".repeat(41); // 82 code points as written, 41 in NFC
        long other = db.jdbi().withHandle(h -> h.createQuery(
                "INSERT INTO customer (company, city) VALUES ('Acute Ltd', :v) RETURNING id").bind("v", decomposed)
                .mapTo(Long.class).one());
        assertThat(alice.find(other)).isPresent();
    }

    /**
     * Blank is the same for every writer as for Lockstep, which strips Java's white space from what it stores: a company
     * and contact of nothing but such characters are refused by the database, each of them tried, so that psql cannot
     * store a customer Lockstep reads as nameless and then refuses to save (V25's btrim() took a tab; an attack on
     * V25). The no-break spaces, which Java does not strip, make a name for both, and such a customer can be saved.
     */
    @Test
    void aNameOfNothingButWhiteSpaceAsLockstepCountsItIsRefusedForEveryWriter() {
        List<Integer> whiteSpace = java.util.stream.IntStream.rangeClosed(0, Character.MAX_CODE_POINT)
                .filter(Character::isWhitespace).boxed().toList();
        assertThat(whiteSpace).hasSizeGreaterThan(20).contains((int) '\t', 0x3000);
        for (int cp : whiteSpace) {
            String blank = " " + Character.toString(cp) + " ";
            assertThat(CustomerData.fromMap(java.util.Map.of(CustomerField.COMPANY, blank)).normalized().company())
                    .isNull();
            assertThat(refusal("INSERT INTO customer (company, contact_name) VALUES (:v, :v)", blank, 0))
                    .as("U+%04X", cp).isEqualTo("23514 customer_company_or_contact_required");
        }
        for (String noBreak : List.of("\u00a0", "\u2007", "\u202f")) {
            long id = db.jdbi().withHandle(h -> h.createQuery(
                    "INSERT INTO customer (company) VALUES (:v) RETURNING id").bind("v", noBreak).mapTo(Long.class)
                    .one());
            Customer stored = alice.find(id).orElseThrow();
            assertThat(stored.data().company()).isEqualTo(noBreak);
            assertThat(alice.save(id, stored.version(), stored.data().with(CustomerField.PHONE, "+351 1")))
                    .isInstanceOf(SaveOutcome.Saved.class);
        }
    }

    /** The SQLSTATE and constraint of a statement's refusal, run as a plain writer (no Lockstep settings). */
    private static String refusal(String sql, String value, long id) {
        try {
            db.jdbi().useHandle(h -> {
                var update = h.createUpdate(sql).bind("v", value);
                if (sql.contains(":id")) {
                    update.bind("id", id);
                }
                update.execute();
            });
        } catch (RuntimeException e) {
            return ServerRefusals.describe(e);
        }
        throw new AssertionError("not refused: " + sql + " with " + value);
    }

    private static long count() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }
}
