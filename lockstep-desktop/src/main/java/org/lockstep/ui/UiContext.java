package org.lockstep.ui;

import org.lockstep.client.StoreClient;
import org.lockstep.report.ConflictReports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.lab.LabRunner;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.domain.MessageRepository;
import org.lockstep.domain.Operator;
import org.lockstep.domain.PresenceRepository;

/**
 * What the desktop application needs from the composition root, without knowing how the database is reached:
 * the operator's name and a way to connect. Connecting may start the embedded server and take seconds, so the
 * application calls {@link #connect()} off the FX thread while it shows that the database is starting.
 *
 * @param user    the operator's name, shown in the title bar and written with every save
 * @param connect opens the database; throws with a message an operator can act on when it cannot
 * @param allowUnsafe whether editors offer "Last write wins (unsafe)", the lost-update bug kept for teaching
 *                ({@code --allow-unsafe})
 * @param signIn  connects with a typed password when the server wants one; {@code null}: never asked
 * @param dataDir the data directory, under whose {@code drafts/} editors journal their unsaved edits (issue 28);
 *                {@code null}: none are kept
 * @param edit    the customer whose editor window opens beside the main window, its first field focused
 *                ({@code lockstep edit ID}); empty: none
 */
public record UiContext(String user, Callable<Backend> connect, boolean allowUnsafe, SignIn signIn, Path dataDir,
        OptionalLong edit) {

    public UiContext {
        Objects.requireNonNull(edit, "edit");
    }

    /** A context that opens no customer at start. */
    public UiContext(String user, Callable<Backend> connect, boolean allowUnsafe, SignIn signIn, Path dataDir) {
        this(user, connect, allowUnsafe, signIn, dataDir, OptionalLong.empty());
    }

    /** This context, opening {@code customerId}'s editor window at start ({@code lockstep edit ID}). */
    public UiContext editing(long customerId) {
        return new UiContext(user, connect, allowUnsafe, signIn, dataDir, OptionalLong.of(customerId));
    }

    /**
     * This context, its database opened by {@code opener} instead; everything else as it is (a copy made field by
     * field once dropped the customer of {@code lockstep edit ID}).
     */
    public UiContext connectingBy(Callable<Backend> opener) {
        return new UiContext(user, opener, allowUnsafe, signIn, dataDir, edit);
    }

    /** A context that keeps no drafts. */
    public UiContext(String user, Callable<Backend> connect, boolean allowUnsafe, SignIn signIn) {
        this(user, connect, allowUnsafe, signIn, null);
    }

    /** A context without "Last write wins (unsafe)". */
    public UiContext(String user, Callable<Backend> connect) {
        this(user, connect, false);
    }

    /** A context whose server never asks for a password the URL did not give (the embedded one, tests). */
    public UiContext(String user, Callable<Backend> connect, boolean allowUnsafe) {
        this(user, connect, allowUnsafe, null);
    }

    /**
     * Connects with the password the operator typed in the sign-in dialog, when {@link #connect()} failed with a
     * {@link org.lockstep.domain.SignInRefusedException} (a team server's login whose password came from nowhere).
     * The password lives only in this process (issue 26).
     */
    @FunctionalInterface
    public interface SignIn {
        /**
         * @param password what the operator typed
         * @throws org.lockstep.domain.SignInRefusedException when the server refuses it
         * @throws Exception any other failure to open, with a message an operator can act on
         */
        Backend connect(String password) throws Exception;
    }

    /**
     * An open database as the UI sees it. {@code repository} and {@code leases} act as the same client session; each
     * editor derives from them a writer id of its own ({@link EditorServices#forNewEditor()}), so that a lease held
     * in one window keeps every other editor — the same operator's other windows included — from writing.
     *
     * @param repository where customers are kept, acting as the operator
     * @param history    the customers' version history
     * @param leases     the leases (locks for editing), acting as the same session as {@code repository}
     * @param leaseTtl   how long a lease lasts unless renewed ({@code --lease-ttl}, default 60 s)
     * @param lockIdle   how long a locking editor may sit idle before it lets go ({@code --lock-idle}, 15 min)
     * @param changeFeed makes the feed of committed changes (LISTEN/NOTIFY) for a listener; not started
     * @param presence   who has which customer open, acting as the same session as {@code repository}
     * @param messages   messages to and from this session, acting as the same session as {@code repository}
     * @param lab        runs the contention lab on the same database
     * @param shutdown   closes the database (and stops the embedded server when no other client uses it); called
     *                   once, when the last window has closed
     * @param demo       opens the trainer demo's operator clients on the same database, or {@code null} for no demo
     * @param reports    reads the conflict report (Tools → Conflict report), or {@code null} for no report
     */
    public record Backend(CustomerRepository repository, HistoryRepository history, LeaseRepository leases,
            Duration leaseTtl, Duration lockIdle, Function<ChangeFeed.Listener, ChangeFeed> changeFeed,
            PresenceRepository presence, MessageRepository messages, LabRunner lab,
            Runnable shutdown, DemoClients demo, ConflictReports reports, Operator operator) {

        /**
         * The backend of one client of the store: its repositories, feed, lab and report, closed with it.
         *
         * @param demo the trainer demo's clients, or {@code null} for no demo
         */
        public static Backend of(StoreClient store, Duration leaseTtl, Duration lockIdle, DemoClients demo) {
            return new Backend(store.customers(), store.history(), store.leases(), leaseTtl, lockIdle,
                    store::changeFeed, store.presence(), store.messages(), store.lab(), store::close, demo,
                    store.reports(), store.operator());
        }

        /** The same backend writing customers and leases through other repositories of the same session. */
        public Backend withRepositories(CustomerRepository customers, LeaseRepository leaseStore) {
            return new Backend(customers, history, leaseStore, leaseTtl, lockIdle, changeFeed, presence, messages, lab,
                    shutdown, demo, reports, operator);
        }
    }
}
