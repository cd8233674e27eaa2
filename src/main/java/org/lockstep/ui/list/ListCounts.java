package org.lockstep.ui.list;

import java.util.Optional;
import org.lockstep.domain.CustomerCount;

/** The counts behind the list's status line, and the line itself. */
final class ListCounts {

    /** Counts taken together for one search. */
    record Counts(CustomerCount total, CustomerCount matching) {
    }

    private ListCounts() {
    }

    /**
     * The status line: "59 customers" without a search, "3 of 59 match 'ber'" with one, "Counting…" until the
     * counts are in.
     */
    static String describe(String search, Optional<CustomerCount> total, Optional<CustomerCount> matching) {
        if (total.isEmpty() || (!search.isEmpty() && matching.isEmpty())) {
            return "Counting…";
        }
        CustomerCount all = total.get();
        if (search.isEmpty()) {
            return all.describe() + (all.exact() && all.count() == 1 ? " customer" : " customers");
        }
        return matching.get().describe() + " of " + all.describe() + " match '" + search + "'";
    }
}
