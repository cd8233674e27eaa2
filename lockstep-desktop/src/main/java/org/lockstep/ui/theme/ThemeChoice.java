package org.lockstep.ui.theme;

import static org.lockstep.text.Texts.tr;

import org.lockstep.text.Texts;

/** The operator's choice of theme in View → Theme: follow the desktop, or always light, or always dark. */
public enum ThemeChoice {
    /** Follow the desktop's colour scheme ({@link SystemTheme}); light when it cannot be told. */
    SYSTEM(Texts.key("_System")),
    /** Primer Light, whatever the desktop says. */
    LIGHT(Texts.key("_Light")),
    /** Primer Dark, whatever the desktop says. */
    DARK(Texts.key("_Dark"));

    private final String menuText;

    ThemeChoice(String menuText) {
        this.menuText = menuText;
    }

    /** The menu item's text in the current language, with its mnemonic ("_Dark", "_Escuro"). */
    public String menuText() {
        return tr(menuText);
    }

    /**
     * Whether this choice shows the dark theme.
     *
     * @param desktopDark whether the desktop prefers dark, for {@link #SYSTEM}
     */
    public boolean isDark(boolean desktopDark) {
        return this == DARK || (this == SYSTEM && desktopDark);
    }
}
