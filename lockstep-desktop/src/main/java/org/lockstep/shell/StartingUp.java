package org.lockstep.shell;

import java.util.prefs.Preferences;
import org.lockstep.ui.theme.SystemTheme;
import org.lockstep.ui.theme.Themes;

/**
 * The first steps both desktop applications take ({@link LockstepApplication}, {@link DemoApplication}): ask the
 * desktop's colour scheme before the FX thread starts, then, on it, install the icon and the theme and show the
 * starting window when the start is not quick.
 */
final class StartingUp {

    private final boolean desktopDark;

    private StartingUp(boolean desktopDark) {
        this.desktopDark = desktopDark;
    }

    /**
     * In {@code Application.init()}: asks the desktop whether it prefers dark (up to two {@code gsettings} calls,
     * {@link SystemTheme}) on the launcher thread, so that no window waits for it.
     */
    static StartingUp askTheDesktop() {
        return new StartingUp(SystemTheme.prefersDark());
    }

    /**
     * In {@code Application.start()}, on the FX thread: installs the application icon and the theme (the operator's
     * choice, else the desktop's scheme) and shows the starting window unless the start is quick
     * ({@link StartingWindow}); the caller closes it once the first window is up.
     *
     * @param title   the starting window's title, in the operator's language
     * @param message what is being started, e.g. "Starting database…"
     */
    StartingWindow showStartingWindow(String title, String message) {
        AppIcon.install();
        Themes.install(Preferences.userRoot().node(Themes.NODE), () -> desktopDark);
        return StartingWindow.showUnlessQuick(title, message);
    }
}
