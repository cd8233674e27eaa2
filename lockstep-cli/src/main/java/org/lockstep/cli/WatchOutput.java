package org.lockstep.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.lockstep.domain.ChangeDetail;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.domain.UnicodeText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lines {@code lockstep watch} prints on stdout, as text in the operators' words or one JSON object per line.
 * <ul>
 *   <li>a customer change: {@code 10:15:02  customer 63 v5 (Around the Horn): Ana changed city, phone};
 *       {@code … v1 (…): Ana created it}; {@code … v5 (…): Ana deleted it};</li>
 *   <li>a lease change: {@code 10:15:40  customer 63 lock, token 6: Ana locked it for editing until 10:16:40},
 *       {@code … Ana took over the lapsed lock until …}, {@code … Ana released it}, {@code … Bob broke Ana's lock}; a lock removed with its customer has a blank time column (the database does
 *       not time it); renewals are not announced (V4), nor is a loss a holder's client records (it changes
 *       no lease row, so nothing notifies: {@code lockstep timeline} shows it);</li>
 *   <li>many customers at once (a bulk write): {@code 20,000 customers changed at once (a bulk write)};</li>
 *   <li>JSON: {@code {"table","id","version","op","session"}} (session {@code null} when unknown) plus, when the
 *       database still records the change, {@code user}, {@code at} (ISO-8601, database clock) and {@code fields}
 *       (the changed fields' column names); leases also {@code event}, {@code holder}, and {@code expires_at};</li>
 *   <li>after a reconnection, a resync line, {@code resync: …}; JSON {@code {"event":"resync"}}, followed by one
 *       change line per customer changed while disconnected (its current version and last op, session
 *       {@code null}) and one line per lease in force: {@code customer 12 lock, token 34: Alice holds it until
 *       10:00:00}; JSON with {@code "op":"HELD"}, {@code holder} and {@code expires_at}. A lease not listed there is
 *       not held.</li>
 * </ul>
 * Times are the database clock's, shown in the local time zone. When the details cannot be read (the trail was purged,
 * the database is briefly out of reach) a line falls back to the notification's own words, e.g.
 * {@code customer 63 v5 UPDATE}: a change is never left out for want of its details. But a notification of a customer
 * or lease change that the database, read, does not record is left out: any operator of a team server may send one
 * with any payload ({@code pg_notify}), so a notification is a hint, and only what the database records is printed
 * as a change (ADR 0018, "Notifications are hints").
 */
final class WatchOutput {

