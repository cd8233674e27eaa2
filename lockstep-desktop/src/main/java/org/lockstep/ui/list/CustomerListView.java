package org.lockstep.ui.list;

import static org.lockstep.text.Texts.tr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.PauseTransition;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ObservableValue;
import javafx.collections.MapChangeListener;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.control.skin.TableHeaderRow;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.MouseEvent;
import javafx.util.Callback;
import javafx.util.Duration;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerSort;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.Presence;
import org.lockstep.ui.ColumnWidths;
import org.lockstep.ui.WindowPlaces;
import org.lockstep.ui.presence.PresenceBoard;
import org.lockstep.ui.theme.Icons;
import org.lockstep.ui.theme.Themes;
import org.lockstep.text.Texts;

/**
 * The customer table with its filter box (FXML: {@code CustomerListView.fxml}). It binds the controls to
 * {@link CustomerListViewModel} and forwards what the operator does: typing in the filter (debounced by
 * {@value #FILTER_DELAY_MS} ms), clicking a column header (the database sorts), scrolling near the end (the next
 * page is read), and opening a row (Enter or double-click). The narrow Lock column shows a padlock on customers someone
 * holds a lock for editing on, the holder in its tooltip and accessible text. The other columns share the table's
 * width in proportion to what the first page shows in them, unless the operator has set their widths
 * ({@link #keepColumnWidths}).
 */
public final class CustomerListView {

    /** How long the filter waits after the last key before it searches, in milliseconds. */
    public static final int FILTER_DELAY_MS = 250;
    /** When a row this close to the end of the loaded rows is shown, the next page is read. */
    static final int PREFETCH_ROWS = 50;
    /** How many of the first rows the columns are sized to. */
    static final int SIZING_ROWS = 200;
    /** The narrowest a text column gets when the table is narrow, in pixels. */
    static final double TEXT_MIN_WIDTH = 70;
    /** How much of their sized width the columns may give up before Version and Updated start hidden. */
    static final double NARROW_SHARE = 0.15;

    private final CustomerListViewModel vm;
    private final Parent root;
    private Consumer<Customer> onOpen = c -> {};
    private boolean selectingFromTable;
    // Set once a new view took over the view model (a language switch): this one then changes nothing in it.
    private boolean retired;
    // The first row it showed when retired, for the view that takes over (-1: none).
    private int topRowWhenRetired = -1;
    private Timeline lockPolling;
    private PauseTransition lockExpiry;
    private boolean columnsSized;
    private boolean columnsResizedByOperator;
    private WindowPlaces columnPlaces;
    private String columnsKey;

    // The injected controls, one per line as the FXML lists their ids (kept so by the formatter tags).
    // @formatter:off
    @FXML private Label filterLabel;
    @FXML private TextField filterField;
    @FXML private TableView<Customer> table;
    @FXML private Label placeholder;
    @FXML private TableColumn<Customer, String> lockColumn;
    @FXML private TableColumn<Customer, String> nameColumn;
    @FXML private TableColumn<Customer, Long> idColumn;
    @FXML private TableColumn<Customer, String> companyColumn;
    @FXML private TableColumn<Customer, String> contactColumn;
    @FXML private TableColumn<Customer, String> emailColumn;
    @FXML private TableColumn<Customer, String> cityColumn;
    @FXML private TableColumn<Customer, String> countryColumn;
    @FXML private TableColumn<Customer, Long> versionColumn;
    @FXML private TableColumn<Customer, String> updatedColumn;
    // @formatter:on

