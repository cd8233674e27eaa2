package org.lockstep.ui.main;

import static org.lockstep.text.Texts.tr;

import org.lockstep.domain.ConcurrencyMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanExpression;
import javafx.beans.binding.StringBinding;
import javafx.event.ActionEvent;
import javafx.event.EventHandler;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import javafx.util.Duration;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.LanguageChoice;
import org.lockstep.ui.LanguageSwitch;
import org.lockstep.ui.StartupReport;
import org.lockstep.ui.Windows;
import org.lockstep.lab.LabRunner;
import org.lockstep.ui.editor.CustomerEditorView;
import org.lockstep.ui.lab.LabWindow;
import org.lockstep.ui.list.LiveListUpdater;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.list.CustomerListView;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.supervisor.SupervisorInboxView;
import org.lockstep.ui.supervisor.SupervisorInboxViewModel;
import org.lockstep.ui.theme.Icons;
import org.lockstep.ui.theme.ThemeMenu;
import org.lockstep.ui.theme.Themes;

/**
 * The main window: menu and toolbar, the customer list on the left, the editor pane on the right, and a status
 * bar with the counts and a busy indicator. Every action has a key: Ctrl+N new customer, Ctrl+O or Enter open in a
 * new window, Ctrl+Delete delete, F5 refresh, Ctrl+F filter, Ctrl+Q close. The Editing menu sets whether new
 * editors start in lock-for-editing mode (a preference). The list's Lock column follows the change feed (without
 * one, it is read again every {@link #LOCK_POLL}). A supervisor's window lists, under the toolbar, the requests of operators who may not break a
 * lock ({@link SupervisorInboxView}), each with Open customer.
 */
public final class MainWindow {

    /**
     * The smallest first size, in pixels, where the screen has room: the list's columns and the editor's two columns
     * of fields side by side. A first window takes {@link #SCREEN_SHARE} of a larger screen.
     */
    public static final double WIDTH = 1200;
    /** The smallest first height in pixels. */
    public static final double HEIGHT = 740;
    /** The share of the screen's visual bounds a first main window takes, centred. */
    public static final double SCREEN_SHARE = 0.8;
    /** The list's share of the width until the operator moves the divider. */
    public static final double LIST_SHARE = 0.6;
    /** The editor pane's narrowest, in pixels: its fields in one column, each wide enough for a name or an email. */
    public static final double EDITOR_MIN_WIDTH = 420;
    /**
     * The list pane's narrowest, in pixels: the lock and presence icons and a name. Narrower than the 360 px it was,
     * so that the trainer demo's operators keep the list beside the editor on one screen with a window manager's
     * borders: a 1600-px screen gives each window 798 px inside them, and at 800 px it stacked the list above the
     * editor, whose History tab then showed no row at all (seen by hand under openbox; Xvfb alone has no borders).
     */
    static final double LIST_MIN_WIDTH = 220;
    /** The narrowest window, in pixels, that shows the list beside the editor; a narrower one stacks them. */
    static final double SIDE_BY_SIDE = LIST_MIN_WIDTH + EDITOR_MIN_WIDTH + 20;

    /** How often the list reads the locks again when it has no live updates. */
    public static final Duration LOCK_POLL = Duration.seconds(2);

    private final MainWindowViewModel vm;
    private final EditorServices services;
    private final LiveUpdates live;
    private final LabRunner lab;
    private final BorderPane root = new BorderPane();
    // The content below is built again over the same view models when the language changes (LanguageSwitch).
    private CustomerListView listView;
    private EditorPane editorPane;
    private VBox top;
    private SplitPane split;
    private MenuBar menus;
    // What callers added to the content, put back into each new one.
    private final List<Node> banners = new ArrayList<>();
    private final List<ToolsItem> toolsItems = new ArrayList<>();
    private LanguageChoice languageChoice;
    // A supervisor's requests to break locks; null for an operator who is none, or without messages.
    private final SupervisorInboxViewModel inbox;
    private Stage stage;

