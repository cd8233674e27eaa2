package org.lockstep.ui.theme;

import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignH;
import org.kordamp.ikonli.materialdesign2.MaterialDesignL;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * Lockstep's icons, chosen in this one place (Ikonli's Material Design 2 pack, drawn from a font that ships in the
 * jar, so they look the same on every desktop — an emoji padlock is missing from many Linux fonts). Each call makes
 * a new node: a node can sit in one place of a scene only. The icon takes the text colour of the control around it
 * (the theme's {@code -color-fg-default}, or the palette colour of the state) through the style class
 * {@code ls-icon}, and a second class names what it shows ({@code ls-icon-padlock}, …) for tests and CSS.
 */
public final class Icons {

    /** The style class every icon carries. */
    public static final String STYLE_CLASS = "ls-icon";

    private Icons() {
    }

    /** A closed padlock: a customer locked for editing, the "Lock for editing" action, a lock banner. */
    public static FontIcon padlock() {
        return icon(MaterialDesignL.LOCK_OUTLINE, "padlock");
    }

    /** An open padlock: "Release lock". */
    public static FontIcon unlocked() {
        return icon(MaterialDesignL.LOCK_OPEN_VARIANT_OUTLINE, "unlocked");
    }

    /** People: who else has the customer open (presence). */
    public static FontIcon presence() {
        return icon(MaterialDesignA.ACCOUNT_MULTIPLE_OUTLINE, "presence");
    }

    /** A broadcast mark: another operator's save arrived live. */
    public static FontIcon live() {
        return icon(MaterialDesignA.ACCESS_POINT, "live");
    }

    /** Two lines joining: the three-way merge. */
    public static FontIcon merge() {
        return icon(MaterialDesignS.SOURCE_MERGE, "merge");
    }

    /** A clock turning back: the customer's history of versions. */
    public static FontIcon history() {
        return icon(MaterialDesignH.HISTORY, "history");
    }

    /** A warning triangle: an open conflict, an unsafe mode. */
    public static FontIcon warning() {
        return icon(MaterialDesignA.ALERT_OUTLINE, "warning");
    }

    /** A tick in a circle: a resolved conflict, a step done. */
    public static FontIcon done() {
        return icon(MaterialDesignC.CHECK_CIRCLE_OUTLINE, "done");
    }

    private static FontIcon icon(Ikon ikon, String what) {
        FontIcon icon = new FontIcon(ikon);
        icon.getStyleClass().addAll(STYLE_CLASS, STYLE_CLASS + "-" + what);
        return icon;
    }
}
