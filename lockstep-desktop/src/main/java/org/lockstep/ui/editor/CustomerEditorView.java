package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import org.lockstep.domain.ConcurrencyMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.RadioButton;
import javafx.scene.control.Tab;
import javafx.scene.control.ToggleGroup;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.lockstep.domain.CustomerData;
import javafx.beans.binding.Bindings;
import org.lockstep.ui.Banner;
import org.lockstep.ui.MessageArea;
import org.lockstep.ui.WindowPlaces;
import org.lockstep.ui.lock.AskSupervisorDialog;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.editing.LockState;
import org.lockstep.ui.merge.DeleteConflictDialog;
import org.lockstep.ui.merge.DeleteConflictViewModel;
import org.lockstep.ui.merge.MergeDialog;
import org.lockstep.ui.merge.MergeViewModel;
import org.lockstep.ui.theme.Themes;
import org.lockstep.text.Texts;

/**
 * The customer editor's node, built from {@code CustomerEditorView.fxml} and styled by {@code CustomerEditorView.css}.
 * It binds controls to the {@link CustomerEditorViewModel} and forwards actions; the view model decides. Ctrl+S
 * (Cmd+S on macOS) saves from anywhere inside the editor. A save that meets a newer version opens the
 * {@link MergeDialog}, a delete that does the {@link DeleteConflictDialog}, both owned by the editor's window. The
 * lock row switches between optimistic editing and lock for editing; the lock bar says who holds the record and
 * offers Break lock…, Notify me when free, Lock again and Save without lock when they apply — Ask a supervisor… in place
 * of Break lock… for an operator who may not break it ({@link AskSupervisorDialog}), and Release there when the
 * operator holds the lock in another window. Where the editor's lock
 * {@linkplain EditLockViewModel#lastWriteWinsAllowed() allows it}, the row also offers "Last write wins (unsafe)"; while
 * that is chosen the editor's root carries the style class {@code unsafe} (painted red) and a warning says that Save
 * overwrites with no version check.
 * A customer often edited at the same time shows the hot-record advice, with Use Lock for editing, while the
 * editor is optimistic.
 *
 * <p>One place for messages (issue 27): the notice, the lock bar, the live update and the hot-record advice share one
 * {@link MessageArea} below the form, which shows one at a time, the most urgent first ({@link EditorMessage}), with
 * "1 more" stepping to the next; news told once ("Saved version 7", "Message sent to Alice") is a toast over the
 * form's bottom edge that fades after {@link #NEWS_SHOWN} and takes no room from the fields.
 */
@AllowedToUseEditorViewModel("the view binds its controls to the view model and its parts")
public final class CustomerEditorView {

