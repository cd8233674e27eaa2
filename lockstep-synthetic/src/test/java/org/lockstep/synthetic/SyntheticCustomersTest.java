package org.lockstep.synthetic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerValidator;

class SyntheticCustomersTest {

    @Test
    void aSeedGivesTheSameRowsWhateverOrderTheyAreMadeIn() {
        SyntheticCustomers forwards = new SyntheticCustomers(42);
        SyntheticCustomers backwards = new SyntheticCustomers(42);
        List<CustomerData> a = LongStream.rangeClosed(1, 500).mapToObj(forwards::customer).toList();
        List<CustomerData> b = new ArrayList<>();
        for (long n = 500; n >= 1; n--) {
            b.add(0, backwards.customer(n));
        }

        assertThat(b).isEqualTo(a);
    }

    @Test
    void anotherSeedGivesOtherCustomers() {
        CustomerData one = new SyntheticCustomers(1).customer(7);
        CustomerData two = new SyntheticCustomers(2).customer(7);

        assertThat(one.externalRef()).isEqualTo("GEN-1-0000000007");
        assertThat(two.externalRef()).isEqualTo("GEN-2-0000000007");
        assertThat(two.with(CustomerField.EXTERNAL_REF, one.externalRef())).isNotEqualTo(one);
    }

    @Test
    void everyGeneratedRowPassesTheValidator() {
        SyntheticCustomers g = new SyntheticCustomers(7);
        for (long n = 1; n <= 20_000; n++) {
            CustomerData c = g.customer(n);
            assertThat(CustomerValidator.validate(c)).as("row %d: %s", n, c).isEmpty();
            assertThat(c).isEqualTo(c.normalized());
        }
    }

    @Test
    void rowsComeFromManyCountriesWithMatchingDetails() {
        SyntheticCustomers g = new SyntheticCustomers(3);
        Set<String> countries = new HashSet<>();
        int multiLine = 0;
        int withNotes = 0;
        for (long n = 1; n <= 5_000; n++) {
            CustomerData c = g.customer(n);
            countries.add(c.country());
            multiLine += c.address().contains("\n") ? 1 : 0;
            withNotes += c.notes() != null ? 1 : 0;
            assertThat(c.company()).isNotBlank();
            assertThat(c.contactName()).isNotBlank();
            assertThat(c.phone()).isNotBlank();
            assertThat(c.city()).isNotBlank();
            assertThat(c.postalCode()).isNotBlank();
            if (c.country().equals("Germany") && !c.email().endsWith("@web.de")) {
                assertThat(c.email()).endsWith(".de");
            }
            if (c.country().equals("Brazil") && !c.email().endsWith("@uol.com.br")) {
                assertThat(c.email()).endsWith(".com.br");
            }
        }

        assertThat(countries).contains("United States", "Germany", "France", "Brazil", "Spain", "Italy",
                "Netherlands", "Poland", "Sweden", "Japan").hasSizeGreaterThanOrEqualTo(15);
        assertThat(multiLine).isBetween(500, 1_500);
        assertThat(withNotes).isBetween(500, 1_500);
    }

    @Test
    void emailsAreMadeFromTheContactsName() {
        SyntheticCustomers g = new SyntheticCustomers(11);
        int derived = 0;
        int latinNames = 0;
        for (long n = 1; n <= 1_000; n++) {
            CustomerData c = g.customer(n);
            String[] parts = c.contactName().split(" ");
            String last = SyntheticCustomers.ascii(parts[parts.length - 1]);
            if (!last.isEmpty()) {
                latinNames++;
                derived += c.email().substring(0, c.email().indexOf('@')).contains(last) ? 1 : 0;
            }
        }

        // Some surnames are two words ("del Ángel") and one mail pattern uses only the surname's initial.
        assertThat(derived).isGreaterThan(latinNames / 2);
    }

    @Test
    void foldsAccentsForMailboxes() {
        assertThat(SyntheticCustomers.ascii("Müller-Lüdenscheidt")).isEqualTo("mullerludenscheidt");
        assertThat(SyntheticCustomers.ascii("Łukasz Wąs")).isEqualTo("lukaszwas");
        assertThat(SyntheticCustomers.ascii("Straße")).isEqualTo("strasse");
        assertThat(SyntheticCustomers.ascii("佐藤")).isEmpty();
    }
}
