package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ObservableBooleanValue;
import javafx.collections.ListChangeListener;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.lockstep.domain.CustomerData;
import org.lockstep.ui.ColumnWidths;
import org.lockstep.ui.editor.CustomerHistoryViewModel.FieldDifference;
import org.lockstep.ui.editor.CustomerHistoryViewModel.Version;

/**
 * The editor's History tab: the versions table (newest first; select one to see what it changed, two to see
 * their difference field by field) and "Restore this version". Ids: {@code #history-versions},
 * {@code #history-difference}, {@code #history-heading}, {@code #history-status}, {@code #restore-version}.
 */
final class CustomerHistoryView {

    /** The widest text the When column shows, as {@link CustomerHistoryViewModel} formats it. */
    static final String WHEN_SAMPLE = "8888-88-88 88:88:88";
    /** The Action column's width for Created, Saved and Deleted, in pixels; a restore's label widens it. */
    private static final double ACTION_WIDTH = 90;

    private final VBox root = new VBox(6);
    private final TableView<Version> versions = new TableView<>();
    private final TableView<FieldDifference> difference = new TableView<>();
    private final Label heading = new Label(tr("Select a version to see what it changed, two to compare them."));
    private final Button restore = new Button(tr("Restore this version"));
    private final ObservableBooleanValue canEdit;

    /**
     * @param restorer restores a version's values into the editor and saves, once the operator confirmed it (the
     *                 question names the version)
     * @param canEdit  whether the editor takes edits now
     */
    CustomerHistoryView(CustomerHistoryViewModel history, Consumer<Version> restorer,
            ObservableBooleanValue canEdit) {
        Label status = new Label();
        status.setId(EditorIds.HISTORY_STATUS);
        status.textProperty().bind(history.statusProperty());
        versions.setId(EditorIds.HISTORY_VERSIONS);
        versions.setItems(history.versions());
        versions.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        versions.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        ColumnWidths.keepHeadersWhole(versions);
        TableColumn<Version, String> when = column(tr("When"), Version::when, 150);
        // The date and time in full whatever the font (it was cut to "2026-03-01 14:0…"): the widest digits.
        ColumnWidths.atLeast(when, WHEN_SAMPLE);
        TableColumn<Version, String> who = column(tr("Who"), Version::who, 90);
        ColumnWidths.atLeast(who, "Alice"); // a narrow editor squeezed the header to an ellipsis
        TableColumn<Version, String> action = fixed(column(tr("Action"), Version::opLabel, ACTION_WIDTH));
        // "Restored version 12" is wider than Created, Saved and Deleted: the column grows to what it shows, uncut.
        history.versions().addListener((ListChangeListener<Version>) c -> fit(action, history.versions()));
        versions.getColumns().setAll(List.of(
                fixed(column(tr("Version"), v -> Long.toString(v.version()), 70)),
                who,
                when,
                action,
                column(tr("Changes"), Version::changesText, 300)));
        heading.setId(EditorIds.HISTORY_HEADING);
        heading.getStyleClass().add("history-heading");
        heading.setWrapText(true); // a longer language wraps rather than eliding the hint (issue 16)
        heading.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        difference.setId(EditorIds.HISTORY_DIFFERENCE);
        difference.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        difference.setPlaceholder(new Label(tr("No field differs.")));
        difference.getColumns().setAll(List.of(
                column(tr("Field"), d -> d.field().label(), 110),
                column(tr("From"), FieldDifference::from, 200),
                column(tr("To"), FieldDifference::to, 200)));
        restore.setId(EditorIds.RESTORE_VERSION);
        restore.setOnAction(e -> selectedOne().ifPresent(restorer));
        versions.getSelectionModel().getSelectedItems().addListener((ListChangeListener<Version>) c -> showSelection());
        canEdit.addListener(o -> showSelection());
        this.canEdit = canEdit;
        HBox actions = new HBox(8, status, new Pane(), restore);
        HBox.setHgrow(actions.getChildren().get(1), Priority.ALWAYS);
        VBox.setVgrow(versions, Priority.ALWAYS);
        VBox.setVgrow(difference, Priority.SOMETIMES);
        root.getChildren().setAll(versions, heading, difference, actions);
        root.getStyleClass().add("history");
        showSelection();
    }

    Parent root() {
        return root;
    }

    private Optional<Version> selectedOne() {
        List<Version> selected = versions.getSelectionModel().getSelectedItems();
        return selected.size() == 1 ? Optional.ofNullable(selected.get(0)) : Optional.empty();
    }

    private void showSelection() {
        List<Version> selected = List.copyOf(versions.getSelectionModel().getSelectedItems());
        if (selected.size() == 1 && selected.get(0) != null) {
            Version v = selected.get(0);
            heading.setText(tr("Version {0} — {1} by {2} at {3}", v.version(), v.opLabel(), v.who(), v.when()));
            difference.getItems().setAll(v.changes());
        } else if (selected.size() == 2) {
            boolean firstIsEarlier = selected.get(0).version() < selected.get(1).version();
            Version a = selected.get(firstIsEarlier ? 0 : 1);
            Version b = selected.get(firstIsEarlier ? 1 : 0);
            heading.setText(tr("Version {0} → version {1}", a.version(), b.version()));
            difference.getItems().setAll(CustomerHistoryViewModel.difference(a, b));
        } else {
            heading.setText(tr("Select a version to see what it changed, two to compare them."));
            difference.getItems().clear();
        }
        restore.setDisable(selectedOne().map(v -> !v.restorable()).orElse(true) || !canEdit.get());
    }

    /** The Action column as wide as the widest action listed, never narrower than {@link #ACTION_WIDTH}. */
    private static void fit(TableColumn<Version, String> action, List<Version> listed) {
        double width = ColumnWidths.fitting(action, listed.stream().map(Version::opLabel), ACTION_WIDTH, 260);
        action.setMinWidth(width);
        action.setPrefWidth(width);
    }

    /** A short column keeps its width in a narrow editor; the others give way ("Ver…" and "UPD…" said nothing). */
    private static <T> TableColumn<T, String> fixed(TableColumn<T, String> column) {
        column.setMinWidth(column.getPrefWidth());
        return column;
    }

    private static <T> TableColumn<T, String> column(String title, Function<T, String> value, double width) {
        TableColumn<T, String> column = new TableColumn<>(title);
        column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(value.apply(cell.getValue())));
        column.setPrefWidth(width);
        column.setSortable(false);
        return column;
    }
}
