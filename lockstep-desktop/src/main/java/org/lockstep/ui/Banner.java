package org.lockstep.ui;

import static org.lockstep.text.Texts.tr;

import java.util.Objects;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.AccessibleAttribute;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Pane;

/**
 * A message bar of the editor (a notice or a message received, a lock's state, another operator's live save, the
 * hot-record advice) made the one kind of banner they all are: it shows while its owner {@linkplain #wantedProperty()
 * wants it}; the operator dismisses it with its × button or Escape ({@link #dismiss()}), and it stays dismissed until
 * its text changes or it is wanted anew; and a screen reader is told when it appears or its text changes (JavaFX has
 * no live region: the text's label notifies {@link AccessibleAttribute#TEXT}), without taking the keyboard focus from
 * where the operator is typing. Where a banner sits is its owner's choice; the editor keeps them below the form, above
 * its buttons, so that one appearing moves neither the fields nor the buttons. A banner that waits (wanted, not
 * dismissed) shows only while {@linkplain #setChosen(boolean) chosen}: a {@link MessageArea} chooses one of several
 * to show at a time; a banner alone is always chosen.
 */
public final class Banner {

    /** The style class of every banner, and of its close button ({@code banner-close}). */
    public static final String STYLE_CLASS = "banner";

    private final Pane box;
    private final Label text;
    private final Button close = new Button("×");
    private final BooleanProperty wanted = new SimpleBooleanProperty(this, "wanted");
    private final ReadOnlyBooleanWrapper waiting = new ReadOnlyBooleanWrapper(this, "waiting");
    // Counts text changes: a message area tells a new text from the old one shown (a new message takes its place).
    private final ReadOnlyIntegerWrapper said = new ReadOnlyIntegerWrapper(this, "said");
    private boolean dismissed;
    private boolean chosen = true;

    /**
     * Makes {@code box} a banner: adds the close button at its end and shows the box only while wanted and not
     * dismissed.
     *
     * @param box     the bar, as laid out by its owner
     * @param text    the label whose text says what the banner is about (read out when it changes)
     * @param name    what the banner is, for the close button's accessible text, e.g. "the notice" (translated)
     * @param closeId the close button's node id, e.g. {@code notice-dismiss}
     */
    public Banner(Pane box, Label text, String name, String closeId) {
        this.box = box;
        this.text = text;
        box.getStyleClass().add(STYLE_CLASS);
        close.setId(closeId);
        close.getStyleClass().add("banner-close");
        close.setMnemonicParsing(false);
        close.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        close.setTooltip(new Tooltip(tr("Dismiss (Esc)")));
        close.setAccessibleText(tr("Dismiss {0}", name));
        close.setAccessibleHelp(tr("Hides {0} until it says something new; Escape does the same", name));
        close.setOnAction(e -> dismiss());
        box.getChildren().add(close);
        text.textProperty().addListener((obs, was, now) -> {
            if (!Objects.equals(was, now)) {
                dismissed = false;
                said.set(said.get() + 1);
                update();
            }
        });
        wanted.addListener((obs, was, now) -> {
            if (now) {
                dismissed = false;
            }
            update();
        });
        update();
    }

    /** Whether the owner wants the banner shown (e.g. while a notice is set); it shows unless dismissed. */
    public BooleanProperty wantedProperty() {
        return wanted;
    }

    /** Sets {@link #wantedProperty()}. */
    public void setWanted(boolean shown) {
        wanted.set(shown);
    }

    /** Whether it shows now. */
    public boolean isShowing() {
        return box.isVisible();
    }

    /** Whether it would show if chosen: wanted and not dismissed. */
    public ReadOnlyBooleanProperty waitingProperty() {
        return waiting.getReadOnlyProperty();
    }

    /** Goes up by one each time the banner's text changes: it says something new. */
    public ReadOnlyIntegerProperty saidProperty() {
        return said.getReadOnlyProperty();
    }

    /** Whether its message area chose it to show while it waits (a banner alone: always). */
    public void setChosen(boolean shown) {
        if (chosen != shown) {
            chosen = shown;
            apply();
        }
    }

    /** The bar, as laid out by its owner, with the close button last. */
    public Pane box() {
        return box;
    }

    /** Hides the banner until its text changes or it is wanted anew. */
    public void dismiss() {
        dismissed = true;
        update();
    }

    private void update() {
        // First whether it waits (a message area listening may choose another now), then what shows.
        waiting.set(wanted.get() && !dismissed);
        apply();
    }

    private void apply() {
        boolean shown = waiting.get() && chosen;
        boolean appeared = shown && !box.isVisible();
        box.setVisible(shown);
        box.setManaged(shown);
        if (shown) {
            // Read out without moving the focus: the operator may be typing in a field.
            text.notifyAccessibleAttributeChanged(AccessibleAttribute.TEXT);
        }
        if (appeared) {
            box.notifyAccessibleAttributeChanged(AccessibleAttribute.VISIBLE);
        }
    }
}
