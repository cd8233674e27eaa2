package org.lockstep.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.lockstep.server.Database;
import org.lockstep.config.LockstepConfig;
import org.lockstep.transfer.ImportMapping;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldParser;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.NotPermittedException;
import org.lockstep.domain.Operator;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.LeaseSecrets;
import org.lockstep.store.Operators;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What the customer commands share: opening and closing the database, JSON output, {@code FIELD=VALUE} arguments,
 * and turning every outcome into the documented exit code and a message on stderr (never a stack trace):
 * 0 done; 1 any other failure; 2 invalid input or usage, naming the field or line; 3 version conflict, a record
 * that no longer exists or an id that no customer has, with the current record, if any, as JSON on stdout.
 */
final class CommandSupport {

    /** The application name the CLI shows in {@code pg_stat_activity}. */
    static final String APPLICATION = "Lockstep CLI";

    private static final Logger LOG = LoggerFactory.getLogger(CommandSupport.class);

    /** What the JVM puts where the command line held bytes that are not UTF-8. */
    private static final char REPLACEMENT_CHARACTER = '\uFFFD';

    private CommandSupport() {
    }

    /**
     * A command's access to the database and the terminal.
     *
     * @param customers the repository, writing as the operator the database knows ({@link #operator})
     * @param operator  who this command is to the database: on a team server its login, whatever {@code --user} said
     * @param secrets   the command line's key for lease secrets, kept in the data directory ({@link CliSession#key})
     * @param db        the open database, for bulk work
     * @param config    the resolved settings
     * @param out       stdout
     * @param err       stderr
     */
    record Session(JdbiCustomerRepository customers, Operator operator, LeaseSecrets secrets, Database db,
            LockstepConfig config, PrintWriter out, PrintWriter err) {

        /** The lease store of this command line's session, proving its leases with the same key as its saves. */
        JdbiLeaseRepository leases() {
            return new JdbiLeaseRepository(db.jdbi(), operator.name(), customers.sessionId(), secrets);
        }
    }

    /** A command body; it returns an exit code or throws, and {@link #run} maps what it throws. */
    @FunctionalInterface
    interface Work {
        int run(Session session) throws Exception;
    }

    /** Invalid input or usage that the user must fix: exit 2 with the message. */
    static final class UsageException extends IllegalArgumentException {
        UsageException(String message) {
            super(message);
        }
    }

    /**
     * Opens the database as configured (loading the sample customers into an empty one), runs {@code work}, closes
     * the pool and returns the exit code. The embedded server keeps running, so that the next command starts fast.
     */
    static int run(Launcher launcher, CommandSpec spec, Work work) {
        return run(launcher, spec, true, work);
    }