    private static final KeyCombination SAVE = new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN);

    private final CustomerEditorViewModel viewModel;
    private final Parent root;
    private EditorForm form;
    private Stage dialog;
    // Set once a new view took over the view model (a language switch): this one then opens no dialog any more.
    private boolean retired;
    private WindowPlaces places = WindowPlaces.none();
    private Banner noticeBanner;
    /** How long news (a transient notice) stays before it fades. */
    static final javafx.util.Duration NEWS_SHOWN = javafx.util.Duration.seconds(4);
    /** How long the toast takes to fade out once its time is up. */
    static final javafx.util.Duration NEWS_FADING = javafx.util.Duration.millis(400);
    private final javafx.animation.PauseTransition newsShown = new javafx.animation.PauseTransition(NEWS_SHOWN);
    private final javafx.animation.FadeTransition newsFading = new javafx.animation.FadeTransition(NEWS_FADING);
    private Banner lockBanner;
    private List<Banner> banners = List.of();
    // The notice in the message area is an error or information, each with its own place in the priority.
    private EditorMessage noticeKind = EditorMessage.INFO_NOTICE;
    private MessageArea<EditorMessage> messages;

    // The same node as root(), injected before initialize() runs (the loader returns root only afterwards).
    // The injected controls, one per line as the FXML lists their ids (kept so by the formatter tags).
    // @formatter:off
    @FXML private Parent editorRoot;
    @FXML private Label nameLabel;
    @FXML private ProgressIndicator busyIndicator;
    @FXML private Label versionLine;
    @FXML private Label alsoHere;
    @FXML private HBox hotRecordBar;
    @FXML private Label hotRecordAdvice;
    @FXML private Label hotRecordDetail;
    @FXML private Label messageStatus;
    @FXML private Button messageHolderButton;
    @FXML private RadioButton optimisticMode;
    @FXML private RadioButton lockMode;
    @FXML private RadioButton unsafeMode;
    @FXML private Label unsafeWarning;
    @FXML private Button lockButton;
    @FXML private HBox lockBar;
    @FXML private FlowPane lockActions;
    @FXML private Label lockMessage;
    @FXML private CheckBox notifyWhenFree;
    @FXML private Button breakLockButton;
    /** In place of Break lock for an operator who may not: who can. */
    @FXML private Label supervisorOnly;
    @FXML private Button askSupervisorButton;
    @FXML private Label askedSupervisors;
    @FXML private Button releaseThereButton;
    @FXML private Button lockAgainButton;
    @FXML private Button saveWithoutLockButton;
    @FXML private HBox noticeBar;
    @FXML private Label noticeText;
    @FXML private Label noticeDetail;
    @FXML private Button reloadButton;
    @FXML private Label toast;
    @FXML private HBox liveBar;
    @FXML private Label liveText;
    @FXML private GridPane fields;
    @FXML private Tab historyTab;
    @FXML private Tab timelineTab;
    @FXML private Label saveBlockedReason;
    @FXML private Button deleteButton;
    @FXML private Button revertButton;
    @FXML private Button saveButton;
    @FXML private Label saveProgress;
    // @formatter:on

    /** Builds the editor's node for a view model; the caller loads a record or starts a new one. */
    public CustomerEditorView(CustomerEditorViewModel viewModel) {
        this.viewModel = viewModel;
        FXMLLoader loader =
                new FXMLLoader(CustomerEditorView.class.getResource("CustomerEditorView.fxml"), Texts.bundle());
        loader.setController(this);
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load CustomerEditorView.fxml", e);
        }
        Themes.ensureInstalled();
        root.getStylesheets().add(CustomerEditorView.class.getResource("CustomerEditorView.css").toExternalForm());
        // A handler, not a filter: Escape closes a banner only when the focused control has no use for it.
        root.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                banners.stream().filter(Banner::isShowing).findFirst().ifPresent(b -> {
                    b.dismiss();
                    e.consume();
                });
            }
        });
        // A filter, not a handler: it sees Ctrl+S before the focused text control does, wherever the caret is.
        root.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (SAVE.match(e)) {
                e.consume();
                viewModel.saves().save();
            }
        });
    }

    /**
     * Gives {@code tab} its content when it is first chosen. A tab pane styles and skins every tab's content with the
     * window, chosen or not: the History tab's two tables and the timeline were made at every start and at every
     * editor window's opening, for tabs an operator opens now and then (issue 30, docs/benchmarks.md, "phase 5").
     */
    private static void contentWhenFirstChosen(Tab tab, java.util.function.Supplier<javafx.scene.Node> content) {
        if (tab.isSelected()) {
            tab.setContent(content.get());
            return;
        }
        tab.selectedProperty().addListener(new javafx.beans.value.ChangeListener<>() {
            @Override
            public void changed(javafx.beans.value.ObservableValue<? extends Boolean> obs, Boolean was, Boolean now) {
                if (now) {
                    tab.selectedProperty().removeListener(this);
                    tab.setContent(content.get());
                }
            }
        });
    }

    /** The editor's node, to put in a window or a pane. */
    public Parent root() {
        return root;
    }

    /** The merge dialog opens where the operator last left it, as {@code places} keeps it. */
    public void usePlaces(WindowPlaces remembered) {
        places = remembered;
    }

    /** The view model behind this view. */
    public CustomerEditorViewModel viewModel() {
        return viewModel;
    }

    /**
     * Whether this view's merge or delete-conflict dialog is open: its window is then not rebuilt in another
     * language, since the dialog belongs to this view ({@link org.lockstep.ui.LanguageSwitch}).
     */
    public boolean hasOpenDialog() {
        return dialog != null && dialog.isShowing();
    }

    /** Puts the keyboard in the first field, the company: where an operator sent to a record starts typing. */
    public void focusFirstField() {
        form.focusFirst();
    }

    /**
     * Hands the view model over to a new view (a language switch): the text being typed in a field goes into the
     * edit buffer first, and this view opens no dialog and shows no notice any more. FX thread.
     */
    public void retire() {
        form.commit();
        retired = true;
    }

    @FXML
    private void initialize() {
        form = new EditorForm(fields, viewModel.buffer(), viewModel.status().editableProperty());
        viewModel.saves().setControlCommitter(() -> form.commit());
        nameLabel.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(
                () -> viewModel.stateProperty().get() == EditorState.EMPTY
                        ? tr("No customer selected") : viewModel.status().displayNameProperty().get(),
                viewModel.stateProperty(), viewModel.status().displayNameProperty()));
        versionLine.textProperty().bind(viewModel.status().versionLineProperty());
        alsoHere.textProperty().bind(viewModel.helpers().alsoHereProperty());
        alsoHere.visibleProperty().bind(viewModel.helpers().alsoHereProperty().isNotEmpty());
        alsoHere.managedProperty().bind(alsoHere.visibleProperty());
        Banner hot =
                new Banner(hotRecordBar, hotRecordAdvice, tr("the hot-record advice"), EditorIds.HOT_RECORD_DISMISS);
        Banner liveBanner = new Banner(liveBar, liveText, tr("the live update"), EditorIds.LIVE_DISMISS);
        noticeBanner = new Banner(noticeBar, noticeText, tr("the notice"), EditorIds.NOTICE_DISMISS);
        lockBanner = new Banner(lockBar, lockMessage, tr("the lock message"), EditorIds.LOCK_DISMISS);
        banners = List.of(hot, noticeBanner, liveBanner, lockBanner);
        // One place for messages (issue 27): one banner shows at a time, by EditorMessage's priority.
        messages = new MessageArea<>(EditorMessage.BY_PRIORITY, EditorIds.MORE_MESSAGES);
        messages.add(noticeBanner, () -> noticeKind);
        messages.add(lockBanner, EditorMessage.LOCK);
        messages.add(liveBanner, EditorMessage.LIVE);
        messages.add(hot, EditorMessage.HOT_RECORD);
        newsShown.setOnFinished(e -> newsFading.playFromStart());
        newsFading.setNode(toast);
        newsFading.setFromValue(1);
        newsFading.setToValue(0);
        newsFading.setOnFinished(e -> show(toast, false));
        hotRecordAdvice.textProperty().bind(viewModel.helpers().hotRecordAdviceProperty());
        hotRecordDetail.textProperty().bind(viewModel.helpers().hotRecordDetailProperty());
        hot.wantedProperty().bind(viewModel.helpers().hotRecordAdviceProperty().isNotEmpty());
        busyIndicator.visibleProperty().bind(viewModel.busyProperty());
        saveBlockedReason.textProperty().bind(viewModel.status().saveBlockedReasonProperty());
        saveBlockedReason.visibleProperty().bind(saveBlockedReason.textProperty().isNotEmpty());
        saveBlockedReason.managedProperty().bind(saveBlockedReason.visibleProperty());
        saveProgress.textProperty().bind(viewModel.status().saveProgressProperty());
        saveProgress.visibleProperty().bind(saveProgress.textProperty().isNotEmpty());
        saveButton.disableProperty().bind(viewModel.status().canSaveProperty().not());
        revertButton.disableProperty().bind(viewModel.status().canRevertProperty().not());
        deleteButton.disableProperty().bind(viewModel.status().canDeleteProperty().not());
        viewModel.noticeProperty().addListener((obs, was, now) -> showNotice(now));
        // News was told when it came ("Saved version 7"): a view built later (a language switch) does not tell it
        // again, in the words of the language left behind.
        EditorNotice present = viewModel.noticeProperty().get();
        showNotice(present != null && present.isTransient() ? null : present);
        viewModel.conflicts().mergeProperty().addListener((obs, was, now) -> showMerge(now));
        viewModel.conflicts().deleteConflictProperty().addListener((obs, was, now) -> showDeleteConflict(now));
        bindLock(viewModel.lock());
        contentWhenFirstChosen(historyTab, () -> new CustomerHistoryView(viewModel.history(), this::restore,
                viewModel.status().editableProperty()).root());
        historyTab.selectedProperty().addListener((obs, was, now) -> viewModel.history().setActive(now));
        contentWhenFirstChosen(timelineTab,
                () -> new org.lockstep.ui.timeline.TimelinePane(viewModel.timeline()).root());
        timelineTab.selectedProperty().addListener((obs, was, now) -> viewModel.timeline().setActive(now));
        liveText.textProperty().bind(viewModel.live().bannerProperty());
        liveBanner.wantedProperty().bind(viewModel.live().bannerProperty().isNotNull());
        // An invalidation listener: a second save changing the same fields highlights them again.
        LiveFollower live = viewModel.live();
        live.recentlyChangedProperty().addListener(o -> form.highlight(live.recentlyChangedProperty().get()));
    }

    private void bindLock(EditLockViewModel lock) {
        ToggleGroup modes = new ToggleGroup();
        optimisticMode.setToggleGroup(modes);
        lockMode.setToggleGroup(modes);
        unsafeMode.setToggleGroup(modes);
        show(unsafeMode, lock.lastWriteWinsAllowed());
        showMode(lock.modeProperty().get());
        lock.modeProperty().addListener((obs, was, now) -> {
            showMode(now);
            showLock();
        });
        modes.selectedToggleProperty().addListener((obs, was, now) -> {
            if (retired) {
                return; // a retired view's radio buttons no longer speak for the operator
            }
            if (now == null) {
                showMode(lock.modeProperty().get()); // a radio button cannot be unselected by a click
            } else {
                lock.modeProperty().set(now == lockMode ? ConcurrencyMode.LOCK_FOR_EDITING
                        : now == unsafeMode ? ConcurrencyMode.LAST_WRITE_WINS
                        : ConcurrencyMode.OPTIMISTIC);
            }
        });
        lockMessage.textProperty().bind(lock.messageProperty());
        notifyWhenFree.selectedProperty().bindBidirectional(lock.notifyWhenFreeProperty());
        lock.messageProperty().addListener((obs, was, now) -> showLock());
        lock.stateProperty().addListener((obs, was, now) -> showLock());
        viewModel.stateProperty().addListener((obs, was, now) -> showLock());
        viewModel.helpers().messaging().ifPresent(m -> {
            // "Message sent to Alice" is news told once, a toast; why a message did not go stays in the lock bar.
            messageStatus.textProperty().bind(Bindings.createStringBinding(
                    () -> m.sentProperty().get() ? "" : m.statusProperty().get(), m.statusProperty(),
                    m.sentProperty()));
            m.statusProperty().addListener((obs, was, now) -> {
                if (m.sentProperty().get() && !now.isEmpty()) {
                    showNews(now);
                }
                showLock();
            });
        });
        viewModel.helpers().askSupervisor().ifPresent(a -> {
            askedSupervisors.textProperty().bind(a.askedProperty());
            a.askedProperty().addListener((obs, was, now) -> showLock());
            a.canAskProperty().addListener((obs, was, now) -> showLock());
        });
        showLock();
    }

    private void showMode(ConcurrencyMode mode) {
        if (retired) {
            return;
        }
        (mode == ConcurrencyMode.LOCK_FOR_EDITING ? lockMode
                : mode == ConcurrencyMode.LAST_WRITE_WINS ? unsafeMode : optimisticMode).setSelected(true);
        boolean unsafe = mode == ConcurrencyMode.LAST_WRITE_WINS;
        editorRoot.getStyleClass().remove("unsafe");
        if (unsafe) {
            editorRoot.getStyleClass().add("unsafe");
        }
        show(unsafeWarning, unsafe);
    }

    private void showLock() {
        if (retired) {
            return;
        }
        LockState state = viewModel.lock().stateProperty().get();
        boolean other = state instanceof LockState.HeldByOther;
        boolean elsewhere = state instanceof LockState.HeldInAnotherWindow;
        boolean lost = state instanceof LockState.Lost;
        boolean held = state instanceof LockState.Held;
        boolean stored = viewModel.stateProperty().get() == EditorState.EDITING;
        String message = viewModel.lock().messageProperty().get();
        lockBanner.setWanted(stored && message != null && !message.isEmpty());
        lockBar.getStyleClass().removeAll("held", "other", "lost");
        lockBar.getStyleClass().add(other || elsewhere ? "other" : lost ? "lost" : "held");
        show(notifyWhenFree, other);
        show(breakLockButton, other && viewModel.lock().mayBreakLocks());
        boolean mayAsk = viewModel.helpers().askSupervisor().map(a -> a.canAskProperty().get()).orElse(false);
        show(askSupervisorButton, other && mayAsk);
        show(askedSupervisors, other && !askedSupervisors.getText().isEmpty());
        // Without messages (no way to ask) the bar still says who can break the lock.
        show(supervisorOnly, other && !viewModel.lock().mayBreakLocks() && !mayAsk);
        show(releaseThereButton, elsewhere);
        show(messageHolderButton, other && viewModel.helpers().messaging().isPresent());
        show(messageStatus, other && !messageStatus.getText().isEmpty());
        show(lockAgainButton, lost);
        show(saveWithoutLockButton, lost);
        // No action applies while this editor holds the lease: no empty row under the message then.
        show(lockActions, other || elsewhere || lost);
        // Lost leaves Lock pressable: it locks again, even after the lock bar (with its Lock again) was closed.
        lockButton.setDisable(!stored || held || other || elsewhere || state instanceof LockState.Acquiring
                || viewModel.lock().savesLastWriteWins());
    }

    private static void show(javafx.scene.Node node, boolean shown) {
        node.setVisible(shown);
        node.setManaged(shown);
    }

    private void showNotice(EditorNotice notice) {
        if (retired) {
            return;
        }
        boolean news = notice != null && notice.isTransient();
        if (news) {
            // News ("Saved version 7") is told once: a toast over the form that fades, leaving the fields the room
            // and hiding no message waiting in the message area.
            showNews(notice.text());
        } else {
            hideNews(); // whatever the notice says now supersedes the news
        }
        boolean inBar = notice != null && !news;
        noticeBar.getStyleClass().removeAll("error", "info");
        if (inBar) {
            boolean error = notice.kind() == EditorNotice.Kind.ERROR;
            noticeBar.getStyleClass().add(error ? "error" : "info");
            noticeKind = error ? EditorMessage.ERROR_NOTICE : EditorMessage.INFO_NOTICE;
            noticeText.setText(notice.text());
            noticeDetail.setText(notice.detail());
            show(noticeDetail, !notice.detail().isEmpty());
            show(reloadButton, notice.offerReload());
        }
        noticeBanner.setWanted(inBar);
        messages.refresh(); // an error after information (or the reverse) takes its own place
    }

    /** Shows {@code text} as the toast for {@link #NEWS_SHOWN}, then fades it out. */
    private void showNews(String text) {
        newsFading.stop();
        toast.setText(text);
        toast.setOpacity(1);
        show(toast, true);
        newsShown.playFromStart();
    }

    private void hideNews() {
        newsShown.stop();
        newsFading.stop();
        show(toast, false);
    }

    private void showMerge(MergeViewModel merge) {
        if (retired) {
            return;
        }
        closeDialog();
        if (merge != null) {
            // Without a window (e.g. the editor sits in a pane not shown) the dialog has no owner but still opens:
            // the editor takes no edits until the merge is decided, so it must never stay hidden.
            dialog = MergeDialog.open(owner(), merge, places).stage();
        }
    }

    private void showDeleteConflict(DeleteConflictViewModel conflict) {
        if (retired) {
            return;
        }
        closeDialog();
        if (conflict != null) {
            dialog = DeleteConflictDialog.open(owner(), conflict).stage();
        }
    }

    private void closeDialog() {
        if (dialog != null) {
            Stage open = dialog;
            dialog = null;
            // The dialogs close themselves once decided; this only closes one the editor dropped (a new load).
            if (open.isShowing()) {
                open.close();
            }
        }
    }

    private Window owner() {
        return root.getScene() == null ? null : root.getScene().getWindow();
    }

    @FXML
    private void lock() {
        viewModel.lock().lock();
    }

    @FXML
    private void useLockForEditing() {
        viewModel.helpers().useLockForEditing();
    }

    @FXML
    private void saveWithoutLock() {
        viewModel.saves().saveWithoutLock();
    }

    @FXML
    private void messageHolder() {
        LockState state = viewModel.lock().stateProperty().get();
        if (!(state instanceof LockState.HeldByOther other) || viewModel.helpers().messaging().isEmpty()) {
            return;
        }
        EditorDialogs.askMessage(owner(), other.holder().holder())
                .ifPresent(text -> viewModel.helpers().messaging().get().send(text));
    }

    @FXML
    private void askSupervisor() {
        viewModel.helpers().askSupervisor().filter(a -> a.canAskProperty().get()).ifPresent(a -> AskSupervisorDialog
                .open(owner(), a.draft(viewModel.status().displayNameProperty().get())));
    }

    @FXML
    private void releaseThere() {
        viewModel.lock().releaseInAnotherWindow();
    }

    @FXML
    private void breakLock() {
        if (confirm(viewModel.breakLockQuestion(), tr("Break lock"), tr("Cancel"))) {
            viewModel.lock().breakLock();
        }
    }

    /** Restore saves at once: the operator confirms first, naming the version; Cancel does nothing. */
    private void restore(CustomerHistoryViewModel.Version version) {
        if (confirm(EditorTexts.restoreQuestion(version.version(), viewModel.buffer().dirtyProperty().get()),
                tr("Restore"), tr("Cancel"))) {
            viewModel.saves().restore(version.version(), version.values()); // whether a save started shows in the editor itself
        }
    }

    @FXML
    private void review() {
        viewModel.live().review();
    }

    @FXML
    private void save() {
        viewModel.saves().save();
    }

    @FXML
    private void revert() {
        viewModel.revert();
    }

    @FXML
    private void reload() {
        if (!viewModel.buffer().dirtyProperty().get()
                || confirm(tr("Reload and drop your unsaved changes?"), tr("Reload"), tr("Keep editing"))) {
            viewModel.reload();
        }
    }

    @FXML
    private void delete() {
        if (confirm(viewModel.saves().deleteQuestion(), tr("Delete"), tr("Cancel"))) {
            viewModel.saves().requestDelete();
        }
    }

    private boolean confirm(String question, String yes, String no) {
        return EditorDialogs.confirm(owner(), question, yes, no);
    }
}
