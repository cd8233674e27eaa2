package org.lockstep.domain;

/**
 * The orders the customer list can be sorted in. Each is a total order (ties broken by id), so that keyset paging
 * ("the rows after this one") never skips or repeats a row.
 */
public enum CustomerSort {
    ID("id"),
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

    /** The column sorted on. */
    public String column() {
        return column;
    }
}
