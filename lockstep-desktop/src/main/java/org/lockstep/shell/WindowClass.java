package org.lockstep.shell;

import java.lang.reflect.Method;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The window class of Lockstep's windows: on Linux, X11's WM_CLASS, by which a dock or task bar finds the menu entry
 * (its {@code StartupWMClass}, in {@code lockstep-app/src/dist/lockstep.desktop}) and groups the windows under it.
 * JavaFX's GTK glass gives every window it creates {@code gtk_window_set_wmclass(name, name)}, where name is glass's
 * {@code com.sun.glass.ui.Application.getName()}; the launcher sets that to the {@code Application} subclass's
 * class name ({@code PlatformImpl.setApplicationName}, in a {@code runLater} posted right after the constructor),
 * and {@code setName} takes only the first name it is given. So the constructor, which runs on the FX thread before
 * that {@code runLater}, names it first. There is no public API or system property for it (OpenJFX 21).
 *
 * <p>{@code com.sun.glass.ui} is not exported: with JavaFX on the class path ({@code java -jar lockstep.jar}) it
 * needs nothing, as named modules (the app image's runtime) it needs
 * {@code --add-exports=javafx.graphics/com.sun.glass.ui=ALL-UNNAMED}, which the app image's launcher passes. Where
 * that is missing, or glass is not GTK, the windows keep JavaFX's class (the class name) and nothing else changes.
 */
final class WindowClass {

    /** The class of every window, and the menu entry's {@code StartupWMClass}. */
    static final String NAME = "Lockstep";

    private static final Logger LOG = LoggerFactory.getLogger(WindowClass.class);

    private WindowClass() {
    }

    /** Names the windows {@link #NAME}. Call from the {@code Application}'s constructor (the FX thread). */
    static void name() {
        try {
            Class<?> glass = Class.forName("com.sun.glass.ui.Application");
            Object application = glass.getMethod("GetApplication").invoke(null);
            Method setName = glass.getMethod("setName", String.class);
            setName.invoke(application, NAME);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.debug("Windows keep JavaFX's window class: {}", e.toString());
        }
    }
}
