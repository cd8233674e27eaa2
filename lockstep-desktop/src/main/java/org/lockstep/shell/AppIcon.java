package org.lockstep.shell;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.collections.ListChangeListener;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Lockstep's application icon on every window: once {@link #install()}ed, each stage that opens (main window,
 * editors, dialogs, alerts, the lab, the demo) gets the icon in its title bar and the taskbar, unless it was given
 * icons of its own. One listener on all windows, rather than a line at every {@code new Stage()}, so that a window
 * added later cannot be forgotten. The PNGs are rendered from {@code src/dist/icon/lockstep.svg} by
 * {@code src/dist/icon/render-icons.sh}; jpackage gets the same picture ({@code --icon}) for the installer.
 */
public final class AppIcon {

    /**
     * The sizes rendered, in pixels; the window system picks the one that fits (16 title bar, 32/48 taskbar, 128 a
     * large task switcher). Not 256: no window's icon shows that large (the launcher's comes from the installed
     * desktop entry), and its 65,536 pixels were three quarters of what every start decoded and converted for the
     * icon, twice (docs/benchmarks.md, "Issue 30, phase 4").
     */
    public static final List<Integer> SIZES = List.of(16, 24, 32, 48, 64, 128);

    private static final AtomicBoolean INSTALLED = new AtomicBoolean();
    private static List<Image> images;

    private AppIcon() {
    }

    /**
     * From now on gives every stage that opens without icons of its own Lockstep's icon. Call on the FX thread; a
     * second call does nothing.
     */
    public static void install() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        Window.getWindows().forEach(AppIcon::apply);
        Window.getWindows().addListener((ListChangeListener<Window>) change -> {
            while (change.next()) {
                change.getAddedSubList().forEach(AppIcon::apply);
            }
        });
    }

    /** The icon at every size in {@link #SIZES}, smallest first; loaded once. Call on the FX thread. */
    public static List<Image> images() {
        if (images == null) {
            images = SIZES.stream()
                    .map(size -> new Image(Objects.requireNonNull(
                            AppIcon.class.getResource("icon/lockstep-" + size + ".png"),
                            "icon/lockstep-" + size + ".png is missing from the build").toExternalForm()))
                    .toList();
        }
        return images;
    }

    private static void apply(Window window) {
        if (window instanceof Stage stage && stage.getIcons().isEmpty()) {
            stage.getIcons().setAll(images());
        }
    }
}