    /**
     * As {@link #run(Launcher, CommandSpec, Work)}, choosing whether an empty database gets the sample customers.
     */
    static int run(Launcher launcher, CommandSpec spec, boolean loadSample, Work work) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            LockstepConfig config = launcher.config();
            try (Database db = Database.open(config, APPLICATION, loadSample)) {
                Operator operator = Operators.whoami(db.jdbi(), config.user());
                if (!operator.name().equals(config.user())) {
                    // A login of one's own is who one is: --user cannot claim another's name (issue 26).
                    LOG.info("Signed in as {}: changes are recorded as {}, not as {}", operator.name(),
                            operator.name(), config.user());
                }
                String name = operator.name();
                LeaseSecrets secrets = LeaseSecrets.of(CliSession.key(config.dataDir(), name));
                // A command may be ended the moment it prints (Ctrl-C, a script's kill): it tells others first.
                return work.run(new Session(new JdbiCustomerRepository(db.jdbi(), name,
                        CliSession.id(config.dataDir(), name), secrets).announcingBeforeReturning(), operator,
                        secrets, db, config, out, err));
            }
        } catch (Exception e) {
            return failure(err, e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * Prints why {@code e} ended the command and returns the exit code for it. The log file gets the details: the
     * rules a record broke, or the whole failure with its stack trace (their messages carry no row values: see
     * {@code Database}). Arguments the user typed wrong are not logged, since their messages quote the values.
     */
    static int failure(PrintWriter err, Exception e) {
        if (e instanceof InvalidCustomerException invalid) {
            LOG.info("Refused: {}", invalid.errors());
            invalid.errors().forEach(error -> err.println("lockstep: " + error));
            return ExitCodes.INVALID;
        }
        if (e instanceof FieldParser.InvalidValueException invalid) {
            err.println("lockstep: " + invalid.error());
            return ExitCodes.INVALID;
        }
        if (e instanceof IllegalArgumentException) {
            err.println("lockstep: " + e.getMessage());
            return ExitCodes.INVALID;
        }
        if (e instanceof NoSuchFileException missing) {
            err.println("lockstep: " + missing.getFile() + ": no such file or directory");
            return ExitCodes.INVALID;
        }
        if (e instanceof UncheckedIOException io) {
            return failure(err, io.getCause());
        }
        if (e instanceof FileSystemException refused) {
            // Its message is the path alone ("/x/t.svg"): the reason is in its type or its reason field.
            LOG.info("A file operation was refused", e);
            err.println("lockstep: " + refused.getFile() + ": " + reason(refused));
            return ExitCodes.FAILURE;
        }
        LOG.info("Command failed", e);
        if (e instanceof NotPermittedException refused) {
            err.println("lockstep: " + refused.getMessage());
            return ExitCodes.NOT_PERMITTED;
        }
        if (e instanceof RecordBusyException busy) {
            // Held by another transaction (not a Lockstep lease): "locked by someone else" all the same.
            err.println("lockstep: " + busy.getMessage());
            return ExitCodes.LOCKED;
        }
        String message = e instanceof StoreUnavailableException || e.getMessage() != null ? e.getMessage()
                : e.getClass().getSimpleName();
        err.println("lockstep: " + (e instanceof IOException ? "cannot read or write a file: " : "") + message);
        return ExitCodes.FAILURE;
    }

    /** Why the file system refused, in a few lowercase words ("permission denied", "not a directory"). */
    static String reason(FileSystemException refused) {
        if (refused instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (refused instanceof java.nio.file.FileAlreadyExistsException) {
            return "already exists";
        }
        if (refused instanceof java.nio.file.NotDirectoryException) {
            return "not a directory";
        }
        String why = refused.getReason();
        return why == null || why.isBlank() ? "cannot read or write it"
                : why.substring(0, 1).toLowerCase(java.util.Locale.ROOT) + why.substring(1);
    }

    /**
     * The record is locked by another session, or the caller's lease token is stale: prints who holds it on stderr
     * and returns {@link ExitCodes#LOCKED}.
     *
     * @param holder the current holder, or empty when nobody holds it any more (a stale token)
     */
    static int locked(Session s, long id, Optional<LeaseInfo> holder, String nothingDone) {
        if (holder.isEmpty()) {
            s.err().println(
                    "lockstep: customer " + id + ": the lease token given is no longer its lease; " + nothingDone);
        } else {
            LeaseInfo h = holder.get();
            s.err().println("lockstep: customer " + id + " is locked by " + h.holder() + " until " + h.expiresAt()
                    + "; " + nothingDone);
        }
        return ExitCodes.LOCKED;
    }

    /**
     * A conflict: the record changed or is gone. Prints the current record as JSON on stdout (nothing when it is
     * gone) and the reason on stderr, and returns {@link ExitCodes#CONFLICT}.
     */
    static int conflict(Session s, long id, long baseVersion, Optional<Customer> theirs, String nothingDone) {
        if (theirs.isEmpty()) {
            return missing(s, id, nothingDone);
        } else {
            Customer c = theirs.get();
            s.err().println("lockstep: conflict: customer " + id + " is at version " + c.version() + " (saved by "
                    + (c.updatedBy() == null ? "unknown" : c.updatedBy()) + " at " + c.updatedAt() + "), not "
                    + baseVersion + "; " + nothingDone + ". Its current values are on stdout.");
            printJson(s.out(), c);
        }
        return ExitCodes.CONFLICT;
    }

    /**
     * A version above the customer's current one: it never existed (versions only grow, one at a time), so the
     * command was typed wrong — no one else's write is in the way. Prints why on stderr and returns {@link
     * ExitCodes#INVALID}; the database counts no conflict for it (issue 27).
     */
    static int neverExisted(Session s, long id, long version, Customer current, String nothingDone) {
        s.err().println("lockstep: customer " + id + " has no version " + version + " (it is at version "
                + current.version() + "; --if-version takes a version it had); " + nothingDone);
        return ExitCodes.INVALID;
    }

    /**
     * A customer that is not there: prints why on stderr and returns {@link ExitCodes#CONFLICT}. The history tells
     * the two cases apart (its DELETE entry): a customer someone deleted "no longer exists" (who deleted it and
     * when, by the database clock), while an id no customer ever had gets "no customer N" — most likely a typing
     * error, and never a conflict with anyone.
     *
     * @param nothingDone what was not done ({@code "nothing saved"}), or empty for a read
     */
    static int missing(Session s, long id, String nothingDone) {
        String then = nothingDone.isEmpty() ? "" : "; " + nothingDone;
        Optional<HistoryEntry> deletion = new JdbiHistoryRepository(s.db().jdbi()).deletion(id);
        if (deletion.isEmpty()) {
            s.err().println("lockstep: no customer " + id + then);
        } else {
            s.err().println("lockstep: " + (nothingDone.isEmpty() ? "" : "conflict: ") + "customer " + id
                    + " no longer exists (deleted by " + deletion.get().changedBy() + " at "
                    + deletion.get().changedAt() + ")" + then);
        }
        return ExitCodes.CONFLICT;
    }

    /**
     * Prints a customer as an indented JSON object whose keys are the column names ({@link CustomerJson}, which alone
     * loads Jackson: a command that prints no JSON starts without it).
     */
    static void printJson(PrintWriter out, Customer c) {
        CustomerJson.print(out, c);
    }

    /** A streaming JSON writer over stdout, for output too large to build in memory. */
    static JsonGenerator jsonGenerator(PrintWriter out) throws IOException {
        return CustomerJson.generator(out);
    }

    /** Writes one customer to a streaming JSON writer. */
    static void writeJson(JsonGenerator generator, Customer c) throws IOException {
        CustomerJson.write(generator, c);
    }

    /**
     * Prints a customer for a person: one {@code column  value} line per column (the JSON object's keys, in its
     * order), continuation lines indented; an absent value is empty.
     */
    static void printPlain(PrintWriter out, Customer c) {
        Map<String, Object> columns = new java.util.LinkedHashMap<>();
        columns.put("id", c.id());
        for (CustomerField f : CustomerField.values()) {
            columns.put(f.column(), c.data().get(f));
        }
        columns.put("version", c.version());
        columns.put("updated_at", c.updatedAt().toString());
        columns.put("updated_by", c.updatedBy());
        columns.forEach((column, v) -> {
            String value = v == null ? "" : v.toString();
            out.printf("%-14s%s%n", column, value.replace("\n", "\n" + " ".repeat(14)));
        });
    }

    /**
     * Parses {@code FIELD=VALUE} arguments (split at the first {@code =}); an empty VALUE clears the field. Text is
     * taken in NFC; an amount is read by {@code parser} (neutral {@code 1,500.50} unless {@code --locale} was given).
     *
     * @throws UsageException when an argument was not valid UTF-8, has no {@code =}, names an unknown field or names
     *         one twice
     * @throws FieldParser.InvalidValueException when a value does not fit its field (e.g. a credit limit that is
     *         not a number)
     */
    static Map<CustomerField, Object> assignments(CommandSpec spec, List<String> arguments, FieldParser parser) {
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        for (String argument : arguments) {
            requireUtf8(spec, argument);
            int eq = argument.indexOf('=');
            if (eq < 0) {
                throw new UsageException("expected FIELD=VALUE, got \"" + argument + "\"");
            }
            String name = argument.substring(0, eq);
            CustomerField field = CustomerField.byColumn(name).orElseThrow(() -> new UsageException(
                    ImportMapping.MAINTAINED.contains(name.strip())
                            ? name.strip() + " is kept by Lockstep and cannot be set"
                            : "unknown field \"" + name + "\"; fields are " + fieldList()));
            if (values.containsKey(field)) {
                throw new UsageException(field.column() + " is given twice");
            }
            values.put(field, parser.parse(field, argument.substring(eq + 1)));
        }
        return values;
    }

    /**
     * Refuses an argument that was not valid UTF-8. The JVM decodes the command line before {@code main} and turns
     * every byte sequence that is not UTF-8 into U+FFFD REPLACEMENT CHARACTER; stored, it would silently replace what
     * the operator meant (a Latin-1 "é" from a misconfigured terminal, say). Nobody types U+FFFD on purpose, so its
     * presence is the sign. The message counts arguments from 1 after the program name, as the shell does ($1, $2…).
     *
     * @param argument the argument as picocli gave it (a whole {@code FIELD=VALUE}, or an option's value)
     * @throws UsageException naming the argument's position (and its field or option, when readable)
     */
    static void requireUtf8(CommandSpec spec, String argument) {
        if (argument == null || argument.indexOf(REPLACEMENT_CHARACTER) < 0) {
            return;
        }
        List<String> original = spec.commandLine().getParseResult() == null ? List.of()
                : spec.commandLine().getParseResult().originalArgs();
        int position = -1;
        for (int i = 0; i < original.size() && position < 0; i++) {
            if (original.get(i).contains(argument)) {
                position = i + 1;
            }
        }
        int eq = argument.indexOf('=');
        String name = eq > 0 && argument.substring(0, eq).indexOf(REPLACEMENT_CHARACTER) < 0
                ? argument.substring(0, eq) : null;
        if (name == null && position > 1 && original.get(position - 2).startsWith("--")) {
            name = original.get(position - 2);
        }
        throw new UsageException((position > 0 ? "argument " + position : "an argument")
                + (name == null ? "" : " (" + name + ")")
                + " is not valid UTF-8; check the terminal's character encoding (e.g. LANG=C.UTF-8)");
    }

    /** Checks {@code --if-version}: versions start at 1, so 0 or less is a typing error, not a conflict. */
    static void requireVersion(long ifVersion) {
        if (ifVersion < 1) {
            throw new UsageException("--if-version must be a version (1 or more), not " + ifVersion);
        }
    }

    /** {@code data} with the given fields replaced. */
    static CustomerData apply(CustomerData data, Map<CustomerField, Object> values) {
        CustomerData result = data;
        for (Map.Entry<CustomerField, Object> e : values.entrySet()) {
            result = result.with(e.getKey(), e.getValue());
        }
        return result;
    }

    /** The settable fields' column names, comma-separated. */
    static String fieldList() {
        return CustomerField.all().stream().map(CustomerField::column).collect(Collectors.joining(", "));
    }
}