    /** Builds the window's content over {@code vm}; the Editing menu sets {@code services}' default mode. */
    public MainWindow(MainWindowViewModel vm, EditorServices services) {
        this(vm, services, null, null);
    }

    /**
     * Builds the window's content, following {@code live} when given and offering the lab when given.
     *
     * @param live the change feed's FX-side hub, or {@code null}
     * @param lab  the contention lab's runner, or {@code null}
     */
    public MainWindow(MainWindowViewModel vm, EditorServices services, LiveUpdates live, LabRunner lab) {
        this.vm = vm;
        this.services = services;
        this.live = live;
        this.lab = lab;
        if (live != null) {
            new LiveListUpdater(vm.list(), services.customers(), services.executor(), live);
        }
        // Before the view is built, so its header shows the order kept from the last run.
        services.places().preferences().ifPresent(vm.list()::rememberSort);
        // Only a supervisor's window lists requests; the database would return none to anyone else anyway.
        inbox = services.mayBreakLocks() ? services.messages().map(m -> new SupervisorInboxViewModel(m,
                services.executor(), live, java.time.Clock.systemDefaultZone(),
                id -> CustomerEditorWindow.open(services, id))).orElse(null) : null;
        // A window too narrow for the list beside the editor (the trainer demo's operators on one small screen,
        // 640 px each) stacks them: side by side, the editor's Save ran off the window's edge.
        root.widthProperty().addListener((o, was, now) -> split.setOrientation(orientation(now.doubleValue())));
        build();
        Themes.ensureInstalled();
        root.getStylesheets().add(MainWindow.class.getResource("MainWindow.css").toExternalForm());
        root.getStyleClass().add("main-window");
    }

    /** The list beside the editor, or above it in a window narrower than {@link #SIDE_BY_SIDE}. */
    private static Orientation orientation(double width) {
        return width > 0 && width < SIDE_BY_SIDE ? Orientation.VERTICAL : Orientation.HORIZONTAL;
    }

    /** Builds the window's content from the current language's texts over the view models. FX thread. */
    private void build() {
        listView = new CustomerListView(vm.list());
        services.presence().ifPresent(listView::showPresence);
        listView.setOnOpen(c -> vm.openInNewWindow());
        editorPane = new EditorPane(vm.editor(), () -> {
            CustomerEditorView editorView = new CustomerEditorView(vm.editor());
            editorView.usePlaces(services.places());
            return editorView;
        });
        if (listView.root() instanceof Region list) {
            list.setMinWidth(LIST_MIN_WIDTH);
        }
        if (editorPane.root() instanceof Region editor) {
            // Below this the fields were cut ("François Trembla", "ftremblay@gmai"): the divider stops here instead.
            editor.setMinWidth(EDITOR_MIN_WIDTH);
        }
        split = new SplitPane(listView.root(), editorPane.root());
        split.setId("main-split");
        split.setOrientation(orientation(root.getWidth()));
        services.places().rememberDivider(split, "main", LIST_SHARE);
        listView.keepColumnWidths(services.places(), "list");
        menus = menuBar();
        top = new VBox(menus, toolBar());
        top.getChildren().addAll(0, banners);
        if (inbox != null) {
            top.getChildren().add(new SupervisorInboxView(inbox).root());
        }
        root.setTop(top);
        root.setCenter(split);
        root.setBottom(statusBar());
    }

    /**
     * Builds the content again in the language now chosen, over the same view models: the list's selection, order
     * and filter, the editor pane's unsaved edits and the divider stay. Not while the pane's editor has its merge or
     * delete-conflict dialog open ({@link LanguageSwitch}). FX thread.
     */
    private void rebuild() {
        double[] dividers = split.getDividerPositions();
        listView.saveColumnWidths();
        listView.retire();
        editorPane.retire();
        CustomerListView retiredList = listView;
        build();
        split.setDividerPositions(dividers);
        // Laid out now, so that the new list scrolls to the old one's row in a viewport of its real height: scrolled
        // before, the position was kept as a share of a zero-height list and came out ten rows higher.
        root.applyCss();
        root.layout();
        listView.takeOver(retiredList);
        // What the view models said from their state, said again in the new language: the counts, the feed's
        // status, the editor's version line and lock (before, they kept the old words until they next changed).
        vm.list().speakAgain();
        vm.editor().speakAgain();
        if (live != null) {
            live.speakAgain();
        }
        if (stage != null) {
            stage.setTitle(vm.title());
            followLocks();
        }
    }

