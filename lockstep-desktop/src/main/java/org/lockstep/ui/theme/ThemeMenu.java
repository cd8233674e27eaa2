package org.lockstep.ui.theme;

import static org.lockstep.text.Texts.tr;

import javafx.scene.control.Menu;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.ToggleGroup;

/**
 * The View menu with its Theme submenu (System / Light / Dark), for every window that has a menu bar. Choosing
 * one sets {@link Themes#choiceProperty()}, which restyles every open window at once and is remembered.
 */
public final class ThemeMenu {

    /** The View menu's id. */
    public static final String VIEW_MENU_ID = "view-menu";
    /** The Theme submenu's id. */
    public static final String THEME_MENU_ID = "theme-menu";

    private ThemeMenu() {
    }

    /** The id of the item for {@code choice}: {@code theme-system}, {@code theme-light}, {@code theme-dark}. */
    public static String itemId(ThemeChoice choice) {
        return "theme-" + choice.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** A new View menu holding Theme → System / Light / Dark, showing the current choice. FX thread. */
    public static Menu viewMenu() {
        Menu theme = new Menu(tr("_Theme"));
        theme.setId(THEME_MENU_ID);
        ToggleGroup group = new ToggleGroup();
        for (ThemeChoice c : ThemeChoice.values()) {
            RadioMenuItem item = new RadioMenuItem(c.menuText());
            item.setId(itemId(c));
            item.setToggleGroup(group);
            item.setUserData(c);
            item.setOnAction(e -> Themes.current().choiceProperty().set(c));
            theme.getItems().add(item);
        }
        // Another window may have changed the choice since: show the current one whenever the menu opens. (No
        // listener on the shared property, which would keep every closed window's menu alive.)
        Runnable sync = () -> group.getToggles().forEach(
                t -> t.setSelected(t.getUserData() == Themes.current().choiceProperty().get()));
        sync.run();
        theme.setOnShowing(e -> sync.run());
        Menu view = new Menu(tr("_View"), null, theme);
        view.setId(VIEW_MENU_ID);
        view.setOnShowing(e -> sync.run());
        return view;
    }
}
