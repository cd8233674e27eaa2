package org.lockstep.ui.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.VBox;
import org.lockstep.text.Texts;
import org.lockstep.ui.Windows;
import org.lockstep.ui.theme.Themes;

/**
 * The Trainer panel's node, from {@code TrainerView.fxml} and {@code TrainerView.css}: the scenarios, the chosen
 * one's explanation and numbered steps (done ✓, next ▶), what to notice after the last step, and the buttons Next
 * step, Run all and Reset data. It binds to a {@link TrainerViewModel} and forwards the buttons.
 */
public final class TrainerView {

    private final TrainerViewModel viewModel;
    private final Parent root;
    private final Parent labResults;

    // The injected controls, one per line as the FXML lists their ids (kept so by the formatter tags).
    // @formatter:off
    @FXML private ListView<Scenario> scenarioList;
    @FXML private Label scenarioTitle;
    @FXML private Label explanation;
    @FXML private Label notice;
    @FXML private Label error;
    @FXML private VBox steps;
    @FXML private VBox explanationColumn;
    @FXML private Button nextStep;
    @FXML private Button runAll;
    @FXML private ProgressIndicator busy;
    // @formatter:on

    /** Builds the panel over {@code viewModel}. */
    public TrainerView(TrainerViewModel viewModel) {
        this(viewModel, null);
    }

