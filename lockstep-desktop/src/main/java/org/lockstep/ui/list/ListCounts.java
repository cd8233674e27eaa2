package org.lockstep.ui.list;

import static org.lockstep.text.Texts.tr;

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
            return tr("Counting…");
        }
        CustomerCount all = total.get();
        if (search.isEmpty()) {
            return all.exact() ? tr("{0, plural, one {# customer} other {# customers}}", all.count())
                    : tr("{0} customers", all.describe());
        }
        return tr("{0} of {1} match ''{2}''", matching.get().describe(), all.describe(), search);
    }
}