    private static final Logger LOG = LoggerFactory.getLogger(WatchOutput.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    /** In the time column of a change the database did not time: as wide as a time, to keep columns. */
    private static final String UNTIMED = "        ";

    private final PrintWriter out;
    private final boolean json;
    private final Function<List<ChangeEvent>, List<Optional<ChangeDetail>>> details;
    private final DateTimeFormatter time;

    /**
     * @param details reads what the database recorded about a batch of changes ({@code ChangeDetails#of})
     * @param zone    the zone times are shown in
     */
    WatchOutput(PrintWriter out, boolean json, Function<List<ChangeEvent>, List<Optional<ChangeDetail>>> details,
            ZoneId zone) {
        this.out = out;
        this.json = json;
        this.details = details;
        this.time = TIME.withZone(zone);
    }

    /** Prints changes as heard. */
    void changes(List<ChangeEvent> events) {
        Optional<List<Optional<ChangeDetail>>> read = tryDetailsOf(events);
        List<Optional<ChangeDetail>> known = read.orElseGet(() -> none(events));
        synchronized (out) {
            for (int i = 0; i < events.size(); i++) {
                ChangeEvent e = events.get(i);
                if (e.isPresence()) {
                    // Who has a customer open changes nothing; printed, it read "presence 2 v0 DELETE" as an
                    // editor closed or a crashed client's row expired (issue 28, seen by hand).
                    continue;
                }
                if (read.isPresent() && known.get(i).isEmpty() && claimsARecordedChange(e)) {
                    LOG.debug("Not printed: the database records no such change ({})", e.describe());
                    continue;
                }
                print(e, known.get(i).orElse(null));
            }
            out.flush();
        }
    }

    /** A customer change (not MANY, which names none) or a lease change: the database records each of these. */
    private static boolean claimsARecordedChange(ChangeEvent e) {
        return (e.isCustomer() && !e.isManyCustomers()) || e.isLease();
    }

    /** Prints the resync line, then the customers changed while disconnected, then the leases in force. */
    void resynced(List<ChangeEvent> customers, List<LeaseInfo> leases) {
        List<Optional<ChangeDetail>> known = detailsOf(customers);
        synchronized (out) {
            out.println(json ? "{\"event\":\"resync\"}"
                    : "resync: reconnected; the customers changed while disconnected and the leases in force follow");
            for (int i = 0; i < customers.size(); i++) {
                print(customers.get(i), known.get(i).orElse(null));
            }
            leases.forEach(this::print);
            out.flush();
        }
    }

    private List<Optional<ChangeDetail>> detailsOf(List<ChangeEvent> events) {
        return tryDetailsOf(events).orElseGet(() -> none(events));
    }

    /** The details, or empty when the database could not be read (then the changes are printed as notified). */
    private Optional<List<Optional<ChangeDetail>>> tryDetailsOf(List<ChangeEvent> events) {
        try {
            return Optional.of(details.apply(events));
        } catch (StoreUnavailableException e) {
            LOG.warn("Could not read the details of {} changes; printing them as notified", events.size(), e);
            return Optional.empty();
        }
    }

    private static List<Optional<ChangeDetail>> none(List<ChangeEvent> events) {
        return events.stream().map(x -> Optional.<ChangeDetail>empty()).toList();
    }

    private void print(ChangeEvent e, ChangeDetail d) {
        if (json) {
            out.println(jsonOf(e, d));
        } else {
            // Companies and names may hold what psql let in: one change stays one line, and drives no terminal.
            out.println(UnicodeText.oneLine(d == null ? fallback(e)
                    : d.at().map(time::format).orElse(UNTIMED) + "  " + words(e, d)));
        }
    }

    private static String fallback(ChangeEvent e) {
        if (e.isManyCustomers()) {
            return String.format("%,d customers changed at once (a bulk write)", e.version());
        }
        return e.describe();
    }

    /** The change in the operators' words: what, to which customer, by whom. */
    String words(ChangeEvent e, ChangeDetail d) {
        if (d.lease().isPresent()) {
            ChangeDetail.LeaseStep step = d.lease().get();
            String subject = "customer " + e.id() + " lock, token " + e.version() + ": ";
            return subject + switch (step.event()) {
                case "acquired" -> step.holder() + " locked it for editing" + until(step);
                case "expired_takeover" -> step.holder() + " took over the lapsed lock" + until(step);
                case "released" -> step.holder() + " released it";
                case "broken" -> step.actor() + " broke " + step.holder() + "'s lock";
                case "lost" -> step.holder() + "'s lock was lost";
                case "removed" -> "the lock went with the deleted customer";
                default -> step.holder() + ": " + step.event();
            };
        }
        String subject = "customer " + e.id() + " v" + e.version() + d.company().map(c -> " (" + c + ")").orElse("")
                + ": " + d.user() + " ";
        return subject + switch (e.op()) {
            case "INSERT" -> "created it";
            case "DELETE" -> "deleted it";
            default -> d.fields().isEmpty() ? "saved it unchanged"
                    : "changed " + d.fields().stream().map(f -> f.label().toLowerCase(java.util.Locale.ROOT))
                            .collect(Collectors.joining(", "));
        };
    }

    private String until(ChangeDetail.LeaseStep step) {
        return step.expiresAt().map(t -> " until " + time.format(t)).orElse("");
    }

    private static ObjectNode jsonOf(ChangeEvent e, ChangeDetail d) {
        ObjectNode node = JSON.createObjectNode();
        node.put("table", e.table());
        node.put("id", e.id());
        node.put("version", e.version());
        node.put("op", e.op());
        e.sessionId().ifPresentOrElse(v -> node.put("session", v), () -> node.putNull("session"));
        if (d != null) {
            node.put("user", d.user());
            d.at().ifPresent(t -> node.put("at", t.toString()));
            ArrayNode fields = node.putArray("fields");
            d.fields().stream().map(CustomerField::column).forEach(fields::add);
            d.company().ifPresent(c -> node.put("company", c));
            d.lease().ifPresent(step -> {
                node.put("event", step.event());
                node.put("holder", step.holder());
                step.expiresAt().ifPresent(t -> node.put("expires_at", t.toString()));
            });
        }
        return node;
    }

    private void print(LeaseInfo lease) {
        if (!json) {
            out.println(UnicodeText.oneLine("customer " + lease.recordId() + " lock, token " + lease.token() + ": "
                    + lease.holder() + " holds it until " + time.format(lease.expiresAt())));
            return;
        }
        ObjectNode node = JSON.createObjectNode();
        node.put("table", "record_lease");
        node.put("id", lease.recordId());
        node.put("version", lease.token());
        node.put("op", "HELD");
        node.put("session", lease.sessionId());
        node.put("holder", lease.holder());
        node.put("user", lease.holder());
        node.put("expires_at", lease.expiresAt().toString());
        out.println(node);
    }
}
