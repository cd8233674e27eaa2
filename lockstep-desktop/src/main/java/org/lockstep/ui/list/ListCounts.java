package org.lockstep.ui.list;

import static org.lockstep.text.Texts.tr;

import java.util.Optional;
import java.util.OptionalInt;
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
     * counts are in. A list that holds every match ({@code listed}: its rows, once its last page is read) knows their
     * number exactly, whatever the count said: a count that gave up early, or the planner's estimate, never reads
     * "about 1" over four listed rows.
     */
    static String describe(String search, Optional<CustomerCount> total, Optional<CustomerCount> matching,
            OptionalInt listed) {
        Optional<CustomerCount> match = listed.isPresent()
                ? Optional.of(new CustomerCount(listed.getAsInt(), true))
                : matching;
        Optional<CustomerCount> all = search.isEmpty() ? match.or(() -> total) : total;
        if (all.isEmpty() || (!search.isEmpty() && match.isEmpty())) {
            return tr("Counting…");
        }
        if (search.isEmpty()) {
            CustomerCount whole = all.get();
            return whole.exact() ? tr("{0, plural, one {# customer} other {# customers}}", whole.count())
                    : tr("{0} customers", whole.describe());
        }
        CustomerCount of = all.get();
        // Every listed row is a customer: an estimate of the whole table below them is no estimate worth showing.
        if (!of.exact() && of.count() < match.get().count()) {
            of = new CustomerCount(match.get().count(), false);
        }
        return tr("{0} of {1} match ''{2}''", match.get().describe(), of.describe(), search);
    }
}
