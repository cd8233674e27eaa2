package org.lockstep.testing;

import java.math.BigDecimal;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/** Builds {@link CustomerData} fixtures: a valid customer by default, with any field replaced. */
public final class CustomerBuilder {
    private CustomerData data = new CustomerData("EXT-1", "Embraer - Empresa Brasileira de Aeronáutica S.A.",
            "Luís Gonçalves", "Buyer", "luisg@embraer.com.br", "+55 (12) 3923-5555", null,
            "Av. Brigadeiro Faria Lima, 2170", "São José dos Campos", "SP", "12227-000", "Brazil", null,
            new BigDecimal("1000.00"));

    /** A valid customer to start from. */
    public static CustomerBuilder aCustomer() {
        return new CustomerBuilder();
    }

    /** Replaces a field; text for text fields, a decimal string for the credit limit. */
    public CustomerBuilder with(CustomerField field, String value) {
        data = data.with(field, value == null ? null : field.numeric() ? new BigDecimal(value) : value);
        return this;
    }

    /** The values built. */
    public CustomerData build() {
        return data;
    }
}