    /** Builds the list from its FXML and binds it to {@code vm}. */
    public CustomerListView(CustomerListViewModel vm) {
        this.vm = vm;
        Themes.ensureInstalled(); // the stylesheet names the palette's colours
        FXMLLoader loader = new FXMLLoader(CustomerListView.class.getResource("CustomerListView.fxml"), Texts.bundle());
        loader.setController(this);
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("CustomerListView.fxml is missing or broken", e);
        }
    }

    @FXML
    private void initialize() {
        filterField.setId(ListIds.CUSTOMER_FILTER);
        table.setId(ListIds.CUSTOMER_TABLE);
        ListCells.fixed(lockColumn);
        filterLabel.setLabelFor(filterField);
        bindFilter();
        bindColumns();
        bindTable();
        bindSelection();
    }

    /** The list's root node. */
    public Parent root() {
        return root;
    }

    /** Called with the row the operator opens (Enter or double-click). */
    public void setOnOpen(Consumer<Customer> listener) {
        onOpen = listener == null ? c -> {} : listener;
    }

    /**
     * Reads the locks again every {@code every} until {@link #stopLockPolling()}: for a list without live updates
     * (with them, {@link #followLockExpiry()}).
     */
    public void startLockPolling(Duration every) {
        stopLockPolling();
        lockPolling = new Timeline(new KeyFrame(every, e -> vm.refreshLocks()));
        lockPolling.setCycleCount(Animation.INDEFINITE);
        lockPolling.play();
    }

    /**
     * With live updates, the lock icons follow the change feed: every lease taken, renewed, given back or broken is
     * announced and read at once ({@link LiveListUpdater}), and a reconnected feed reads the page and its locks again.
     * Only a lease that lapses — its holder gone without giving it back — is announced by nobody: the locks are read
     * again just after the earliest one shown would lapse, and not at all while none is shown (issue 30: an idle
     * client's poll every 2 s kept a second pooled connection open and, for a hundred operators, read the lease table
     * fifty times a second for what the feed already carried). The local clock only chooses when to read; the
     * database decides what has lapsed, and a clock ahead of the server's reads again at most once a second until it
     * has.
     */
    public void followLockExpiry() {
        stopLockPolling();
        vm.setOnLocksRead(this::armLockExpiry);
        armLockExpiry();
    }

    /** One re-read of the locks just after the earliest shown lapses; none while no lock is shown. FX thread. */
    private void armLockExpiry() {
        if (lockExpiry != null) {
            lockExpiry.stop();
            lockExpiry = null;
        }
        if (retired) {
            return;
        }
        vm.locks().values().stream().map(l -> l.expiresAt()).min(java.util.Comparator.naturalOrder())
                .ifPresent(earliest -> {
                    long ms = java.time.Duration.between(java.time.Instant.now(), earliest).toMillis()
                            + LAPSE_MARGIN_MS;
                    lockExpiry = new PauseTransition(Duration.millis(Math.max(LAPSE_MARGIN_MS, ms)));
                    lockExpiry.setOnFinished(e -> vm.refreshLocks());
                    lockExpiry.play();
                });
    }

    /** How long after a lease's expiry its lapse is read, and the shortest wait between such reads, ms. */
    static final long LAPSE_MARGIN_MS = 1_000;

    /** Stops reading the locks, on a poll or at their expiry. */
    public void stopLockPolling() {
        if (lockPolling != null) {
            lockPolling.stop();
            lockPolling = null;
        }
        vm.setOnLocksRead(null);
        if (lockExpiry != null) {
            lockExpiry.stop();
            lockExpiry = null;
        }
    }

    /**
     * Hands the view model over to a new view (a language switch): this view stops reading the locks, lets go of
     * the filter text and the rows, and changes the view model's selection, order and filter no more. FX thread.
     */
    public void retire() {
        stopLockPolling();
        topRowWhenRetired = firstShownRow();
        retired = true;
        filterField.textProperty().unbindBidirectional(vm.filterTextProperty());
        table.setSortPolicy(t -> true);
        table.setItems(javafx.collections.FXCollections.observableArrayList());
    }

    /**
     * Takes over what the operator saw in {@code retired}, the view this one replaces (a language switch): which
     * columns show, in what order and how wide, the selected row, and where the list was scrolled to. The rows are
     * the view model's and do not change, so nothing else would size the columns or show the selection again: the
     * new table showed every column at its FXML width, the dates cut to "05/12/202…", and no row selected. FX thread.
     */
    public void takeOver(CustomerListView retired) {
        Map<String, TableColumn<Customer, ?>> byId = new java.util.HashMap<>();
        table.getColumns().forEach(c -> byId.put(c.getId(), c));
        List<TableColumn<Customer, ?>> order = new java.util.ArrayList<>();
        for (TableColumn<Customer, ?> was : retired.table.getColumns()) {
            TableColumn<Customer, ?> now = byId.remove(was.getId());
            if (now == null) {
                continue;
            }
            order.add(now);
            now.setVisible(was.isVisible());
            now.setMinWidth(was.getMinWidth());
            now.setPrefWidth(was.getWidth() > 0 ? was.getWidth() : was.getPrefWidth());
        }
        order.addAll(byId.values()); // none: both views have the same columns
        table.getColumns().setAll(order);
        columnsSized = retired.columnsSized;
        columnsResizedByOperator = retired.columnsResizedByOperator;
        Customer selected = vm.selectedProperty().get();
        int row = selected == null ? -1 : table.getItems().indexOf(selected);
        if (row >= 0) {
            table.getSelectionModel().clearAndSelect(row);
        }
        // Where the retired list was, not where a selection out of view would scroll to: nothing moves.
        if (retired.topRowWhenRetired >= 0) {
            table.scrollTo(retired.topRowWhenRetired);
        } else if (row >= 0) {
            table.scrollTo(Math.max(0, row - 3));
        }
    }

    /** The index of the first row shown, or -1 when the table shows none yet. */
    private int firstShownRow() {
        return table.lookup(".virtual-flow") instanceof VirtualFlow<?> flow && flow.getFirstVisibleCell() != null
                ? flow.getFirstVisibleCell().getIndex() : -1;
    }

    /** Moves the keyboard focus to the filter box and selects its text. */
    public void focusFilter() {
        filterField.requestFocus();
        filterField.selectAll();
    }

    private void bindFilter() {
        filterField.textProperty().bindBidirectional(vm.filterTextProperty());
        PauseTransition debounce = new PauseTransition(Duration.millis(FILTER_DELAY_MS));
        debounce.setOnFinished(e -> {
            if (!retired) {
                vm.applyFilter();
            }
        });
        filterField.textProperty().addListener((obs, was, now) -> debounce.playFromStart());
        filterField.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                debounce.stop();
                vm.applyFilter();
                e.consume();
            } else if (e.getCode() == KeyCode.ESCAPE && !filterField.getText().isEmpty()) {
                filterField.clear();
                e.consume();
            } else if (e.getCode() == KeyCode.DOWN) {
                table.requestFocus();
                if (table.getSelectionModel().isEmpty() && !table.getItems().isEmpty()) {
                    table.getSelectionModel().selectFirst();
                }
                e.consume();
            }
        });
    }

    private void bindColumns() {
        lockColumn.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(vm.lockText(c.getValue().id())));
        lockColumn.setSortable(false);
        lockColumn.setCellFactory(column -> new ListCells.LockCell());
        lockColumn.setGraphic(ListCells.header(Icons.padlock(), tr("Lock: who holds a lock for editing")));
        lockColumn.setText(tr("Locked by")); // named in the column menu; the header shows the icon only (CSS)
        // The cells read the locks when they are drawn: a change of the locks draws the visible rows again.
        vm.locks().addListener((MapChangeListener<Long, LeaseInfo>) change -> table.refresh());
        nameColumn.setId(ListIds.NAME_COLUMN);
        nameColumn.setCellValueFactory(text(CustomerSort::name));
        idColumn.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().id()));
        companyColumn.setCellValueFactory(text(CustomerData::company));
        contactColumn.setCellValueFactory(text(CustomerData::contactName));
        emailColumn.setCellValueFactory(text(CustomerData::email));
        cityColumn.setCellValueFactory(text(CustomerData::city));
        countryColumn.setCellValueFactory(text(CustomerData::country));
        versionColumn.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().version()));
        updatedColumn.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(formatUpdated(c.getValue().updatedAt())));
        Map<TableColumn<Customer, ?>, CustomerSort> sorts = Map.of(nameColumn, CustomerSort.NAME,
                idColumn, CustomerSort.ID, companyColumn, CustomerSort.COMPANY,
                contactColumn, CustomerSort.CONTACT_NAME, emailColumn, CustomerSort.EMAIL,
                cityColumn, CustomerSort.CITY, countryColumn, CustomerSort.COUNTRY,
                versionColumn, CustomerSort.VERSION, updatedColumn, CustomerSort.UPDATED_AT);
        // The order kept from the last run (or any the view model chose) shows as the header's arrow, before the
        // policy below is installed, and after the rows are given to the table: installing the policy sorts at once,
        // and giving a table new items clears its sort order (TableView, RT-35763) and sorts too; either, with no
        // arrow standing, asked the view model for the id order and wrote ID over the order kept (issue 27: the sort
        // was never remembered). The policy then finds it is the order already asked for.
        // Until then, no sort at all: TableView's own policy sorts the items in memory, which the view model's rows
        // refuse, and a refused sort takes the arrow back. With no rows yet (a start) that never showed; with rows (a
        // new view after a language switch) the arrow was taken back and the list went to the id order.
        table.setSortPolicy(t -> true);
        table.setItems(vm.rows());
        boolean byIdAscending = vm.sortProperty().get() == CustomerSort.ID && !vm.descendingProperty().get();
        sorts.forEach((column, sort) -> {
            if (sort == vm.sortProperty().get() && !byIdAscending) {
                column.setSortType(vm.descendingProperty().get() ? TableColumn.SortType.DESCENDING
                        : TableColumn.SortType.ASCENDING);
                table.getSortOrder().setAll(List.of(column));
            }
        });
        // The table holds only the rows loaded so far: sorting them here would be wrong, so a click on a header
        // asks the database for the first page in that order instead.
        table.setSortPolicy(t -> {
            if (t.getSortOrder().isEmpty()) {
                vm.sortBy(CustomerSort.ID, false);
            } else {
                TableColumn<Customer, ?> first = t.getSortOrder().get(0);
                vm.sortBy(sorts.get(first), first.getSortType() == TableColumn.SortType.DESCENDING);
            }
            return true;
        });
    }

    private void bindTable() {
        // The rows were given to the table with the order kept (bindColumns).
        // Fixed-height rows let the virtualized table lay out only the visible rows, however many are loaded.
        table.setFixedCellSize(24);
        table.setTableMenuButtonVisible(true);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        ColumnWidths.keepHeadersWhole(table);
        // A drag in the header row is the operator's resize (or reorder); the table resizing itself is not.
        table.addEventFilter(MouseEvent.MOUSE_DRAGGED, e -> {
            for (Node n = e.getTarget() instanceof Node t ? t : null; n != null && n != table; n = n.getParent()) {
                if (n instanceof TableHeaderRow) {
                    columnsResizedByOperator = true;
                    return;
                }
            }
        });
        table.setAccessibleText(tr("Customers"));
        vm.rows().addListener((javafx.collections.ListChangeListener<Customer>) c -> sizeColumnsOnce());
        table.setRowFactory(t -> new PrefetchingRow());
        table.setOnKeyPressed(e -> {
            Customer c = table.getSelectionModel().getSelectedItem();
            if (e.getCode() == KeyCode.ENTER && c != null) {
                onOpen.accept(c);
                e.consume();
            }
        });
        placeholder.textProperty().bind(Bindings.createStringBinding(() -> {
            if (!vm.errorProperty().get().isEmpty()) {
                return vm.errorProperty().get();
            }
            if (vm.loadingProperty().get()) {
                return tr("Loading customers…");
            }
            return vm.search().isEmpty() ? tr("No customers yet") : tr("No customer matches ''{0}''", vm.search());
        }, vm.errorProperty(), vm.loadingProperty()));
        placeholder.setWrapText(true);
    }

    /**
     * Keeps the table's selection and the view model's in step. A change the view model makes while the table
     * is announcing its own change (e.g. putting a selection back) is applied once that announcement is over.
     */
    private void bindSelection() {
        table.getSelectionModel().selectedItemProperty().addListener((obs, was, now) -> {
            if (retired) {
                return;
            }
            selectingFromTable = true;
            try {
                vm.selectedProperty().set(now);
            } finally {
                selectingFromTable = false;
            }
        });
        vm.selectedProperty().addListener((obs, was, now) -> {
            if (retired) {
                return;
            }
            if (selectingFromTable) {
                Platform.runLater(() -> showSelection(vm.selectedProperty().get()));
            } else {
                showSelection(now);
            }
        });
    }

    private void showSelection(Customer c) {
        if (Objects.equals(c, table.getSelectionModel().getSelectedItem())) {
            return;
        }
        if (c == null) {
            table.getSelectionModel().clearSelection();
            return;
        }
        int i = table.getItems().indexOf(c);
        if (i >= 0) {
            table.getSelectionModel().clearAndSelect(i);
            // Scrolled to only when out of view: a save that re-read the rows must not make the list jump.
            if (!isInView(i)) {
                table.scrollTo(Math.max(0, i - 3));
            }
        } else {
            table.getSelectionModel().clearSelection();
        }
    }

    /**
     * Whether row {@code index} is wholly on screen, as the table last laid out its rows (so during a re-read, where
     * the rows were before it). A table not laid out yet shows nothing: every row is out of view.
     */
    boolean isInView(int index) {
        if (!(table.lookup(".virtual-flow") instanceof VirtualFlow<?> flow)) {
            return false;
        }
        IndexedCell<?> first = flow.getFirstVisibleCell();
        IndexedCell<?> last = flow.getLastVisibleCell();
        if (first == null || last == null) {
            return false;
        }
        // The first and last cells may be cut by the edges: only the rows between them are wholly shown, unless a
        // cut cell is the row itself and most of it shows.
        int from = first.getIndex() + (first.getLayoutY() < 0 ? 1 : 0);
        int to = last.getIndex() - (last.getLayoutY() + last.getHeight() > flow.getHeight() ? 1 : 0);
        return index >= from && index <= to;
    }

    /** A row that asks for the next page when it comes near the end, and opens its customer on double-click. */
    private final class PrefetchingRow extends TableRow<Customer> {
        PrefetchingRow() {
            setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && !isEmpty()) {
                    onOpen.accept(getItem());
                }
            });
        }

        @Override
        protected void updateItem(Customer item, boolean empty) {
            super.updateItem(item, empty);
            if (!empty && getIndex() >= table.getItems().size() - PREFETCH_ROWS) {
                vm.loadMore();
            }
        }
    }

    /**
     * Keeps the widths the operator gives the columns (by dragging a header's edge) in {@code places} under
     * {@code key}; a column with a kept width is not sized to its content.
     */
    public void keepColumnWidths(WindowPlaces places, String key) {
        places.rememberColumns(table, key);
        columnPlaces = places;
        columnsKey = key;
    }

    /** Saves the column widths where {@link #keepColumnWidths} said, if the operator resized a column since. */
    public void saveColumnWidths() {
        if (columnPlaces != null && columnsResizedByOperator) {
            columnPlaces.saveColumns(table, columnsKey);
        }
    }

    /** Sizes the text columns to the first rows read, once; a column whose width the operator kept keeps it. */
    private void sizeColumnsOnce() {
        if (columnsSized || vm.rows().isEmpty()) {
            return;
        }
        columnsSized = true;
        List<Customer> first = List.copyOf(vm.rows().subList(0, Math.min(vm.rows().size(), SIZING_ROWS)));
        for (TableColumn<Customer, ?> column : table.getColumns()) {
            if (!column.isResizable()) {
                continue;
            }
            double fits = ColumnWidths.fitting(column, first.stream()
                    .map(c -> java.util.Objects.toString(column.getCellObservableValue(c).getValue(), "")), 40, 260);
            // Numbers and dates are never cut (a cut "2026-1…" says nothing); text gives way down to a few letters.
            column.setMinWidth(column.getStyleClass().contains("numeric") || column == updatedColumn ? fits
                    : Math.min(fits, TEXT_MIN_WIDTH));
            if (!WindowPlaces.isKept(column)) {
                column.setPrefWidth(fits);
            }
        }
        hideBookkeepingWhenNarrow();
    }

    /**
     * On a narrow list (a 1366-px screen gives it about 720 px) the operator's columns come first: when the sized
     * columns would have to give up more than {@value #NARROW_SHARE} of their width, Version and Updated start hidden
     * (the table's column menu shows them again) rather than Contact and Country being cut to a few letters, and so
     * does Company, which Name shows wherever there is one. A width the operator kept means they chose their columns:
     * then nothing is hidden.
     */
    private void hideBookkeepingWhenNarrow() {
        double width = table.getWidth();
        if (width <= 0 || table.getColumns().stream().anyMatch(WindowPlaces::isKept)) {
            return;
        }
        double wanted =
                table.getColumns().stream().filter(TableColumn::isVisible).mapToDouble(TableColumn::getPrefWidth)
                        .sum();
        if (width < wanted * (1 - NARROW_SHARE)) {
            versionColumn.setVisible(false);
            updatedColumn.setVisible(false);
            // Name shows the company already wherever there is one.
            companyColumn.setVisible(false);
        }
    }

    private static Callback<TableColumn.CellDataFeatures<Customer, String>, ObservableValue<String>> text(
            Function<CustomerData, String> value) {
        return c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue().data()));
    }

    private static String formatUpdated(Instant at) {
        return at == null ? "" : Texts.language().numericDateTime(false).withZone(ZoneId.systemDefault()).format(at);
    }

    /**
     * Adds the Here column, an icon column: a badge with the initials of the other operator who has the customer open
     * ("AL"), or how many have it open ("3"), filled while one is editing, with their names in the tooltip and the
     * accessible text; drawn again whenever presence changes.
     */
    public void showPresence(PresenceBoard board) {
        TableColumn<Customer, List<Presence>> here = new TableColumn<>();
        here.setId(ListIds.PRESENCE_COLUMN);
        here.setGraphic(ListCells.header(Icons.presence(), tr("Here: who else has the customer open")));
        here.setText(tr("Here"));
        ListCells.fixed(here);
        here.setSortable(false);
        here.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(board.others(c.getValue().id())));
        here.setCellFactory(column -> new ListCells.PresenceCell());
        table.getColumns().add(table.getColumns().indexOf(lockColumn) + 1, here);
        board.othersProperty().addListener(o -> table.refresh());
    }
}
