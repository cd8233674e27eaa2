package org.lockstep.ui;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerRepository;

/** Customers for UI tests, written through the real repository. */
public final class CustomerFixtures {

    /** Cities and their countries, cycled through; "Berlin" and "Bergen" are the only values containing "ber". */
    public static final String[][] PLACES = {
            {"Berlin", "Germany"}, {"Paris", "France"}, {"São Paulo", "Brazil"}, {"Bergen", "Norway"},
            {"Montréal", "Canada"}, {"Zürich", "Switzerland"}, {"Oslo", "Norway"}, {"Kraków", "Poland"},
            {"Lisboa", "Portugal"}, {"Tōkyō", "Japan"},
    };
    private static final String[] CONTACTS = {"Anna Schmidt", "Luís Gonçalves", "Åsa Lind", "Jean Dupont",
            "Marta Nowak", "Sören Ødegaard", "Chloé Martin"};

    private CustomerFixtures() {
    }

    /** The values of the {@code i}-th numbered customer: "Firma 0001", a contact, a city from {@link #PLACES}. */
    public static CustomerData numbered(int i) {
        String[] place = PLACES[i % PLACES.length];
        return new CustomerData("N-" + i, String.format("Firma %04d", i), CONTACTS[i % CONTACTS.length], null,
                String.format("c%04d@example.com", i), null, null, null, place[0], null, null, place[1], null,
                BigDecimal.valueOf(100L * i));
    }

    /** Creates {@code n} numbered customers, 1 to n, and returns them as stored. */
    public static List<Customer> createNumbered(CustomerRepository repository, int n) {
        List<Customer> created = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            created.add(repository.create(numbered(i)));
        }
        return created;
    }
}