    /**
     * Opens the main window on a stage, with editor windows opened through {@link CustomerEditorWindow}, and reads
     * the first page of customers.
     *
     * @param services the process's services, shared by the pane's editor and every editor window
     */
    public static MainWindow show(Stage stage, EditorServices services) {
        return show(stage, services, null, null);
    }

    /**
     * As {@link #show(Stage, EditorServices)}, with live updates — other operators' saves reach the list as they
     * happen and the status bar says whether the feed is Live — and the Tools menu's contention lab.
     *
     * @param live the change feed's FX-side hub, or {@code null} for none
     * @param lab  runs the contention lab, or {@code null} for no Tools menu
     */
    public static MainWindow show(Stage stage, EditorServices services, LiveUpdates live, LabRunner lab) {
        // The pane's editor and every editor window follow other operators' saves through the same hub.
        EditorServices following = live == null ? services : services.toBuilder().live(live).build();
        MainWindowViewModel vm = new MainWindowViewModel(following);
        MainWindow window = new MainWindow(vm, following, live, lab);
        // Editor windows write through the same services, so their writes reach the list as the pane's do.
        vm.setWindowOpener(id -> CustomerEditorWindow.open(following, id));
        window.showOn(stage);
        return window;
    }

    /** Puts the window on {@code stage}, shows it and starts reading the list. */
    public void showOn(Stage stage) {
        this.stage = stage;
        vm.setPendingEditsPrompt(this::askAboutPendingEdits);
        stage.setTitle(vm.title());
        stage.setScene(new Scene(root));
        LanguageSwitch.follow(stage, () -> !editorPane.hasOpenDialog(), this::rebuild);
        CustomerEditorWindow.catchUpWhenDialogsClose(stage, vm.editor());
        stage.setMinWidth(EDITOR_MIN_WIDTH + 20);
        stage.setMinHeight(420);
        stage.setOnCloseRequest(e -> {
            if (!vm.canClose()) {
                e.consume();
            }
        });
        stage.setOnHidden(e -> {
            listView.stopLockPolling();
            if (inbox != null) {
                inbox.close();
            }
        });
        stage.addEventHandler(WindowEvent.WINDOW_HIDING, e -> listView.saveColumnWidths());
        // lockstep-bench startup's moments (issue 30); nothing unless -Dlockstep.startupReport=true.
        StartupReport.markShown(stage, "main-shown");
        StartupReport.markLaidOut(stage.getScene(),
                () -> !vm.list().loadingProperty().get() && !vm.list().rows().isEmpty(), "first-page");
        // The first frame on screen is the window's layout, never a blank window; the rows come as they arrive.
        Windows.styleBeforeShowing(stage);
        services.places().show(stage, "main", null, SCREEN_SHARE, WIDTH, HEIGHT);
        vm.start();
        if (inbox != null) {
            inbox.start();
        }
        followLocks();
        listView.focusFilter();
    }

    /**
     * The list's lock icons: with live updates they follow the feed (and a lease's lapse), without it they are read
     * every {@link #LOCK_POLL}.
     */
    private void followLocks() {
        if (live != null) {
            listView.followLockExpiry();
        } else {
            listView.startLockPolling(LOCK_POLL);
        }
    }

    /** Puts {@code banner} above the menu bar (the trainer demo's operator name and colour). */
    public void addBanner(Node banner) {
        banners.add(0, banner);
        top.getChildren().add(0, banner);
    }

    /**
     * Gives the list this share of the width and the editor pane the rest (the trainer demo's narrower windows
     * need the editor wider than the default 58 % list).
     *
     * @param share between 0 and 1
     */
    public void setListShare(double share) {
        split.setDividerPositions(share);
    }

