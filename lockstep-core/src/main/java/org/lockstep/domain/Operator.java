package org.lockstep.domain;

import java.util.Objects;

/**
 * Who this client is to the database (issue 26): the name it records in history, leases, conflicts, messages and
 * presence, and whether it may break another's lock. On a team server each operator has a login of their own and the
 * name is that login, whatever the client was told ({@code --user}); a login several operators share at one machine —
 * the embedded server's — names its operators itself (the machine's user, or the trainer demo's Alice and Bob).
 *
 * @param name          the name the database records for this client's writes
 * @param supervisor    whether this operator may break another's lock
 * @param namedByClient whether the name is the client's own (a shared login) rather than the login's
 */
public record Operator(String name, boolean supervisor, boolean namedByClient) {

    /** @throws NullPointerException when the name is null */
    public Operator {
        Objects.requireNonNull(name, "name");
    }

    /** An operator who names itself and may break locks: the embedded single-machine default, and tests on fakes. */
    public static Operator local(String name) {
        return new Operator(name, true, true);
    }
}
