package org.lockstep.ui.theme;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Whether the desktop prefers a dark colour scheme. JavaFX 21 has no way to ask (its {@code Platform.Preferences}
 * arrives in JavaFX 22), so on Linux this asks the desktop the way GTK applications do: the environment variable
 * {@code GTK_THEME} ("Adwaita:dark") first, then GNOME's setting
 * {@code gsettings get org.gnome.desktop.interface color-scheme} ('prefer-dark'), then the name of the GTK theme
 * ({@code gtk-theme}, e.g. 'Yaru-dark'). On Windows and macOS, and wherever none of these answers, the answer is
 * light: the operator chooses View → Theme → Dark there.
 */
public final class SystemTheme {

    /** The longest wait for {@code gsettings}, in milliseconds: it normally answers in a few. */
    static final long GSETTINGS_WAIT_MS = 1500;

    private SystemTheme() {
    }

    /** Whether the desktop prefers dark now; false when it cannot be told. Starts at most two short processes. */
    public static boolean prefersDark() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return false;
        }
        String gtkTheme = System.getenv("GTK_THEME");
        if (gtkTheme != null && !gtkTheme.isBlank()) {
            return isDark(gtkTheme, null, null);
        }
        return isDark(null, gsettings("color-scheme"), gsettings("gtk-theme"));
    }

    /**
     * The rule on the answers collected: {@code GTK_THEME} decides when set ("Adwaita:dark" is dark, "Adwaita" is
     * light); else a colour scheme of 'prefer-dark' is dark and 'prefer-light' light; else a GTK theme whose name
     * ends in "-dark" or ":dark" is dark. Anything else, nulls included, is light.
     *
     * @param gtkTheme    the {@code GTK_THEME} environment variable, or null
     * @param colorScheme what {@code gsettings get org.gnome.desktop.interface color-scheme} printed, or null
     * @param gtkName     what {@code gsettings get org.gnome.desktop.interface gtk-theme} printed, or null
     */
    static boolean isDark(String gtkTheme, String colorScheme, String gtkName) {
        if (gtkTheme != null && !gtkTheme.isBlank()) {
            return gtkTheme.toLowerCase(Locale.ROOT).endsWith(":dark");
        }
        String scheme = unquote(colorScheme);
        if (scheme.equals("prefer-dark")) {
            return true;
        }
        if (scheme.equals("prefer-light")) {
            return false;
        }
        String name = unquote(gtkName);
        return name.endsWith("-dark") || name.endsWith(":dark");
    }

    private static String unquote(String printed) {
        return printed == null ? "" : printed.strip().replace("'", "").toLowerCase(Locale.ROOT);
    }

    private static String gsettings(String key) {
        try {
            Process p = new ProcessBuilder("gsettings", "get", "org.gnome.desktop.interface", key)
                    .redirectErrorStream(true).start();
            if (!p.waitFor(GSETTINGS_WAIT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return null;
            }
            try (InputStream out = p.getInputStream()) {
                String printed = new String(out.readAllBytes(), StandardCharsets.UTF_8);
                return p.exitValue() == 0 ? printed : null;
            }
        } catch (IOException e) {
            return null; // no gsettings: not GNOME, or a bare X server
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