    /**
     * Adds an item to the Tools menu, creating the menu when the window has none yet.
     *
     * @param item    the item, its text already set
     * @param english the item's text in English ({@code tr}'s key), given it again when the language changes
     */
    public void addToolsItem(MenuItem item, String english) {
        toolsItems.add(new ToolsItem(item, english));
        toolsMenu(menus).getItems().add(item);
    }

    /**
     * Adds View → Language, whose choice is kept in {@code choice} and applied at once to every window that can
     * take it ({@link LanguageSwitch}). FX thread.
     */
    public void offerLanguages(LanguageChoice choice) {
        languageChoice = choice;
        addLanguageMenu(menus);
    }

    private void addLanguageMenu(MenuBar bar) {
        Menu view = bar.getMenus().stream().filter(m -> ThemeMenu.VIEW_MENU_ID.equals(m.getId())).findFirst()
                .orElseThrow();
        view.getItems().add(LanguageMenu.menu(languageChoice));
    }

    private static Menu toolsMenu(MenuBar bar) {
        return bar.getMenus().stream().filter(m -> "tools".equals(m.getId())).findFirst().orElseGet(() -> {
            Menu created = new Menu(tr("_Tools"));
            created.setId("tools");
            bar.getMenus().add(created);
            return created;
        });
    }

    /** An item a caller added to the Tools menu, with the English text it is given again in a new language. */
    private record ToolsItem(MenuItem item, String english) {
    }

    /** The stage the window is on, once shown. */
    public Stage stage() {
        return stage;
    }

    /** A supervisor's requests to break locks; empty for an operator who is none, or without messages. */
    public Optional<SupervisorInboxViewModel> supervisorInbox() {
        return Optional.ofNullable(inbox);
    }

    /** The view model behind the window. */
    public MainWindowViewModel viewModel() {
        return vm;
    }

    /** The window's root node. */
    public Parent root() {
        return root;
    }

    private MenuBar menuBar() {
        Menu customer = new Menu(tr("_Customer"));
        customer.getItems().addAll(
                item(tr("_New customer"), "Shortcut+N", e -> vm.newCustomer(), null),
                item(tr("_Open in new window"), "Shortcut+O", e -> vm.openInNewWindow(), vm.canOpen()),
                item(tr("_Delete customer"), "Shortcut+Delete", e -> vm.delete(), vm.canDelete()),
                new SeparatorMenuItem(),
                item(tr("_Refresh"), "F5", e -> vm.refresh(), null),
                item(tr("_Find…"), "Shortcut+F", e -> listView.focusFilter(), null),
                new SeparatorMenuItem(),
                item(tr("_Close window"), "Shortcut+Q", e -> closeRequested(), null));
        CheckMenuItem lockByDefault = new CheckMenuItem(tr("New editors _lock for editing"));
        lockByDefault.setId("lock-by-default");
        lockByDefault.setSelected(services.defaultMode().get() == ConcurrencyMode.LOCK_FOR_EDITING);
        lockByDefault.selectedProperty().addListener((obs, was, now) -> services.defaultMode().set(
                now ? ConcurrencyMode.LOCK_FOR_EDITING : ConcurrencyMode.OPTIMISTIC));
        Menu editing = new Menu(tr("_Editing"));
        editing.getItems().add(lockByDefault);
        MenuBar bar = new MenuBar(customer, editing, ThemeMenu.viewMenu());
        if (lab != null) {
            Menu tools = new Menu(tr("_Tools"));
            tools.setId("tools");
            tools.getItems().add(item(tr("Contention _lab…"), "Shortcut+L",
                    e -> LabWindow.open(stage, lab, services.executor()), null));
            bar.getMenus().add(tools);
        }
        for (ToolsItem added : toolsItems) {
            if (added.item().getParentMenu() != null) {
                added.item().getParentMenu().getItems().remove(added.item()); // an item is in one menu at a time
            }
            added.item().setText(tr(added.english()));
            toolsMenu(bar).getItems().add(added.item());
        }
        if (languageChoice != null) {
            addLanguageMenu(bar);
        }
        return bar;
    }

