package org.lockstep.ui.theme;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How the desktop's answers are read (GTK_THEME, GNOME's color-scheme, the GTK theme's name). */
class SystemThemeTest {

    @Test
    void gtkThemeDecidesWhenSet() {
        assertThat(SystemTheme.isDark("Adwaita:dark", "'prefer-light'", null)).isTrue();
        assertThat(SystemTheme.isDark("Adwaita", "'prefer-dark'", null)).isFalse();
    }

    @Test
    void gnomeColourSchemeComesNext() {
        assertThat(SystemTheme.isDark(null, "'prefer-dark'\n", "'Adwaita'")).isTrue();
        assertThat(SystemTheme.isDark(null, "'prefer-light'\n", "'Yaru-dark'")).isFalse();
        assertThat(SystemTheme.isDark(null, "'default'\n", "'Yaru-dark'\n")).isTrue();
    }

    @Test
    void lightWhenNothingTells() {
        assertThat(SystemTheme.isDark(null, null, null)).isFalse();
        assertThat(SystemTheme.isDark("", "'default'", "'Adwaita'")).isFalse();
    }
}