    /**
     * Builds the panel over {@code viewModel}, showing {@code labResults} under the explanation while a scenario
     * without a customer (scenario 7, the lab's Black Friday) is chosen.
     */
    public TrainerView(TrainerViewModel viewModel, Parent labResults) {
        this.viewModel = viewModel;
        this.labResults = labResults;
        FXMLLoader loader = new FXMLLoader(TrainerView.class.getResource("TrainerView.fxml"), Texts.bundle());
        loader.setController(this);
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load TrainerView.fxml", e);
        }
        Themes.ensureInstalled();
        root.getStylesheets().add(TrainerView.class.getResource("TrainerView.css").toExternalForm());
    }

    /** The panel's node. */
    public Parent root() {
        return root;
    }

    /**
     * Puts the timeline between the explanation and the steps, in one split pane the trainer can resize: the steps
     * column alone would take its preferred 640 px and leave the drawing a sliver on a 1600 px screen.
     */
    void showTimeline(Parent timeline) {
        javafx.scene.layout.BorderPane border = (javafx.scene.layout.BorderPane) root;
        javafx.scene.Node steps = border.getRight();
        border.setRight(null);
        javafx.scene.Node explanationPane = border.getCenter();
        javafx.scene.control.SplitPane split = new javafx.scene.control.SplitPane(explanationPane, timeline, steps);
        border.setCenter(split);
        // A scenario without a customer (7, the lab) has no timeline to draw: its table and charts take that room
        // instead of hiding in a scroller a few rows high (issue 27).
        Runnable arrange = () -> {
            Scenario s = viewModel.selectedProperty().get();
            boolean lab = s != null && s.start() == null;
            if (lab && split.getItems().contains(timeline)) {
                split.getItems().remove(timeline);
            } else if (!lab && !split.getItems().contains(timeline)) {
                split.getItems().add(1, timeline);
            }
            if (lab) {
                split.setDividerPositions(0.76);
            } else {
                split.setDividerPositions(0.24, 0.66);
            }
        };
        viewModel.selectedProperty().addListener(o -> arrange.run());
        // Placed whenever the panel changes width (DemoLayout sizes it after it is shown): set once before, the
        // dividers went where the items' sizes pushed them (the explanation took two thirds, the steps a sliver).
        split.widthProperty().addListener((o, was, now) -> arrange.run());
        arrange.run();
    }

    @FXML
    private void initialize() {
        scenarioList.setItems(viewModel.scenarios());
        // Cells as wide as the list and wrapping their text: a long title (or a longer language) takes a second line
        // instead of giving the list a horizontal scroll bar (issue 27).
        scenarioList.setCellFactory(list -> new javafx.scene.control.ListCell<>() {
            {
                setWrapText(true);
                prefWidthProperty().bind(list.widthProperty().subtract(24));
                setMaxWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            }

            @Override
            protected void updateItem(Scenario item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : item.toString());
            }
        });
        scenarioList.getSelectionModel().select(viewModel.selectedProperty().get());
        scenarioList.getSelectionModel().selectedItemProperty().addListener((obs, was, now) -> {
            if (now != null) {
                viewModel.selectedProperty().set(now);
            }
        });
        viewModel.selectedProperty().addListener((obs, was, now) -> scenarioList.getSelectionModel().select(now));
        scenarioList.disableProperty().bind(viewModel.runningProperty());
        nextStep.disableProperty().bind(viewModel.canRunNextProperty().not());
        runAll.disableProperty().bind(viewModel.canRunNextProperty().not());
        // Reset data stays available while a step runs: it stops the step (e.g. one waiting for a dialog the
        // trainer closed by hand) and starts the scenario again.
        busy.visibleProperty().bind(viewModel.runningProperty());
        // The buttons keep their words whole however narrow the split pane makes the steps column.
        nextStep.getParent().getChildrenUnmodifiable().stream().filter(Button.class::isInstance)
                .forEach(button -> ((Button) button).setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE));
        notice.textProperty().bind(viewModel.noticeProperty());
        notice.visibleProperty().bind(viewModel.noticeProperty().isNotEmpty());
        notice.managedProperty().bind(notice.visibleProperty());
        error.textProperty().bind(viewModel.errorProperty());
        error.visibleProperty().bind(viewModel.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        viewModel.selectedProperty().addListener(o -> showScenario());
        if (labResults != null) {
            VBox.setVgrow(labResults, javafx.scene.layout.Priority.ALWAYS);
            explanationColumn.getChildren().add(labResults);
            labResults.visibleProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(
                    () -> viewModel.selectedProperty().get() != null
                            && viewModel.selectedProperty().get().start() == null,
                    viewModel.selectedProperty()));
            labResults.managedProperty().bind(labResults.visibleProperty());
        }
        viewModel.doneProperty().addListener(o -> showSteps());
        viewModel.runningProperty().addListener(o -> showSteps());
        showScenario();
    }

    private void showScenario() {
        Scenario s = viewModel.selectedProperty().get();
        scenarioTitle.setText(s == null ? "" : s.number() + ". " + s.title());
        explanation.setText(s == null ? "" : s.explanation());
        showSteps();
    }

    private void showSteps() {
        Scenario s = viewModel.selectedProperty().get();
        steps.getChildren().clear();
        if (s == null) {
            return;
        }
        List<Step> all = s.steps();
        int done = viewModel.doneProperty().get();
        for (int i = 0; i < all.size(); i++) {
            String mark = i < done ? "✓" : i == done ? (viewModel.runningProperty().get() ? "…" : "▶") : " ";
            Label row = new Label(mark + "  " + (i + 1) + ". " + all.get(i).text());
            row.setWrapText(true);
            row.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
            row.setId("step-" + (i + 1));
            row.getStyleClass().addAll("step", i < done ? "done" : i == done ? "next" : "pending");
            steps.getChildren().add(row);
        }
        if (done < all.size()) {
            Label next = (Label) steps.getChildren().get(done);
            // Once laid out: keep the next step in view when the list is taller than the panel (small screens).
            javafx.application.Platform.runLater(() -> Windows.reveal(next));
        }
    }

    // The view waits for none of the trainer's actions: each outcome shows in the view model's notice and error line,
    // so the futures (which tests and Run all wait for) are dropped here on purpose.
    @FXML
    @SuppressWarnings("FutureReturnValueIgnored")
    private void nextStep() {
        viewModel.runNext();
    }

    @FXML
    @SuppressWarnings("FutureReturnValueIgnored")
    private void runAll() {
        viewModel.runAll();
    }

    @FXML
    @SuppressWarnings("FutureReturnValueIgnored")
    private void resetData() {
        viewModel.reset();
    }
}