    private ToolBar toolBar() {
        return new ToolBar(
                button("new-customer", tr("New customer"), tr("Start a new customer in the editor (Ctrl+N)"),
                        e -> vm.newCustomer(), null),
                button("open-window", tr("Open in new window"), tr("Edit the selected customer in its own window "
                        + "(Enter, double-click or Ctrl+O)"), e -> vm.openInNewWindow(), vm.canOpen()),
                button("delete-customer", tr("Delete"), tr("Delete the customer in the editor (Ctrl+Delete)"),
                        e -> vm.delete(), vm.canDelete()),
                button("refresh", tr("Refresh"), tr("Read the list again (F5)"), e -> vm.refresh(), null));
    }

    private HBox statusBar() {
        Label status = new Label();
        status.setId("status");
        // Why live updates cannot connect (a full disk) says more than the list's counts, and outlasts its error.
        StringBinding listStatus = vm.status();
        status.textProperty().bind(live == null ? listStatus : Bindings.createStringBinding(
                () -> live.problemProperty().get().isEmpty() ? listStatus.get() : live.problemProperty().get(),
                live.problemProperty(), listStatus));
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        ProgressIndicator busy = new ProgressIndicator();
        busy.setId("busy");
        busy.setPrefSize(16, 16);
        busy.visibleProperty().bind(vm.busy());
        Label working = new Label(tr("Working…"));
        working.visibleProperty().bind(vm.busy());
        Label user = new Label(tr("Operator: {0}", vm.user()));
        HBox bar = new HBox(8, status, spacer, busy, working, user);
        if (live != null) {
            Label liveStatus = new Label();
            liveStatus.setId("live-status");
            liveStatus.setGraphic(Icons.live());
            liveStatus.textProperty().bind(live.statusTextProperty());
            liveStatus.setTooltip(new Tooltip(tr("Other operators' saves appear here as they happen while Live")));
            bar.getChildren().add(bar.getChildren().size() - 1, liveStatus);
        }
        bar.getStyleClass().add("status-bar");
        return bar;
    }

    private static MenuItem item(String text, String keys, EventHandler<ActionEvent> action,
            BooleanExpression enabled) {
        MenuItem item = new MenuItem(text);
        item.setAccelerator(KeyCombination.keyCombination(keys));
        item.setOnAction(action);
        if (enabled != null) {
            item.disableProperty().bind(enabled.not());
        }
        return item;
    }

    private static Button button(String id, String text, String tip, EventHandler<ActionEvent> action,
            BooleanExpression enabled) {
        Button b = new Button(text);
        b.setId(id);
        b.setTooltip(new Tooltip(tip));
        b.setOnAction(action);
        b.setFocusTraversable(false);
        if (enabled != null) {
            b.disableProperty().bind(enabled.not());
        }
        return b;
    }

    private void closeRequested() {
        if (vm.canClose()) {
            stage.close();
        }
    }

    private PendingEdits askAboutPendingEdits(String question, boolean offerNewWindow) {
        ButtonType discard = new ButtonType(tr("Discard changes"), ButtonBar.ButtonData.OTHER);
        ButtonType openWindow = new ButtonType(tr("Open in new window"), ButtonBar.ButtonData.OK_DONE);
        ButtonType keep = new ButtonType(tr("Keep editing"), ButtonBar.ButtonData.CANCEL_CLOSE);
        Alert alert = new Alert(Alert.AlertType.CONFIRMATION, question);
        alert.setTitle(tr("Unsaved changes"));
        alert.setHeaderText(tr("Unsaved changes"));
        if (offerNewWindow) {
            alert.getButtonTypes().setAll(openWindow, discard, keep);
        } else {
            alert.getButtonTypes().setAll(discard, keep);
        }
        alert.initOwner(stage);
        Optional<ButtonType> answer = alert.showAndWait();
        if (answer.isEmpty() || answer.get() == keep) {
            return PendingEdits.KEEP_EDITING;
        }
        return answer.get() == discard ? PendingEdits.DISCARD : PendingEdits.OPEN_IN_NEW_WINDOW;
    }
}
