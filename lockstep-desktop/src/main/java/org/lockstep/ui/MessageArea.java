package org.lockstep.ui;

import static org.lockstep.text.Texts.tr;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import javafx.scene.control.Button;
import javafx.scene.layout.Pane;

/**
 * One place for a window's messages: of the {@link Banner banners} that wait (wanted, not dismissed), one shows at a
 * time, chosen by a {@link MessagePicker} by priority. When more wait, a small "1 more" button sits in the shown
 * banner, before its close button, and steps to the next; dismissing the shown one (its × or Escape) shows the next
 * one waiting. Which kind a banner is may change with what it says (a notice is an error or information): its owner
 * calls {@link #refresh()} then. Confined to the FX thread.
 *
 * @param <K> the kinds of message, most urgent first in the picker's priority
 */
public final class MessageArea<K> {

    private final MessagePicker<K> picker;
    private final Map<Banner, Supplier<K>> banners = new LinkedHashMap<>();
    private final Button more = new Button();

    /**
     * @param priority every kind of message, most urgent first
     * @param moreId   the node id of the "1 more" button
     */
    public MessageArea(List<K> priority, String moreId) {
        picker = new MessagePicker<>(priority);
        more.setId(moreId);
        more.getStyleClass().add("banner-more");
        more.setMnemonicParsing(false);
        more.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        more.setOnAction(e -> {
            picker.step();
            apply();
            more.requestFocus(); // the button moved into the next banner: keep it under the keyboard for one more
        });
    }

    /** Adds a banner whose kind is always {@code kind}. */
    public void add(Banner banner, K kind) {
        add(banner, () -> kind);
    }

    /** Adds a banner whose kind is what {@code kind} says now (asked at each {@link #refresh()}). */
    public void add(Banner banner, Supplier<K> kind) {
        banners.put(banner, kind);
        banner.waitingProperty().addListener(o -> refresh());
        banner.saidProperty().addListener(o -> {
            picker.renewed(kind.get());
            apply();
        });
        refresh();
    }

    /** Chooses again which banner shows: one started or stopped waiting, or changed its kind. */
    public void refresh() {
        Set<K> waiting = new LinkedHashSet<>();
        banners.forEach((banner, kind) -> {
            if (banner.waitingProperty().get()) {
                waiting.add(kind.get());
            }
        });
        picker.waiting(waiting);
        apply();
    }

    /** The banner shown now, if any. */
    public Optional<Banner> shown() {
        return picker.shown().flatMap(k -> banners.entrySet().stream()
                .filter(e -> e.getValue().get().equals(k) && e.getKey().waitingProperty().get())
                .map(Map.Entry::getKey).findFirst());
    }

    /** Shows the next banner waiting, as the "1 more" button does. */
    public void step() {
        picker.step();
        apply();
    }

    private void apply() {
        Optional<Banner> shown = shown();
        banners.keySet().forEach(b -> b.setChosen(shown.map(b::equals).orElse(false)));
        int others = picker.more();
        more.setText(tr("{0} more", others));
        more.setAccessibleText(tr("Show the next message ({0} more)", others));
        boolean focused = more.isFocused();
        if (more.getParent() instanceof Pane parent) {
            parent.getChildren().remove(more);
        }
        if (shown.isPresent() && others > 0) {
            Pane box = shown.get().box();
            box.getChildren().add(box.getChildren().size() - 1, more); // before the close button
            if (focused) {
                more.requestFocus();
            }
        }
    }
}
