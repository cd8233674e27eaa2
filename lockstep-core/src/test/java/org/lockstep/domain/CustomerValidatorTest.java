package org.lockstep.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class CustomerValidatorTest {

    @Test
    void aCompleteCustomerIsValid() {
        assertThat(CustomerValidator.validate(aCustomer().build())).isEmpty();
    }

    @Test
    void companyOrContactNameIsRequired() {
        CustomerData data = aCustomer().with(CustomerField.COMPANY, " ").with(CustomerField.CONTACT_NAME, null).build();

        assertThat(CustomerValidator.validate(data))
                .containsExactly(new FieldError(CustomerField.COMPANY, "Company or contact name is required"));
    }

    @Test
    void aContactNameAloneIsEnough() {
        CustomerData data = aCustomer().with(CustomerField.COMPANY, null).build();

        assertThat(CustomerValidator.validate(data)).isEmpty();
    }

    @ParameterizedTest(name = "email \"{0}\" valid: {1}")
    @CsvSource(textBlock = """
            luisg@embraer.com.br,   true
            'françois@exemple.fr',  true
            a@b.co,                 true
            no-at-sign.example.com, false
            two@@example.com,       false
            'with space@example.com', false
            name@localhost,         false
            name@example.,          false
            """)
    void emailMustLookLikeAnAddress(String email, boolean valid) {
        List<FieldError> errors = CustomerValidator.validate(aCustomer().with(CustomerField.EMAIL, email).build());

        assertThat(errors.isEmpty()).isEqualTo(valid);
        if (!valid) {
            assertThat(errors.get(0).field()).isEqualTo(CustomerField.EMAIL);
        }
    }

    @ParameterizedTest(name = "credit limit {0} → {1}")
    @CsvSource(textBlock = """
            0,              ''
            1000.50,        ''
            9999999999.99,  ''
            -0.01,          Credit limit must not be negative
            10000000000,    'Credit limit must be at most 9,999,999,999.99'
            1.005,          Credit limit has at most two decimals
            """)
    void creditLimitIsANonNegativeAmountWithTwoDecimals(String amount, String message) {
        List<FieldError> errors = CustomerValidator.validate(
                aCustomer().with(CustomerField.CREDIT_LIMIT, amount).build());

        if (message.isEmpty()) {
            assertThat(errors).isEmpty();
        } else {
            assertThat(errors).containsExactly(new FieldError(CustomerField.CREDIT_LIMIT, message));
        }
    }

    @Test
    void tooLongValuesNameTheFieldAndTheLimit() {
        CustomerData data = aCustomer().with(CustomerField.POSTAL_CODE, "1".repeat(21)).build();

        assertThat(CustomerValidator.validate(data)).containsExactly(new FieldError(CustomerField.POSTAL_CODE,
                "Postal code is too long: 21 characters, at most 20"));
    }

    @Test
    void singleLineFieldsRejectLineBreaksAndControlCharactersWhileNotesKeepLinesAndTabs() {
        CustomerData data = aCustomer().with(CustomerField.CITY, "A\u0001B\u001b[31mRED")
                .with(CustomerField.COMPANY, "Cuper\ntino").with(CustomerField.NOTES, "line 1\n\tline 2").build();

        assertThat(CustomerValidator.validate(data)).extracting(FieldError::field)
                .containsExactly(CustomerField.COMPANY, CustomerField.CITY);
        assertThat(CustomerValidator.validate(data).get(1).message())
                .isEqualTo("City must be one line of text, without line breaks or control characters");
    }

    @ParameterizedTest(name = "{0} in {1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            202A | COMPANY       | Company contains a left-to-right embedding (U+202A), which can disguise text
            202B | CONTACT_NAME  | Contact name contains a right-to-left embedding (U+202B), which can disguise text
            202C | CITY          | City contains a pop directional formatting (U+202C), which can disguise text
            202D | EMAIL         | Email contains a left-to-right override (U+202D), which can disguise text
            202E | EXTERNAL_REF  | External ref contains a right-to-left override (U+202E), which can disguise text
            2066 | ADDRESS       | Address contains a left-to-right isolate (U+2066), which can disguise text
            2067 | NOTES         | Notes contains a right-to-left isolate (U+2067), which can disguise text
            2068 | COUNTRY       | Country contains a first strong isolate (U+2068), which can disguise text
            2069 | PHONE         | Phone contains a pop directional isolate (U+2069), which can disguise text
            """)
    void bidirectionalOverridesAndIsolatesAreRefusedNamingTheFieldAndTheCharacter(String hex, CustomerField field,
            String message) {
        String control = Character.toString(Integer.parseInt(hex, 16));
        String value = field == CustomerField.EMAIL ? "moc.elpmaxe@" + control + "sales" : "Acme" + control + "gpj.exe";
        CustomerData data = aCustomer().with(field, value).build();

        assertThat(CustomerValidator.validate(data)).contains(new FieldError(field, message));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @CsvSource(textBlock = """
            'שלום עולם'
            'شركة النور'
            'Acme (שלום) Ltd'
            'a‏b‎c'
            """)
    void rightToLeftTextAndDirectionalMarksAreFine(String company) {
        assertThat(CustomerValidator.validate(aCustomer().with(CustomerField.COMPANY, company).build())).isEmpty();
    }

    @Test
    void everyViolationIsReportedAtOnce() {
        CustomerData data = aCustomer().with(CustomerField.EMAIL, "nope").with(CustomerField.CREDIT_LIMIT, "-5")
                .build();

        assertThat(CustomerValidator.validate(data)).extracting(FieldError::field)
                .containsExactly(CustomerField.EMAIL, CustomerField.CREDIT_LIMIT);
    }

    /** U+1F600, one code point but two UTF-16 code units: what {@code String.length()} counted twice. */
    static final String GRIN = "\uD83D\uDE00";

    @ParameterizedTest(name = "{0}: its limit in emoji is accepted, one more is refused")
    @EnumSource(value = CustomerField.class, names = "CREDIT_LIMIT", mode = EnumSource.Mode.EXCLUDE)
    void lengthsAreCountedInCodePointsAsTheDatabaseCountsThem(CustomerField field) {
        int limit = field.maxLength();
        String atLimit = field == CustomerField.EMAIL ? GRIN.repeat(limit - 6) + "@b.com" : GRIN.repeat(limit);
        String overLimit = GRIN + atLimit;

        assertThat(CustomerValidator.validate(aCustomer().with(field, atLimit).build())).isEmpty();
        assertThat(CustomerValidator.validate(aCustomer().with(field, overLimit).build())).containsExactly(
                new FieldError(field,
                        field.label() + " is too long: " + (limit + 1) + " characters, at most " + limit));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a combining accent counts once it is composed: 120 × é in NFD is 120 code points in NFC | e\u0301 | 120 | true
            a combining accent without a precomposed form counts on its own: 61 × q́ is 122           | q\u0301 | 61  | false
            """)
    void lengthsAreCountedOnTheNfcForm(String description, String unit, int times, boolean fits) {
        CustomerData data = aCustomer().with(CustomerField.CONTACT_NAME, unit.repeat(times)).build();

        assertThat(CustomerValidator.validate(data).isEmpty()).isEqualTo(fits);
    }

    /** A record as psql may have written it: a control character in City and an invalid email. */
    static CustomerData storedByAnotherTool() {
        return aCustomer().with(CustomerField.CITY, "S\u00e3o Jos\u00e9\u0007")
                .with(CustomerField.EMAIL, "not-an-email")
                .build();
    }

    @ParameterizedTest(name = "{0}={1} → errors on {2}, warnings on {3}")
    @CsvSource(delimiter = '|', textBlock = """
            PHONE | +55 12 3923-0000      | ''    | EMAIL CITY
            CITY  | Curitiba              | ''    | EMAIL
            CITY  | Curitiba\u001b[31m    | CITY  | EMAIL
            EMAIL | also-not-an-email     | EMAIL | CITY
            EMAIL | luis@embraer.com.br   | ''    | CITY
            """)
    void onlyWhatAnEditChangesMustSatisfyTheRulesAndUntouchedStoredValuesAreWarnings(
            CustomerField field, String value, String errorFields, String warningFields) {
        CustomerData base = storedByAnotherTool();

        CustomerValidator.Findings findings = CustomerValidator.validateChanges(base, base.with(field, value));

        assertThat(findings.errors()).extracting(FieldError::field).containsExactlyElementsOf(fields(errorFields));
        assertThat(findings.warnings()).extracting(FieldError::field).containsExactlyElementsOf(fields(warningFields));
        assertThat(findings.ok()).isEqualTo(errorFields.isEmpty());
        assertThat(findings.warnings()).allSatisfy(w -> assertThat(w.message()).endsWith(CustomerValidator.UNCHANGED));
    }

    @Test
    void aNewRecordIsJudgedWhole() {
        CustomerData mine = storedByAnotherTool();

        CustomerValidator.Findings findings = CustomerValidator.validateChanges(CustomerData.EMPTY, mine);

        assertThat(findings.errors()).isEqualTo(CustomerValidator.validate(mine));
        assertThat(findings.warnings()).isEmpty();
    }

    @Test
    void theRecordWideRuleIsNeverOnlyAWarning() {
        CustomerData base = aCustomer().with(CustomerField.CONTACT_NAME, null).build();

        CustomerValidator.Findings findings = CustomerValidator.validateChanges(base,
                base.with(CustomerField.COMPANY, null));

        assertThat(findings.errors()).containsExactly(
                new FieldError(CustomerField.COMPANY, "Company or contact name is required"));
    }

    private static List<CustomerField> fields(String names) {
        return names.isBlank() ? List.of()
                : java.util.Arrays.stream(names.split(" ")).map(CustomerField::valueOf).toList();
    }
}
