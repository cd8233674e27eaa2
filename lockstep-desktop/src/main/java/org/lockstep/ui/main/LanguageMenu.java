package org.lockstep.ui.main;

import static org.lockstep.text.Texts.tr;

import java.util.Locale;
import javafx.application.Platform;
import javafx.scene.control.Menu;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.ToggleGroup;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.ui.LanguageChoice;
import org.lockstep.ui.LanguageSwitch;

/**
 * View → Language (issue 16): English, Português (Brasil), Español — each in its own language, so an operator finds
 * theirs whatever the window speaks now — with the language chosen checked. Choosing one keeps it in
 * {@link LanguageChoice} for the next start and switches every open window to it at once ({@link LanguageSwitch}).
 */
final class LanguageMenu {

    /** The Language submenu's id. */
    static final String MENU_ID = "language-menu";

    private LanguageMenu() {
    }

    /** The id of the item for {@code language}: {@code language-en}, {@code language-pt-br}, {@code language-es}. */
    static String itemId(Language language) {
        return "language-" + language.tag().toLowerCase(Locale.ROOT);
    }

    /**
     * A new Language submenu. FX thread.
     *
     * @param choice where a choice is kept
     */
    static Menu menu(LanguageChoice choice) {
        Menu menu = new Menu(tr("_Language"));
        menu.setId(MENU_ID);
        ToggleGroup group = new ToggleGroup();
        Language chosen = Texts.language();
        for (Language language : Language.values()) {
            RadioMenuItem item = new RadioMenuItem(language.nativeName());
            item.setMnemonicParsing(false);
            item.setId(itemId(language));
            item.setToggleGroup(group);
            item.setSelected(language == chosen);
            item.setOnAction(e -> {
                choice.store(language);
                if (language != Texts.language()) {
                    // Later: the menu bar this item is in is replaced by the switch, not while it handles the click.
                    Platform.runLater(() -> LanguageSwitch.switchTo(language));
                }
            });
            menu.getItems().add(item);
        }
        return menu;
    }
}
