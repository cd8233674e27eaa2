package org.lockstep.ui.theme;

import java.net.URL;
import java.util.function.BooleanSupplier;
import java.util.prefs.Preferences;
import javafx.application.Application;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The look of every Lockstep window: AtlantaFX's Primer Light or Primer Dark, with Lockstep's palette of state
 * colours ({@code palette-light.css} / {@code palette-dark.css}: conflict, mine, theirs, base, locked, live, unsafe,
 * hot record, presence) and the shared rules of {@code lockstep.css} on top. It is the application's user-agent
 * stylesheet ({@link Application#setUserAgentStylesheet}), so a change reaches every open window and dialog at
 * once, and every window opened later, without touching any of them.
 *
 * <p>The operator's {@link ThemeChoice} is kept with {@link Preferences} under the key {@value #KEY} of the node
 * {@value #NODE}, beside the editing preferences; {@link ThemeChoice#SYSTEM} (the default) follows
 * {@link SystemTheme}. One instance per process, made by {@link #install}; FX thread only.
 */
public final class Themes {

    /** The preference node's path (the editing preferences' node). */
    public static final String NODE = "org/lockstep";
    /** The key of the operator's theme choice: {@code SYSTEM}, {@code LIGHT} or {@code DARK}. */
    public static final String KEY = "theme";

    private static Themes installed;

    private final Preferences node;
    private final BooleanSupplier desktopDark;
    private final ObjectProperty<ThemeChoice> choice;
    private final ReadOnlyBooleanWrapper dark = new ReadOnlyBooleanWrapper(this, "dark");

    /** The two looks, each with its compiled stylesheet (see {@link #stylesheet}). */
    enum Look {
        // AtlantaFX's stylesheets themselves, not its PrimerLight class: the classes of atlantafx-base 2.1.0 are
        // built for Java 21, and Lockstep runs on 17; the stylesheets need only JavaFX.
        LIGHT("/atlantafx/base/theme/primer-light.css", "palette-light.css", "lockstep-light.bss"),
        DARK("/atlantafx/base/theme/primer-dark.css", "palette-dark.css", "lockstep-dark.bss");

        /** The sources the build concatenates, in order: the theme, the palette, then {@code lockstep.css}. */
        final String theme;
        final String palette;
        /** The compiled stylesheet, beside this class. */
        final String stylesheet;

        Look(String theme, String palette, String stylesheet) {
            this.theme = theme;
            this.palette = palette;
            this.stylesheet = stylesheet;
        }
    }

    private Themes(Preferences node, BooleanSupplier desktopDark) {
        this.node = node;
        this.desktopDark = desktopDark;
        this.choice = new SimpleObjectProperty<>(this, KEY, read(node));
        choice.addListener((obs, was, now) -> {
            node.put(KEY, (now == null ? ThemeChoice.SYSTEM : now).name());
            apply();
        });
        apply();
    }

    /**
     * Reads the operator's choice from {@code node}, applies it to every window and keeps it: the process's one
     * instance from now on. FX thread.
     *
     * @param node        e.g. {@code Preferences.userRoot().node(Themes.NODE)}
     * @param desktopDark whether the desktop prefers dark, asked for {@link ThemeChoice#SYSTEM} (e.g.
     *                    {@link SystemTheme#prefersDark})
     */
    public static Themes install(Preferences node, BooleanSupplier desktopDark) {
        installed = new Themes(node, desktopDark);
        return installed;
    }

    /**
     * The process's instance; installs one over the operator's own preferences and the desktop's scheme when none
     * is yet (a view opened without the application, e.g. in a test). FX thread.
     */
    public static Themes current() {
        if (installed == null) {
            install(Preferences.userRoot().node(NODE), SystemTheme::prefersDark);
        }
        return installed;
    }

    /**
     * Makes sure a theme is installed ({@link #current()}): every view that adds its own stylesheet calls this
     * first, since those stylesheets name the palette's colours.
     */
    public static void ensureInstalled() {
        current();
    }

    /** The operator's choice; setting it stores it and restyles every window. */
    public ObjectProperty<ThemeChoice> choiceProperty() {
        return choice;
    }

    /** Whether the dark theme shows now. */
    public ReadOnlyBooleanProperty darkProperty() {
        return dark.getReadOnlyProperty();
    }

    /** The preference node the choice is kept in. */
    public Preferences node() {
        return node;
    }

    private void apply() {
        ThemeChoice c = choice.get() == null ? ThemeChoice.SYSTEM : choice.get();
        boolean isDark = c.isDark(c == ThemeChoice.SYSTEM && desktopDark.getAsBoolean());
        Application.setUserAgentStylesheet(stylesheet(isDark ? Look.DARK : Look.LIGHT));
        dark.set(isDark);
    }

    private static ThemeChoice read(Preferences node) {
        try {
            return ThemeChoice.valueOf(node.get(KEY, ThemeChoice.SYSTEM.name()));
        } catch (IllegalArgumentException e) {
            return ThemeChoice.SYSTEM; // an unknown value written by another version
        }
    }

    /**
     * AtlantaFX's theme, the palette and the shared rules as one stylesheet: JavaFX takes a single user-agent
     * stylesheet, and an {@code @import} across jars does not resolve on the class path. The build concatenates the
     * three and compiles them to a JavaFX binary stylesheet per look ({@code lockstep-desktop/pom.xml}), which JavaFX
     * reads in about a fifth of the time it takes to parse the CSS (docs/benchmarks.md, "Issue 30, phase 4").
     *
     * @throws IllegalStateException when the classes were built without it (not by Maven)
     */
    static String stylesheet(Look look) {
        URL bss = Themes.class.getResource(look.stylesheet);
        if (bss == null) {
            throw new IllegalStateException("Missing stylesheet " + look.stylesheet
                    + ": Maven's process-classes phase makes it (lockstep-desktop/pom.xml)");
        }
        return bss.toExternalForm();
    }
}
