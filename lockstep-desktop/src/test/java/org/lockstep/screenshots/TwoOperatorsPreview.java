package org.lockstep.screenshots;

import org.lockstep.editing.LeaseSettings;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.ui.Sessions;
import org.lockstep.testing.db.TestDatabases;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * Two operators mid-conflict, for the README's screenshot: Alice's and Bob's editor windows side by side on one
 * customer; Alice saved a new phone and city, Bob's save of his email and city opens the merge dialog. Run with the
 * test class path of lockstep-desktop under a display (e.g. {@code xvfb-run}), and capture the screen.
 */
public final class TwoOperatorsPreview {

    private TwoOperatorsPreview() {
    }

    /** The JavaFX application; the launcher class itself must not extend Application for a class-path start. */
    public static final class App extends Application {
        @Override
        public void start(Stage unused) {
            show();
        }
    }

    private static void show() {
        Database db = TestDatabases.fresh();
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "3").with(CustomerField.COMPANY, "Tremblay Équipements")
                .with(CustomerField.CONTACT_NAME, "François Tremblay").with(CustomerField.CITY, "Montréal")
                .with(CustomerField.REGION, "QC").with(CustomerField.COUNTRY, "Canada")
                .with(CustomerField.EMAIL, "ftremblay@gmail.com").with(CustomerField.PHONE, "+1 (514) 721-4711")
                .with(CustomerField.ADDRESS, "1498 rue Bélanger").with(CustomerField.POSTAL_CODE, "H2G 1A7").build());
        EditorServices alice = Sessions.services(db, "Alice", new FxTaskExecutor(2), Platform::runLater,
                LeaseSettings.defaults(java.time.Duration.ofSeconds(60)));
        EditorServices bob = Sessions.services(db, "Bob", new FxTaskExecutor(2), Platform::runLater,
                LeaseSettings.defaults(java.time.Duration.ofSeconds(60)));
        Stage a = CustomerEditorWindow.open(alice, c.id());
        Stage b = CustomerEditorWindow.open(bob, c.id());
        a.setX(10);
        a.setY(10);
        a.setWidth(700);
        a.setHeight(960);
        b.setX(730);
        b.setY(40);
        b.setWidth(700);
        b.setHeight(960);
        // Give both windows time to load, then edit and save: Alice first, then Bob.
        javafx.animation.PauseTransition loaded = new javafx.animation.PauseTransition(javafx.util.Duration.seconds(3));
        loaded.setOnFinished(e -> {
            set(a, CustomerField.PHONE, "+1 (514) 555-0199");
            set(a, CustomerField.CITY, "Laval");
            set(b, CustomerField.EMAIL, "francois.tremblay@tremblay-equipements.ca");
            set(b, CustomerField.CITY, "Longueuil");
            save(a);
            javafx.animation.PauseTransition saved = new javafx.animation.PauseTransition(
                    javafx.util.Duration.seconds(2));
            saved.setOnFinished(e2 -> {
                save(b);
                // Once the merge dialog is up, put it beside Alice's window, over Bob's, for the picture.
                javafx.animation.PauseTransition merged = new javafx.animation.PauseTransition(
                        javafx.util.Duration.seconds(2));
                merged.setOnFinished(e3 -> javafx.stage.Window.getWindows().stream()
                        .filter(w -> w instanceof Stage st && st.getTitle() != null
                                && st.getTitle().startsWith("Merge"))
                        .findFirst().ifPresent(w -> {
                            w.setX(Math.max(560, 1910 - w.getWidth()));
                            w.setY(150);
                            w.setHeight(640);
                        }));
                merged.play();
            });
            saved.play();
        });
        loaded.play();
    }

    private static void set(Stage s, CustomerField field, String text) {
        ((TextInputControl) s.getScene().lookup("#" + EditorIds.field(field))).setText(text);
    }

    private static void save(Stage s) {
        ((Button) s.getScene().lookup("#saveButton")).fire();
    }

    /** Starts the preview. */
    public static void main(String[] args) {
        Application.launch(App.class, args);
    }
}
