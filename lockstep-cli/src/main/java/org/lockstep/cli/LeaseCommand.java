package org.lockstep.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.store.JdbiLeaseRepository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep lease acquire|release|list|break}: the pessimistic offline lock from the command line. A lease
 * taken here lasts its TTL (nothing renews it once the command exits); {@code set} and {@code delete} write under
 * it with {@code --lease-token T}. Exit 4 when another holds the record, or the token given is no longer its lease;
 * exit 3 when there is no such customer ("no customer N", or "no longer exists" when it was deleted).
 */
@Command(name = "lease", description = "Lock customers for editing (leases with fencing tokens).",
        subcommands = {LeaseCommand.Acquire.class, LeaseCommand.Release.class, LeaseCommand.ListLeases.class,
                LeaseCommand.Break.class})
public final class LeaseCommand {

    @ParentCommand
    Launcher launcher;

    static JdbiLeaseRepository leases(CommandSupport.Session s) {
        return s.leases();
    }

    static ObjectNode json(LeaseInfo l) {
        ObjectNode node = Json.mapper().createObjectNode();
        node.put("record_id", l.recordId());
        node.put("holder", l.holder());
        node.put("token", l.token());
        node.put("acquired_at", l.acquiredAt().toString());
        node.put("expires_at", l.expiresAt().toString());
        return node;
    }

    /** {@code lockstep lease acquire ID [--ttl 60s] [--json]}. */
    @Command(name = "acquire", description = "Take the lease of a customer; prints its fencing token and expiry.")
    static final class Acquire implements Callable<Integer> {
        @ParentCommand
        LeaseCommand lease;
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
        long id;
        @Option(names = "--ttl", paramLabel = "DURATION", defaultValue = "60s",
                converter = DurationConverter.LeaseTtl.class,
                description = "How long the lease lasts, 5s to 24h (e.g. 60s, 5m); default ${DEFAULT-VALUE}.")
        Duration ttl;
        @Option(names = "--json", description = "Print a JSON object with token and expires_at.")
        boolean json;

        @Override
        public Integer call() {
            return CommandSupport.run(lease.launcher, spec, false, s -> {
                if (s.customers().find(id).isEmpty()) {
                    return CommandSupport.missing(s, id, "nothing locked");
                }
                AcquireOutcome outcome = leases(s).acquire(id, ttl.toMillis());
                if (outcome instanceof AcquireOutcome.HeldByOther other) {
                    return CommandSupport.locked(s, id, Optional.of(other.holder()), "not acquired");
                }
                if (outcome instanceof AcquireOutcome.Gone) {
                    return CommandSupport.missing(s, id, "nothing locked");
                }
                Lease l = ((AcquireOutcome.Granted) outcome).lease();
                if (json) {
                    ObjectNode node = Json.mapper().createObjectNode();
                    node.put("record_id", id);
                    node.put("token", l.token());
                    node.put("acquired_at", l.acquiredAt().toString());
                    node.put("expires_at", l.expiresAt().toString());
                    s.out().println(Json.mapper().writeValueAsString(node));
                } else {
                    s.out().println("token=" + l.token() + " expires_at=" + l.expiresAt());
                }
                return ExitCodes.OK;
            });
        }
    }

    /** {@code lockstep lease release ID --token T}. */
    @Command(name = "release", description = "Give a lease up.")
    static final class Release implements Callable<Integer> {
        @ParentCommand
        LeaseCommand lease;
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
        long id;
        @Option(names = "--token", required = true, paramLabel = "T", description = "The lease's fencing token.")
        long token;

        @Override
        public Integer call() {
            return CommandSupport.run(lease.launcher, spec, false, s -> {
                JdbiLeaseRepository leases = leases(s);
                if (!leases.release(id, token)) {
                    Optional<LeaseInfo> holder = leases.holder(id);
                    if (holder.isEmpty() && s.customers().find(id).isEmpty()) {
                        return CommandSupport.missing(s, id, "nothing released");
                    }
                    return CommandSupport.locked(s, id, holder, "nothing released");
                }
                s.out().println("released id=" + id + " token=" + token);
                return ExitCodes.OK;
            });
        }
    }

    /** {@code lockstep lease list [--json]}. */
    @Command(name = "list", description = "Show every lease in force.")
    static final class ListLeases implements Callable<Integer> {
        @ParentCommand
        LeaseCommand lease;
        @Spec
        CommandSpec spec;
        @Option(names = "--json", description = "Print a JSON array of leases.")
        boolean json;

        @Override
        public Integer call() {
            return CommandSupport.run(lease.launcher, spec, false, s -> {
                List<LeaseInfo> active = leases(s).active();
                if (json) {
                    ArrayNode array = Json.mapper().createArrayNode();
                    active.forEach(l -> array.add(json(l)));
                    s.out().println(Json.mapper().writeValueAsString(array));
                } else if (active.isEmpty()) {
                    s.out().println("no leases in force");
                } else {
                    s.out().println(String.format("%8s  %-20s  %8s  %s", "ID", "HOLDER", "TOKEN", "EXPIRES AT"));
                    for (LeaseInfo l : active) {
                        s.out().println(String.format("%8d  %-20s  %8d  %s", l.recordId(), l.holder(), l.token(),
                                l.expiresAt()));
                    }
                }
                return ExitCodes.OK;
            });
        }
    }

    /** {@code lockstep lease break ID}. */
    @Command(name = "break", description = "Break the lease of a customer, whoever holds it (recorded as broken).")
    static final class Break implements Callable<Integer> {
        @ParentCommand
        LeaseCommand lease;
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
        long id;

        @Override
        public Integer call() {
            return CommandSupport.run(lease.launcher, spec, false, s -> {
                if (s.customers().find(id).isEmpty()) {
                    return CommandSupport.missing(s, id, "nothing broken");
                }
                Optional<LeaseInfo> broken = leases(s).breakLease(id);
                if (broken.isEmpty()) {
                    s.out().println("customer " + id + " was not locked");
                } else {
                    s.out().println("broke the lease of " + broken.get().holder() + " (token " + broken.get().token()
                            + ") on customer " + id);
                }
                return ExitCodes.OK;
            });
        }
    }
}
