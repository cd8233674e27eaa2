package org.lockstep.domain;

/**
 * A request for one page of the customer list (keyset paging: "the next {@code limit} rows after {@code after}").
 *
 * @param search     text to find in company, contact name, email, city or country (case-insensitive); blank for all;
 *                   kept as {@link #searchTerm}
 * @param sort       the order
 * @param descending whether the order is reversed
 * @param after      the last row of the previous page, or {@code null} for the first page
 * @param limit      the page size in rows, 1 to 1,000
 */
public record CustomerPageRequest(String search, CustomerSort sort, boolean descending, Customer after, int limit) {

    /** The default page size in rows. */
    public static final int DEFAULT_LIMIT = 200;

    public CustomerPageRequest {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit must be 1 to 1000, was " + limit);
        }
        if (sort == null) {
            sort = CustomerSort.ID;
        }
        search = searchTerm(search);
    }

    /**
     * A search term as the store receives it: stripped, and in NFC like every stored text ({@link UnicodeText}), so
     * that "José" typed with a combining accent finds the "José" stored precomposed.
     *
     * @param search the text as typed, or {@code null}
     * @return the term; empty for {@code null} or blank
     */
    public static String searchTerm(String search) {
        return search == null ? "" : UnicodeText.nfc(search.strip());
    }

    /** The first page of everything, by id. */
    public static CustomerPageRequest first(String search) {
        return new CustomerPageRequest(search, CustomerSort.ID, false, null, DEFAULT_LIMIT);
    }

    /** The page after the given row, same search and order. */
    public CustomerPageRequest next(Customer last) {
        return new CustomerPageRequest(search, sort, descending, last, limit);
    }
}
