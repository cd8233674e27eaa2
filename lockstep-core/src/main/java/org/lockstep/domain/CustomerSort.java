package org.lockstep.domain;

/**
 * The orders the customer list can be sorted in. Each is a total order (ties broken by id), so that keyset paging
 * ("the rows after this one") never skips or repeats a row.
 */
public enum CustomerSort {
    ID("id"),
    /**
     * The name the list shows first: the company, else (for a person without one) the contact's name
     * ({@link #name(CustomerData)}).
     */
    NAME("name"),
    COMPANY("company"),
    CONTACT_NAME("contact_name"),
    EMAIL("email"),
    CITY("city"),
    COUNTRY("country"),
    VERSION("version"),
    UPDATED_AT("updated_at");

    private final String column;

    CustomerSort(String column) {
        this.column = column;
    }

    /** The column sorted on; for {@link #NAME}, no column but the name {@link #name(CustomerData)} gives. */
    public String column() {
        return column;
    }

    /**
     * A customer's name as the list shows and sorts it: the company when it has one (not empty), else the contact's
     * name, else empty. The store orders by the same rule in SQL ({@code coalesce(nullif(company, ''),
     * contact_name)}, V22__name_sort.sql): the two must agree, or keyset paging by name would skip or repeat rows.
     */
    public static String name(CustomerData data) {
        String company = data.company();
        if (company != null && !company.isEmpty()) {
            return company;
        }
        return data.contactName() == null ? "" : data.contactName();
    }
}
