package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;

/**
 * One conflict hunk under its field's row: the hunk's base, mine and theirs lines in their columns and, under
 * Result, the choice Mine / Theirs / Both (mine then theirs). Binds to a {@link HunkViewModel}.
 */
final class HunkView {

    private final HunkViewModel hunk;
    private final String id;
    private final ToggleGroup group = new ToggleGroup();

    HunkView(HunkViewModel hunk, CustomerField field) {
        this.hunk = hunk;
        this.id = "hunk-" + field.column() + "-" + hunk.index();
    }

    /** Adds the hunk's cells to a row's grid, on grid row {@code gridRow}. */
    void addTo(GridPane grid, int gridRow) {
        Label title = new Label(hunk.title());
        title.getStyleClass().add("hunk-title");
        title.setWrapText(true);
        grid.add(title, 0, gridRow);
        grid.add(lines(hunk.baseLines()), 1, gridRow);
        grid.add(lines(hunk.mineLines()), 2, gridRow);
        grid.add(lines(hunk.theirsLines()), 3, gridRow);
        ToggleButton mine = toggle(tr("Mine"), HunkChoice.MINE, tr("Keep my lines"));
        ToggleButton theirs = toggle(tr("Theirs"), HunkChoice.THEIRS, tr("Keep their lines"));
        ToggleButton both = toggle(tr("Both"), HunkChoice.BOTH, tr("Keep my lines, then theirs"));
        HBox choices = new HBox(4, mine, theirs, both);
        choices.getStyleClass().add("hunk-choices");
        grid.add(choices, 4, gridRow);

        group.selectedToggleProperty().addListener((obs, was, now) -> {
            if (now != null) {
                hunk.choose((HunkChoice) now.getUserData());
            } else if (hunk.isDecided()) {
                select(hunk.getChoice()); // clicking the chosen button again keeps the choice
            }
        });
        hunk.choiceProperty().addListener((obs, was, now) -> select(now));
        select(hunk.getChoice());
    }

    private ToggleButton toggle(String text, HunkChoice choice, String tooltip) {
        ToggleButton b = new ToggleButton(text);
        b.setId(id + "-" + choice.name().toLowerCase(java.util.Locale.ROOT));
        b.setUserData(choice);
        b.setToggleGroup(group);
        b.setTooltip(new Tooltip(tooltip));
        b.setAccessibleText(tr("{0}: {1}", hunk.title(), tooltip));
        return b;
    }

    private void select(HunkChoice choice) {
        group.getToggles().stream().filter(t -> t.getUserData() == choice).findFirst()
                .ifPresentOrElse(group::selectToggle, () -> group.selectToggle(null));
    }

    private static Node lines(String text) {
        Label label = new Label(text.isEmpty() ? tr("(no lines)") : text);
        label.getStyleClass().add(text.isEmpty() ? "empty-value" : "hunk-lines");
        label.setWrapText(true);
        return label;
    }
}
