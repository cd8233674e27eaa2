package org.lockstep.ui.list;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.prefs.Preferences;
import java.util.stream.Collectors;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.ObservableMap;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerSort;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.text.Texts;

/**
 * The customer list: a growing window over one query (search, order), read page by page with keyset paging so
 * that the list never loads the whole table. The first page comes when the query changes; the next page when the
 * view asks for it ({@link #loadMore()}, as the operator scrolls near the end). Each page is fetched in the
 * background and appended in one step on the FX thread.
 *
 * <p>Every query has a generation number. A change of search or order, or a refresh, starts a new generation, and
 * a page or count that arrives for an older generation is dropped: typing "ber" quickly never shows the rows for
 * "b" after those for "ber". The older generation's statements are cancelled on the server too ({@link Superseding}),
 * so the database never goes on searching for what the operator has typed past.
 *
 * <p>Counts for the status bar are taken with a time budget of {@value #COUNT_BUDGET_MS} ms, so on a large table
 * they may read "at least 10,000".
 *
 * <p>The list also shows who holds a lock for editing on which customer ({@link #locks()}), read from the lease
 * table whenever a page arrives and whenever the view polls ({@link #refreshLocks()}).
 *
 * <p>The order the operator last chose is kept across restarts when the list is given where to keep it
 * ({@link #rememberSort}).
 */
public final class CustomerListViewModel {

    /** Rows per page. */
    public static final int PAGE_SIZE = CustomerPageRequest.DEFAULT_LIMIT;
    /** How long a count may take before it settles for a lower bound, in milliseconds. */
    public static final long COUNT_BUDGET_MS = 300;
    /** A refresh re-reads as many rows as were loaded, but at most this many, so the operator keeps their place. */
    public static final int REFRESH_MAX_ROWS = 2_000;
    /** The preference key of the order last chosen: a {@link CustomerSort} name. */
    public static final String SORT_KEY = "list.sort";
    /** The preference key of whether that order is reversed. */
    public static final String DESCENDING_KEY = "list.descending";

    private final CustomerRepository repository;
    private final TaskExecutor executor;
    private final ListLocks locks;

