package org.lockstep.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;

/**
 * Switches the desktop's language while it runs (issue 27), as {@link org.lockstep.ui.theme.Themes} switches the
 * look: every window that {@linkplain #follow follows} it rebuilds its content from the new texts over the same view
 * models, so the list's selection and filter and an editor's unsaved edits stay. A window that cannot be rebuilt
 * now (an editor whose merge dialog is open) keeps its texts; windows and dialogs opened later speak the new
 * language. FX thread only.
 */
public final class LanguageSwitch {

    private static final Map<Window, Follower> FOLLOWERS = new LinkedHashMap<>();

    private record Follower(BooleanSupplier canRebuild, Runnable rebuild) {
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
            if (e.getValue().canRebuild().getAsBoolean()) {
                e.getValue().rebuild().run();
            } else {
                left.add(e.getKey());
            }
        }
        return left;
    }
}
