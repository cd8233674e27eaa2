package org.lockstep.ui.restore;

import static org.lockstep.text.Texts.tr;

import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.lockstep.drafts.Draft;
import org.lockstep.ui.Banner;

/**
 * The banner across the main window that offers the drafts of {@link DraftsOfferViewModel}: the headline, a line per
 * draft with Restore and Discard, and Restore all / Discard all. It shows while drafts are offered. Binds and forwards
 * only.
 */
public final class DraftsOfferView {

    private final DraftsOfferViewModel vm;
    private final VBox root = new VBox(4);
    private final VBox rows = new VBox(2);

    /** Builds the banner over {@code vm}. */
    public DraftsOfferView(DraftsOfferViewModel vm) {
        this.vm = vm;
        root.setId("drafts-offer");
        root.getStyleClass().add(Banner.STYLE_CLASS);
        root.setPadding(new Insets(6, 10, 6, 10));
        Label headline = new Label();
        headline.setId("drafts-headline");
        headline.textProperty().bind(vm.headline());
        headline.setStyle("-fx-font-weight: bold");
        Button restoreAll = new Button(tr("Restore all"));
        restoreAll.setId("restore-all-drafts");
        restoreAll.setOnAction(e -> vm.restoreAll());
        Button discardAll = new Button(tr("Discard all"));
        discardAll.setId("discard-all-drafts");
        discardAll.setOnAction(e -> vm.discardAll());
        keepWhole(restoreAll, discardAll);
        HBox top = new HBox(8, headline, grow(), restoreAll, discardAll);
        root.getChildren().addAll(top, rows);
        vm.offered().addListener((ListChangeListener<Draft>) c -> update());
        update();
    }

    /** The banner's node, for the main window's top. */
    public Parent root() {
        return root;
    }

    private void update() {
        rows.getChildren().clear();
        for (Draft draft : vm.offered()) {
            Label line = new Label(vm.describe(draft));
            line.setId("draft-" + draft.key());
            Button restore = new Button(tr("Restore"));
            restore.setId("restore-draft-" + draft.key());
            restore.setOnAction(e -> vm.restore(draft));
            Button discard = new Button(tr("Discard"));
            discard.setId("discard-draft-" + draft.key());
            discard.setOnAction(e -> vm.discard(draft));
            keepWhole(restore, discard);
            rows.getChildren().add(new HBox(8, line, grow(), restore, discard));
        }
        boolean shown = !vm.offered().isEmpty();
        root.setVisible(shown);
        root.setManaged(shown);
    }

    /** A narrow window cuts the lines, never the buttons' words ("Restor…" read as nothing). */
    private static void keepWhole(Button... buttons) {
        for (Button b : buttons) {
            b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
    }

    private static javafx.scene.layout.Region grow() {
        javafx.scene.layout.Region r = new javafx.scene.layout.Region();
        HBox.setHgrow(r, Priority.ALWAYS);
        return r;
    }
}