    private final ObservableList<Customer> rows = FXCollections.observableArrayList();
    private final ObservableList<Customer> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final Set<Long> loadedIds = new HashSet<>();
    private final StringProperty filterText = new SimpleStringProperty(this, "filterText", "");
    private final ObjectProperty<Customer> selected = new SimpleObjectProperty<>(this, "selected");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper(this, "loading");
    private final ReadOnlyBooleanWrapper endReached = new ReadOnlyBooleanWrapper(this, "endReached");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "Loading customers…");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyObjectWrapper<CustomerSort> sort = new ReadOnlyObjectWrapper<>(this, "sort", CustomerSort.ID);
    private final ReadOnlyBooleanWrapper descending = new ReadOnlyBooleanWrapper(this, "descending");

    private String search = "";
    private Optional<Preferences> sortKept = Optional.empty();
    private final Superseding pages = new Superseding();
    private final Superseding counts = new Superseding();
    /** The last row of the last page as the database returned it: the key the next page starts after. */
    private Customer lastFetched;
    private Optional<CustomerCount> total = Optional.empty();
    private Optional<CustomerCount> matching = Optional.empty();

    /**
     * @param repository where the customers are read
     * @param executor   runs every query off the FX thread
     */
    public CustomerListViewModel(CustomerRepository repository, TaskExecutor executor) {
        this(repository, executor, Optional.empty());
    }

    /**
     * A list that also shows who holds a lock for editing.
     *
     * @param leases where the leases are read
     */
    public CustomerListViewModel(CustomerRepository repository, TaskExecutor executor, LeaseRepository leases) {
        this(repository, executor, Optional.of(leases));
    }

    private CustomerListViewModel(CustomerRepository repository, TaskExecutor executor,
            Optional<LeaseRepository> leases) {
        this.repository = repository;
        this.executor = executor;
        this.locks = new ListLocks(leases, executor);
    }

    /** The unexpired leases by customer id, as last read. Read-only: the view model changes it. */
    public ObservableMap<Long, LeaseInfo> locks() {
        return locks.locks();
    }

    /** The holder's name ("Alice") for a customer someone holds a lock on, else empty; the view adds a padlock. */
    public String lockText(long customerId) {
        return locks.holder(customerId);
    }

    /**
     * Reads the unexpired leases again in the background (skipped while a read is in flight); a failure keeps the
     * last known locks, since the rows' own error says the database is away.
     */
    public void refreshLocks() {
        locks.refresh();
    }

    /**
     * Runs {@code listener} on the FX thread after every read of the leases, changed or not: the view arms its
     * re-read at the next expiry from it ({@link CustomerListView#followLockExpiry()}). {@code null} for none.
     */
    public void setOnLocksRead(Runnable listener) {
        locks.setAfterRead(listener);
    }

    /**
     * Orders the list as the operator last left it, as kept in {@code node}, and keeps every order chosen from now on
     * there. Call before {@link #start}; an order not known (written by another version) leaves the list by id.
     *
     * @param node e.g. the operator's node of {@link org.lockstep.ui.WindowPlaces}; tests give one of their own
     */
    public void rememberSort(Preferences node) {
        sortKept = Optional.of(node);
        try {
            sort.set(CustomerSort.valueOf(node.get(SORT_KEY, CustomerSort.ID.name())));
            descending.set(node.getBoolean(DESCENDING_KEY, false));
        } catch (IllegalArgumentException unknown) {
            sort.set(CustomerSort.ID);
            descending.set(false);
        }
    }

    /** Reads the first page and the counts; call once when the list is shown. */
    public void start() {
        refresh();
    }

    /** The rows loaded so far, in the current order. Read-only: the view model changes it. */
    public ObservableList<Customer> rows() {
        return readOnlyRows;
    }

    /** The text in the filter box; {@link #applyFilter()} runs the search (the view debounces typing). */
    public StringProperty filterTextProperty() {
        return filterText;
    }

    /** The selected customer, kept across refreshes while its row is still loaded; {@code null} for none. */
    public ObjectProperty<Customer> selectedProperty() {
        return selected;
    }

    /** Whether a page is being read. */
    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** Whether the last page of the current query has been read. */
    public ReadOnlyBooleanProperty endReachedProperty() {
        return endReached.getReadOnlyProperty();
    }

    /** The counts for the status bar, e.g. "59 customers" or "3 of 59 match 'ber'". */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** The last failure in the operator's words; empty when the last query succeeded. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The order of the rows. */
    public ReadOnlyObjectProperty<CustomerSort> sortProperty() {
        return sort.getReadOnlyProperty();
    }

    /** Whether the order is reversed. */
    public ReadOnlyBooleanProperty descendingProperty() {
        return descending.getReadOnlyProperty();
    }

    /** The search of the rows shown: the filter text as last applied, stripped and in NFC. */
    public String search() {
        return search;
    }

    /** Searches for the filter text now, unless it is the search already shown. */
    public void applyFilter() {
        // NFC, as every stored text is: both the page and the count must search for the same term.
        String wanted = CustomerPageRequest.searchTerm(filterText.get());
        if (wanted.equals(search)) {
            return;
        }
        search = wanted;
        matching = Optional.empty();
        updateStatus();
        startQuery(PAGE_SIZE);
        recount(false);
    }

    /**
     * Orders the rows by {@code newSort} in the database and reads the first page again; the client never sorts the
     * partial list itself, which would order only the rows loaded so far.
     */
    public void sortBy(CustomerSort newSort, boolean reversed) {
        CustomerSort s = newSort == null ? CustomerSort.ID : newSort;
        if (s == sort.get() && reversed == descending.get()) {
            return;
        }
        sort.set(s);
        descending.set(reversed);
        sortKept.ifPresent(node -> {
            try {
                node.put(SORT_KEY, s.name());
                node.putBoolean(DESCENDING_KEY, reversed);
            } catch (IllegalStateException removed) {
                // the node was removed (by hand, or another Lockstep): the order is not worth an error
            }
        });
        startQuery(PAGE_SIZE);
    }

    /**
     * Reads the rows again (as many as were loaded, up to {@value #REFRESH_MAX_ROWS}) and the counts, keeping the
     * selection when its row is still there.
     */
    public void refresh() {
        int target = Math.max(PAGE_SIZE, Math.min(rows.size(), REFRESH_MAX_ROWS));
        startQuery(target);
        recount(true);
    }

    /** Reads the next page, unless one is being read or the end was reached. The view calls it near the end. */
    public void loadMore() {
        if (loading.get() || endReached.get() || lastFetched == null) {
            return;
        }
        Superseding.Ticket ticket = pages.current();
        CustomerPageRequest request = new CustomerPageRequest(search, sort.get(), descending.get(), lastFetched,
                PAGE_SIZE + 1);
        loading.set(true);
        executor.execute(() -> PageReader.read(repository, request, PAGE_SIZE, ticket.cancel()), result -> {
            if (pages.isCurrent(ticket)) {
                append(result.rows(), result.end());
            }
        }, e -> failed(ticket, e));
    }

    /**
     * Shows a saved record: its row is replaced in place (unless it already shows a later version); a customer not
     * in the list (just created) is put at the top, and the counts are read again. Nothing else is read again.
     */
    public void applySaved(Customer saved) {
        applyChanges(Map.of(saved.id(), Optional.of(saved)));
    }

    /** Removes a deleted customer's row, and recounts. */
    public void applyDeleted(long id) {
        applyChanges(Map.of(id, Optional.empty()));
    }

    /**
     * Shows a batch of changes read back from the database in one step: each id's row as it is now, or empty when
     * it was deleted. Rows are replaced, added at the top or removed as by {@link #applySaved} and
     * {@link #applyDeleted}, and the counts are read again once for the whole batch, when any row came or went. A
     * loaded row whose sort key changed (a company renamed while the list is by name) belongs elsewhere in the
     * order: then the rows are read again ({@link #refresh}), and the selection stays on its customer.
     */
    public void applyChanges(Map<Long, Optional<Customer>> changes) {
        boolean recount = false;
        boolean moved = false;
        for (Map.Entry<Long, Optional<Customer>> change : changes.entrySet()) {
            long id = change.getKey();
            int i = indexOf(id);
            Customer now = change.getValue().orElse(null);
            if (now == null) {
                if (i >= 0 && selected.get() != null && selected.get().id() == id) {
                    selected.set(null); // first, so the table does not move the selection to a neighbouring row
                }
                if (i >= 0) {
                    rows.remove(i);
                    loadedIds.remove(id);
                }
                recount = true;
            } else if (i < 0) {
                rows.add(0, now);
                loadedIds.add(id);
                recount = true;
            } else if (rows.get(i).version() <= now.version()) {
                moved |= !sortKey(rows.get(i)).equals(sortKey(now));
                // Asked before the row is replaced: a table showing the rows drops its selection of a replaced row
                // and says so (null) before this method can put it on the new row.
                boolean wasSelected = selected.get() != null && selected.get().id() == id;
                rows.set(i, now);
                if (wasSelected) {
                    selected.set(now);
                }
            }
        }
        if (moved) {
            refresh(); // counts too
        } else if (recount) {
            recount(true);
        }
    }

    /** What the current order sorts {@code c} by, as far as a change of it moves the row. */
    private Object sortKey(Customer c) {
        return switch (sort.get()) {
            case ID -> c.id();
            case NAME -> CustomerSort.name(c.data()).toLowerCase(java.util.Locale.ROOT);
            case COMPANY -> java.util.Objects.toString(c.data().company(), "").toLowerCase(java.util.Locale.ROOT);
            case CONTACT_NAME -> java.util.Objects.toString(c.data().contactName(), "")
                    .toLowerCase(java.util.Locale.ROOT);
            case EMAIL -> java.util.Objects.toString(c.data().email(), "").toLowerCase(java.util.Locale.ROOT);
            case CITY -> java.util.Objects.toString(c.data().city(), "").toLowerCase(java.util.Locale.ROOT);
            case COUNTRY -> java.util.Objects.toString(c.data().country(), "").toLowerCase(java.util.Locale.ROOT);
            // Every save raises both: in these orders a save always moves the row (to the end, or the start).
            case VERSION -> c.version();
            case UPDATED_AT -> java.util.Objects.toString(c.updatedAt(), "");
        };
    }

    /** Selects the loaded row of a customer, or clears the selection when it is not loaded. */
    public void select(long id) {
        int i = indexOf(id);
        selected.set(i >= 0 ? rows.get(i) : null);
    }

    private void startQuery(int rowsWanted) {
        Superseding.Ticket ticket = pages.supersede();
        CustomerPageRequest first = new CustomerPageRequest(search, sort.get(), descending.get(), null, PAGE_SIZE + 1);
        loading.set(true);
        error.set("");
        executor.execute(() -> PageReader.read(repository, first, rowsWanted, ticket.cancel()), result -> {
            if (pages.isCurrent(ticket)) {
                replace(result.rows(), result.end());
            }
        }, e -> failed(ticket, e));
    }

    private void replace(List<Customer> page, boolean end) {
        Customer wasSelected = selected.get();
        // Clear the selection before the rows change, so the table never selects whichever row lands at the old
        // index; it is put back below when its row is still there.
        selected.set(null);
        loadedIds.clear();
        List<Customer> unique = new ArrayList<>(page.size());
        for (Customer c : page) {
            if (loadedIds.add(c.id())) {
                unique.add(c);
            }
        }
        rows.setAll(unique);
        finishPage(page, end);
        if (wasSelected != null) {
            select(wasSelected.id());
        }
        refreshLocks();
    }

    private void append(List<Customer> page, boolean end) {
        List<Customer> fresh = new ArrayList<>(page.size());
        for (Customer c : page) {
            // A row saved in place may have moved in the order; never show it twice.
            if (loadedIds.add(c.id())) {
                fresh.add(c);
            }
        }
        rows.addAll(fresh);
        finishPage(page, end);
        refreshLocks();
    }

    private void finishPage(List<Customer> page, boolean end) {
        if (!page.isEmpty()) {
            lastFetched = page.get(page.size() - 1);
        } else if (rows.isEmpty()) {
            lastFetched = null;
        }
        endReached.set(end);
        loading.set(false);
        error.set("");
        if (total.isPresent() || end) {
            updateStatus();
        }
    }

    /**
     * Counts in the background: the matching rows, and the whole table too when asked or not yet known. Only the
     * latest count is shown; one overtaken by a later count is dropped.
     */
    private void recount(boolean includeTotal) {
        Superseding.Ticket ticket = counts.supersede();
        CancelSignal cancel = ticket.cancel();
        String s = search;
        Optional<CustomerCount> knownTotal = includeTotal ? Optional.empty() : total;
        executor.execute(() -> {
            CustomerCount all = knownTotal.isPresent() ? knownTotal.get()
                    : repository.count("", COUNT_BUDGET_MS, cancel);
            CustomerCount match = s.isEmpty() ? all : repository.count(s, COUNT_BUDGET_MS, cancel);
            return new ListCounts.Counts(all, match);
        }, read -> {
            if (counts.isCurrent(ticket)) {
                total = Optional.of(read.total());
                matching = Optional.of(read.matching());
                updateStatus();
            }
        }, e -> {
            if (counts.isCurrent(ticket)) {
                status.set(Texts.tr("Could not count the customers: {0}", message(e)));
            }
        });
    }

    /** Says the counts again in the language now chosen (a language switch); nothing is counted again. FX thread. */
    public void speakAgain() {
        if (total.isPresent()) {
            updateStatus();
        }
    }

    private void updateStatus() {
        // The rows are the current search's whole result once its last page is in (while a page is being read they
        // may still be the previous search's).
        OptionalInt listed = !loading.get() && endReached.get() ? OptionalInt.of(rows.size()) : OptionalInt.empty();
        status.set(ListCounts.describe(search, total, matching, listed));
    }

    private void failed(Superseding.Ticket ticket, Throwable e) {
        if (!pages.isCurrent(ticket)) {
            return;
        }
        loading.set(false);
        error.set(Texts.tr("Could not read the customers: {0} (F5 tries again)", message(e)));
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    private int indexOf(long id) {
        if (!loadedIds.contains(id)) {
            return -1;
        }
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).id() == id) {
                return i;
            }
        }
        return -1;
    }
}
