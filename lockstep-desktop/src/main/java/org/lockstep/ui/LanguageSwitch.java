package org.lockstep.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javafx.scene.Node;
import javafx.scene.control.TabPane;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;

/**
 * Switches the desktop's language while it runs (issue 27), as {@link org.lockstep.ui.theme.Themes} switches the
 * look: every window that {@linkplain #follow follows} it rebuilds its content from the new texts over the same view
 * models, so the list's selection and filter and an editor's unsaved edits stay, and each tab pane shows the tab it
 * showed (an editor's History). A window that cannot be rebuilt now (an editor whose merge dialog is open) keeps its
 * texts, and the dialog its choices, until the dialog closes ({@link #catchUp}); windows and dialogs opened later
 * speak the new language. No database work: the rebuilt views bind to view models that hold what was read. FX
 * thread only.
 */
public final class LanguageSwitch {

    private static final Map<Window, Follower> FOLLOWERS = new LinkedHashMap<>();

    /** A window that follows the switch, and the language its content was last built in. */
    private static final class Follower {
        private final BooleanSupplier canRebuild;
        private final Runnable rebuild;
        private Language speaks = Texts.language();

        private Follower(BooleanSupplier canRebuild, Runnable rebuild) {
            this.canRebuild = canRebuild;
            this.rebuild = rebuild;
        }
    }

    private LanguageSwitch() {
    }

    /**
     * Has {@code window} rebuilt by {@code rebuild} at each switch, while it shows and {@code canRebuild} says so;
     * it stops following once hidden.
     *
     * @param canRebuild whether the window's content may be replaced now
     * @param rebuild    builds the window's content again from {@link Texts}, keeping its view models
     */
    public static void follow(Window window, BooleanSupplier canRebuild, Runnable rebuild) {
        FOLLOWERS.put(window, new Follower(canRebuild, rebuild));
        window.addEventHandler(WindowEvent.WINDOW_HIDDEN, e -> FOLLOWERS.remove(window));
    }

    /**
     * Makes {@code language} the language of every text from now on and rebuilds every following window that may
     * be rebuilt now.
     *
     * @return the windows left in the language they spoke, because they could not be rebuilt now
     */
    public static List<Window> switchTo(Language language) {
        Texts.use(language);
        // As at start (DesktopApp.speak): the default locale speaks the language, the format locale stays the one
        // numbers are typed in.
        Locale format = Locale.getDefault(Locale.Category.FORMAT);
        Locale.setDefault(language.locale());
        Locale.setDefault(Locale.Category.FORMAT, format);
        List<Window> left = new ArrayList<>();
        for (Map.Entry<Window, Follower> e : List.copyOf(FOLLOWERS.entrySet())) {
            if (!rebuildIfBehind(e.getKey(), e.getValue())) {
                left.add(e.getKey());
            }
        }
        return left;
    }

    /**
     * Rebuilds {@code window} in the language now chosen if a switch left it in an older one (its dialog was open
     * then) and it can be rebuilt now: called once the dialog has closed. FX thread.
     */
    public static void catchUp(Window window) {
        Follower follower = FOLLOWERS.get(window);
        if (follower != null) {
            rebuildIfBehind(window, follower);
        }
    }

    /** Whether {@code window} now speaks the language chosen: it did, or it could be rebuilt in it. */
    private static boolean rebuildIfBehind(Window window, Follower follower) {
        Language now = Texts.language();
        if (follower.speaks == now) {
            return true;
        }
        if (!follower.canRebuild.getAsBoolean()) {
            return false;
        }
        Map<String, Integer> tabs = selectedTabs(window);
        follower.rebuild.run();
        selectTabs(window, tabs);
        follower.speaks = now;
        return true;
    }

    /**
     * The selected tab of every tab pane with an id in {@code window}, by the pane's id: the tabs' texts change with
     * the language, their order and the panes' ids do not.
     */
    private static Map<String, Integer> selectedTabs(Window window) {
        Map<String, Integer> selected = new HashMap<>();
        if (window.getScene() != null && window.getScene().getRoot() != null) {
            for (Node n : window.getScene().getRoot().lookupAll(".tab-pane")) {
                if (n instanceof TabPane pane && pane.getId() != null) {
                    selected.put(pane.getId(), pane.getSelectionModel().getSelectedIndex());
                }
            }
        }
        return selected;
    }

    /** Selects again in the rebuilt {@code window} the tabs {@link #selectedTabs} found before. */
    private static void selectTabs(Window window, Map<String, Integer> selected) {
        if (selected.isEmpty() || window.getScene() == null || window.getScene().getRoot() == null) {
            return;
        }
        // The new content has no skins yet, and what a split pane or a tab holds joins the scene graph through its
        // skin only: CSS applied now makes the skins, so that the lookup finds the tab panes inside.
        window.getScene().getRoot().applyCss();
        for (Map.Entry<String, Integer> e : selected.entrySet()) {
            if (window.getScene().getRoot().lookup("#" + e.getKey()) instanceof TabPane pane
                    && e.getValue() >= 0 && e.getValue() < pane.getTabs().size()) {
                pane.getSelectionModel().select(e.getValue());
            }
        }
    }
}
