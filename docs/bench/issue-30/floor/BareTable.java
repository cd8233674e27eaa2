import javafx.application.Application;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.scene.Scene;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Stage;

/**
 * The floor under Lockstep's desktop start (issue 30, phase 2): a bare JavaFX application showing a Stage with a
 * TableView of 59 rows and ten columns under AtlantaFX's Primer Light, the theme Lockstep uses. It tells the moments
 * {@code lockstep-bench startup} measures on stderr, as Lockstep's desktop does (main-shown, first-page: the pulse
 * that laid the rows out), so the benchmark measures it as it measures Lockstep: {@code startup --no-commands --jar
 * bare-table.jar}. Its arguments (the benchmark's --data-dir DIR) are ignored, but for a command after them (the
 * benchmark's untimed {@code get 1} before its runs), which ends it at once.
 */
public final class BareTable {

    /** Not an Application itself, as Lockstep's main class is not: the java launcher would start JavaFX at once. */
    public static void main(String[] args) {
        if (args.length > 2) {
            return;
        }
        Application.launch(Window.class);
    }

    /** The application JavaFX makes. */
    public static final class Window extends Application {

    @Override
    public void start(Stage stage) {
        Application.setUserAgentStylesheet(
                BareTable.class.getResource("/atlantafx/base/theme/primer-light.css").toExternalForm());
        TableView<String[]> table = new TableView<>();
        String[] names = {"", "Name", "#", "Company", "Contact", "Email", "City", "Country", "Version", "Updated"};
        for (int c = 0; c < names.length; c++) {
            int column = c;
            TableColumn<String[], String> col = new TableColumn<>(names[c]);
            col.setCellValueFactory(f -> new ReadOnlyStringWrapper(f.getValue()[column]));
            col.setPrefWidth(c == 0 ? 30 : 120);
            table.getColumns().add(col);
        }
        var rows = FXCollections.<String[]>observableArrayList();
        for (int r = 1; r <= 59; r++) {
            rows.add(new String[]{"", "Customer " + r, Integer.toString(r), "Company " + r + " GmbH",
                    "Contact Person " + r, "person" + r + "@example.com", "City " + r, "Country", "1",
                    "2026-12-05 04:00"});
        }
        table.setItems(rows);
        Scene scene = new Scene(table, 1280, 800);
        stage.setScene(scene);
        stage.setTitle("Bare table");
        Runnable[] listener = new Runnable[1];
        listener[0] = () -> {
            if (table.lookup(".table-row-cell") != null) {
                scene.removePostLayoutPulseListener(listener[0]);
                System.err.println("lockstep-startup first-page");
            }
        };
        scene.addPostLayoutPulseListener(listener[0]);
        stage.setOnShown(e -> System.err.println("lockstep-startup main-shown"));
        stage.show();
    }
    }
}
