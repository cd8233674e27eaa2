package org.lockstep.domain;

import java.util.Optional;

/**
 * One committed change, as a database notification announced it: identifiers only, never the row — read the row
 * if you need it.
 *
 * @param table     {@code customer}, {@code record_lease}, {@code presence} or {@code message}
 * @param id        the customer's id
 * @param version   the customer's version after the change (for a delete: the version deleted), or for a lease the
 *                  fencing token
 * @param op        {@code INSERT}, {@code UPDATE} or {@code DELETE}; or {@code MANY}: many customers changed at
 *                  once (a bulk write, a statement over more than 50 rows; V16), with id 0 and {@code version} the
 *                  number of rows — re-read whatever you show
 * @param sessionId the writing client session when known (for leases: the holder's session)
 */
public record ChangeEvent(String table, long id, long version, String op, Optional<String> sessionId) {

    /** Whether this change is to a customer row. */
    public boolean isCustomer() {
        return "customer".equals(table);
    }

    /** Whether this announces many customer changes at once, without their ids (op {@code MANY}). */
    public boolean isManyCustomers() {
        return isCustomer() && "MANY".equals(op);
    }

    /** Whether this change is to a lease row. */
    public boolean isLease() {
        return "record_lease".equals(table);
    }

    /** Whether this change is to who has a customer open (id: the customer). */
    public boolean isPresence() {
        return "presence".equals(table);
    }

    /** Whether this change is a message sent about a customer (id: the customer, version: the message). */
    public boolean isMessage() {
        return "message".equals(table);
    }

    /**
     * Whether this announces a message to the supervisors ("Ask a supervisor…", op {@code SUPERVISORS}; id: the
     * customer, version: the message). A hint only — anyone may NOTIFY: read the request from the message table.
     */
    public boolean isSupervisorRequest() {
        return isMessage() && "SUPERVISORS".equals(op);
    }

    /** Whether the given session made this change. */
    public boolean madeBy(String session) {
        return sessionId.map(session::equals).orElse(false);
    }

    /** One line for {@code lockstep watch}: "customer 12 v8 UPDATE". */
    public String describe() {
        return table + " " + id + (isLease() ? " token " : " v") + version + " " + op;
    }
}
