package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.text.Texts;
import org.lockstep.ui.live.OwnWrites;

/**
 * What an editor learns when a notification says its customer may have changed: the record as it is now (empty when
 * deleted) and who made the latest change, from the history the database's trigger wrote — so a write by a script or
 * psql names its database role — and whether that change came from another window of this very operator, which the
 * editor announces as "You saved version 8 in another window".
 *
 * <p>Every fact here is read, none is taken from the notification: on a team server any operator may send a
 * notification with any payload ({@code pg_notify}), and any writer may name any session ({@code lockstep.session}),
 * so a payload is only a hint to look (ADR 0018, "Notifications are hints"). The version and the delete are the
 * database's; "in another window" is this client's own record of what its writers committed ({@link OwnWrites}).
 *
 * @param now             the record now; empty when someone deleted it
 * @param who             who made the latest change, or "Someone" when the history does not say
 * @param inAnotherWindow whether another editor of this client wrote the record as it is now (or deleted it)
 */
record LiveCheck(Optional<Customer> now, String who, boolean inAnotherWindow) {

    /** As {@link #read(CustomerRepository, HistoryRepository, long, long, Predicate)}, by nobody of this client. */
    static LiveCheck read(CustomerRepository customers, HistoryRepository history, long id, long baseVersion) {
        return read(customers, history, id, baseVersion, now -> false);
    }

    /**
     * Reads the record and its changes after {@code baseVersion}. Blocks: call off the FX thread.
     *
     * @param byAnotherWindow whether another editor of this client wrote the record read (empty: deleted it)
     */
    static LiveCheck read(CustomerRepository customers, HistoryRepository history, long id, long baseVersion,
            Predicate<Optional<Customer>> byAnotherWindow) {
        Optional<Customer> now = customers.find(id);
        List<HistoryEntry> entries = now.isPresent()
                ? history.between(id, baseVersion, now.get().version())
                : history.history(id).stream().filter(e -> e.op() == HistoryEntry.Op.DELETE).toList();
        String who = entries.isEmpty() ? now.map(Customer::updatedBy).orElse(null)
                : entries.get(entries.size() - 1).changedBy();
        return new LiveCheck(now, who == null || who.isBlank() ? tr("Someone") : who, byAnotherWindow.test(now));
    }

    /** "Bob saved version 8 (phone, email) — Review", or "You saved version 8 in another window (phone) — Review". */
    String savedBanner(long version, Set<CustomerField> changed) {
        return inAnotherWindow
                ? tr("You saved version {0} in another window ({1}) — Review", version, fieldNames(changed))
                : tr("{0} saved version {1} ({2}) — Review", who, version, fieldNames(changed));
    }

    /** "Bob deleted this customer — Review", or "You deleted this customer in another window — Review". */
    String deletedBanner() {
        return inAnotherWindow ? tr("You deleted this customer in another window — Review")
                : tr("{0} deleted this customer — Review", who);
    }

    /** "Bob deleted this customer; it no longer exists.", or "You deleted this customer in another window; …". */
    String deletedNotice() {
        return inAnotherWindow ? tr("You deleted this customer in another window; it no longer exists.")
                : tr("{0} deleted this customer; it no longer exists.", who);
    }

    /** The fields whose values differ between two versions, in field order. */
    static Set<CustomerField> changedFields(CustomerData before, CustomerData after) {
        CustomerData a = before.normalized();
        CustomerData b = after.normalized();
        Set<CustomerField> changed = EnumSet.noneOf(CustomerField.class);
        for (CustomerField f : CustomerField.values()) {
            if (!CustomerData.sameValue(a.get(f), b.get(f))) {
                changed.add(f);
            }
        }
        return changed;
    }

    /** "phone, email": the fields' labels as an operator reads them in a sentence. */
    static String fieldNames(Set<CustomerField> fields) {
        return fields.isEmpty() ? tr("no field changed")
                : fields.stream().map(f -> f.label().toLowerCase(Texts.locale())).collect(Collectors.joining(", "));
    }
}
