package org.lockstep.ui.main;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;
import static org.lockstep.testing.Translations.expect;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.testing.InEveryTranslation;
import org.lockstep.testing.Translations;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.LanguageChoice;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.list.ListIds;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The main window and an editor window in Brazilian Portuguese and in Spanish (issue 16), on a real database: the
 * texts read back from the scene are the translations — buttons, menus, column headers, the list's count and dates,
 * a validation error, another operator's lock — and no text they showed lacked one. View → Language switches the
 * open windows at once and keeps the choice for the next start.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class TranslatedMainWindowTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static EditorServices ana;
    static EditorServices bruno;

    Preferences prefs;
    Customer locked;
    long lockToken;

    @BeforeAll
    static void start() throws TimeoutException {
        executor = new FxTaskExecutor(4);
        ana = Sessions.services(db, "Ana", executor, Platform::runLater, Sessions.quickLocks());
        bruno = Sessions.services(db, "Bruno", executor, Platform::runLater, Sessions.quickLocks());
        ana.customers().create(aCustomer().with(CustomerField.COMPANY, "Embraer S.A.")
                .with(CustomerField.EXTERNAL_REF, "TR-1").build());
    }

    @AfterAll
    static void stop() {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @BeforeEach
    void aCustomerLockedByBruno() {
        prefs = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());
        locked = ana.customers().create(aCustomer().with(CustomerField.COMPANY, "Natura Cosméticos")
                .with(CustomerField.EXTERNAL_REF, "TR-" + UUID.randomUUID()).build());
        AcquireOutcome outcome = bruno.leases().acquire(locked.id(), 60_000);
        lockToken = ((AcquireOutcome.Granted) outcome).lease().token();
    }

    @AfterEach
    void releaseTheLock() throws TimeoutException, BackingStoreException {
        FxToolkit.cleanupStages();
        bruno.leases().release(locked.id(), lockToken);
        prefs.removeNode();
    }

    @InEveryTranslation
    void theWindowsSpeakTheLanguage(Language lang) {
        Parent main = openMainWindow();

        Fx.await("the count in the language", () -> status(main).matches("\\d+ clientes"));
        String updated = expect(lang, "Atualizado", "Actualizado");
        assertThat(columns(main)).contains("Empresa", expect(lang, "Cidade", "Ciudad"), expect(lang, "Versão",
                "Versión"), updated);
        Fx.await("a date as dd/MM/yyyy",
                () -> updated(main, updated).matches("\\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d"));
        // The main window's editor side, no customer chosen yet (EditorPane); the editor's own words are checked in
        // the editor window below.
        assertThat(text(main, ".editor-note .heading"))
                .isEqualTo(expect(lang, "Nenhum cliente selecionado", "Ningún cliente seleccionado"));
        assertThat(text(main, ".editor-note .help")).startsWith(expect(lang, "Escolha um cliente", "Elija un cliente"));
        assertThat(menus(main)).containsExactly(expect(lang, List.of("_Cliente", "_Edição", "E_xibir"),
                List.of("_Cliente", "_Edición", "_Ver")).toArray(String[]::new));
        assertThat(text(main, "#new-customer")).isEqualTo(expect(lang, "Novo cliente", "Nuevo cliente"));

        Parent editor = openEditor(locked);
        Fx.await("the version line in the language", () -> text(editor, "#" + EditorIds.VERSION_LINE)
                .startsWith(expect(lang, "versão 1 · salva por Ana · ", "versión 1 · guardada por Ana · ")));
        Fx.await("Bruno's lock in the language", () -> lockMessage(editor).matches(expect(lang,
                "Bruno está editando este cliente \\(desde \\d\\d:\\d\\d:\\d\\d\\)\\. Você pode lê-lo, e "
                        + "editá-lo quando terminar\\.",
                "Bruno está editando este cliente \\(desde las \\d\\d:\\d\\d:\\d\\d\\)\\. Puedes leerlo, y "
                        + "editarlo cuando termine\\.")));
        assertThat(text(editor, "#" + EditorIds.LOCK_MODE)).isEqualTo(expect(lang, "Bloquear para edição",
                "Bloquear para editar"));
        assertThat(text(editor, "#" + EditorIds.BREAK_LOCK_BUTTON)).isEqualTo(expect(lang, "Quebrar bloqueio…",
                "Romper bloqueo…"));

        Parent free = openEditor(ana.customers().create(aCustomer().with(CustomerField.COMPANY, "Vale")
                .with(CustomerField.EXTERNAL_REF, "TR-" + UUID.randomUUID()).build()));
        Fx.await("the editor to load", () -> text(free, "#" + EditorIds.VERSION_LINE).startsWith(expect(lang,
                "versão 1", "versión 1")));
        typeInto(free, CustomerField.EMAIL, "ana.example.com");
        String emailError = expect(lang, "O e-mail deve ter o formato nome@exemplo.com",
                "El correo debe tener el formato nombre@ejemplo.com");
        Fx.await("the validation error in the language", () -> emailError
                .equals(text(free, "#" + EditorIds.fieldError(CustomerField.EMAIL))));
        Fx.await("the reason Save is blocked", () -> text(free, "#" + EditorIds.SAVE_BLOCKED_REASON)
                .equals(expect(lang, "Não é possível salvar: ", "No se puede guardar: ") + emailError));

        Fx.run(() -> ((javafx.scene.control.TabPane) free.lookup("#" + EditorIds.TABS)).getSelectionModel().select(1));
        Fx.await("the history's first version", () -> history(free, expect(lang, "Ação", "Acción"))
                .equals(expect(lang, "Criado", "Creado")));
        assertThat(history(free, expect(lang, "Quando", "Cuándo")))
                .matches("\\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d:\\d\\d");
        assertThat(text(free, "#" + EditorIds.HISTORY_STATUS)).isEqualTo(expect(lang, "1 versão", "1 versión"));
    }

    /**
     * Issue 27: View → Language switches the open windows at once, from English to Spanish, rebuilding them over
     * the same view models: the main window's and an editor window's labels speak Spanish, and the editor's unsaved
     * edit and the list's filter text are still there.
     */
    @Test
    void theLanguageMenuSwitchesTheOpenWindowsAtOnce() {
        List<String> missing = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.function.Consumer<String> before = Texts.onMissing(missing::add);
        java.util.Locale defaultLocale = java.util.Locale.getDefault();
        java.util.Locale formatLocale = java.util.Locale.getDefault(java.util.Locale.Category.FORMAT);
        try {
            Parent main = openMainWindow();
            Fx.await("the list to load", () -> status(main).matches("\\d+ customers"));
            Fx.run(() -> ((TextInputControl) main.lookup("#" + ListIds.CUSTOMER_FILTER)).setText("Natura"));
            Stage editor = Fx.call(() -> CustomerEditorWindow.open(ana, ana.customers().create(aCustomer()
                    .with(CustomerField.COMPANY, "Vale").with(CustomerField.EXTERNAL_REF, "TR-" + UUID.randomUUID())
                    .build()).id()));
            Fx.await("the editor to load", () -> text(root(editor), "#" + EditorIds.VERSION_LINE)
                    .startsWith("version 1"));
            typeInto(root(editor), CustomerField.COMPANY, "Vale Mineração");
            Menu language = Fx.call(() -> languageMenu(main));
            assertThat(Fx.call(() -> checked(language))).isEqualTo("English");
            assertThat(text(root(editor), "#" + EditorIds.SAVE_BUTTON)).isEqualTo("Save");

            Fx.run(() -> item(language, LanguageMenu.itemId(Language.SPANISH)).fire());

            Fx.await("the main window's menus in Spanish", () -> menus(main).equals(List.of("_Cliente", "_Edición",
                    "_Ver")));
            WaitForAsyncUtils.waitForFxEvents(); // the new tool bar's buttons are its skin's, made at the next pulse
            assertThat(text(main, "#new-customer")).isEqualTo("Nuevo cliente");
            assertThat(text(main, ".editor-note .heading")).isEqualTo("Ningún cliente seleccionado");
            assertThat(columns(main)).contains("Empresa", "Ciudad", "Versión");
            assertThat(Fx.call(() -> ((TextInputControl) main.lookup("#" + ListIds.CUSTOMER_FILTER)).getText()))
                    .as("the filter text kept").isEqualTo("Natura");
            assertThat(Fx.call(() -> checked(languageMenu(main)))).isEqualTo("Español");
            assertThat(text(root(editor), "#" + EditorIds.SAVE_BUTTON)).isEqualTo("Guardar");
            assertThat(text(root(editor), "#" + EditorIds.REVERT_BUTTON)).isEqualTo("Revertir");
            assertThat(text(root(editor), "#" + EditorIds.LOCK_MODE)).isEqualTo("Bloquear para editar");
            assertThat(Fx.call(() -> ((TextInputControl) root(editor).lookup("#" + EditorIds.field(
                    CustomerField.COMPANY))).getText())).as("the unsaved edit kept").isEqualTo("Vale Mineração");
            assertThat(Fx.call(() -> root(editor).lookup("#" + EditorIds.REVERT_BUTTON).isDisabled()))
                    .as("still unsaved: Revert offered").isFalse();
            assertThat(Texts.language()).isEqualTo(Language.SPANISH);
            assertThat(new LanguageChoice(prefs).stored()).contains(Language.SPANISH);
            assertThat(missing).as("texts without a Spanish translation").isEmpty();
        } finally {
            Texts.onMissing(before);
            Texts.use(Language.ENGLISH);
            java.util.Locale.setDefault(defaultLocale);
            java.util.Locale.setDefault(java.util.Locale.Category.FORMAT, formatLocale);
        }
    }

    private static Parent root(Stage stage) {
        return Fx.call(() -> stage.getScene().getRoot());
    }

    /**
     * 1280 px wide, the headless screen's width: narrower than the 1366×768 screens operators use, so a button that
     * fits here fits there (a window wider than the headless screen cannot be drawn).
     */
    @InEveryTranslation
    void at1280x768NoButtonOfTheMainWindowIsCut(Language language) {
        Parent main = openMainWindow();
        Fx.run(() -> {
            Stage stage = (Stage) main.getScene().getWindow();
            stage.setWidth(1280);
            stage.setHeight(768);
        });
        Fx.await("the list to load", () -> !status(main).isEmpty() && !status(main).endsWith("…"));
        // Bruno's customer: the lock bar's buttons show too.
        Fx.await("Bruno's customer in the list", () -> Fx.call(() -> {
            TableView<Customer> table = table(main);
            table.getItems().stream().filter(c -> c.id() == locked.id()).findFirst()
                    .ifPresent(c -> table.getSelectionModel().select(c));
            return !table.getSelectionModel().isEmpty();
        }));
        Fx.await("the lock bar", () -> !lockMessage(main).isEmpty());
        Fx.run(() -> main.layout());

        List<Labeled> buttons = Fx.call(() -> buttons(main).stream()
                .filter(l -> shown(l) && l.getText() != null && !l.getText().isEmpty()).toList());
        assertThat(buttons).extracting(Labeled::getText).contains(Texts.tr("Save"), Texts.tr("Break lock…"),
                Texts.tr("Lock for editing"));
        List<String> cut = Fx.call(() -> buttons.stream().filter(l -> l.getWidth() + 0.5 < l.prefWidth(-1))
                .map(l -> l.getText() + " (" + Math.round(l.getWidth()) + " < " + Math.round(l.prefWidth(-1))
                        + ")")
                .toList());
        assertThat(cut).as("buttons cut in %s", language.tag()).isEmpty();
        Fx.run(() -> main.getScene().getWindow().hide());
    }

    /** Every button, radio button and check box in the scene graph under {@code root}. */
    private static List<Labeled> buttons(Parent root) {
        List<Labeled> found = new java.util.ArrayList<>();
        for (Node child : root.getChildrenUnmodifiable()) {
            if (child instanceof javafx.scene.control.ButtonBase button) {
                found.add(button);
            }
            if (child instanceof Parent parent) {
                found.addAll(buttons(parent));
            }
        }
        return found;
    }

    /** Whether {@code node} and every parent of it are visible (a hidden banner's buttons are not laid out). */
    private static boolean shown(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private Parent openMainWindow() {
        return Fx.call(() -> {
            Stage stage = new Stage();
            MainWindow window = MainWindow.show(stage, ana);
            window.offerLanguages(new LanguageChoice(prefs));
            stage.setX(0);
            stage.setY(0);
            return window.root();
        });
    }

    private static Parent openEditor(Customer customer) {
        return Fx.call(() -> {
            Stage stage = CustomerEditorWindow.open(ana, customer.id());
            stage.setX(640);
            stage.setY(0);
            return stage.getScene().getRoot();
        });
    }

    private static void typeInto(Parent root, CustomerField field, String text) {
        Fx.run(() -> ((TextInputControl) root.lookup("#" + EditorIds.field(field))).setText(text));
    }

    private static String status(Parent main) {
        return text(main, "#status");
    }

    private static String text(Parent root, String selector) {
        return Fx.call(() -> {
            Node node = root.lookup(selector);
            if (node instanceof Labeled labeled) {
                return labeled.getText() == null ? "" : labeled.getText();
            }
            throw new AssertionError("no labelled node " + selector + " in the window");
        });
    }

    private static String lockMessage(Parent editor) {
        return Fx.call(() -> editor.lookup("#" + EditorIds.LOCK_BAR).isVisible()
                ? ((Label) editor.lookup("#" + EditorIds.LOCK_MESSAGE)).getText() : "");
    }

    /** The History tab's first row's value in the column headed {@code header}, or "" before it has one. */
    private static String history(Parent editor, String header) {
        return Fx.call(() -> {
            TableView<?> versions = (TableView<?>) editor.lookup("#" + EditorIds.HISTORY_VERSIONS);
            if (versions == null) {
                return "";
            }
            var value = versions.getColumns().stream().filter(c -> header.equals(c.getText())).findFirst()
                    .orElseThrow().getCellObservableValue(0);
            return value == null ? "" : String.valueOf(value.getValue());
        });
    }

    @SuppressWarnings("unchecked")
    private static TableView<Customer> table(Parent main) {
        return (TableView<Customer>) main.lookup("#" + ListIds.CUSTOMER_TABLE);
    }

    @SuppressWarnings("unchecked")
    private static List<String> columns(Parent main) {
        return Fx.call(() -> ((TableView<Customer>) main.lookup("#" + ListIds.CUSTOMER_TABLE)).getColumns().stream()
                .map(TableColumn::getText).toList());
    }

    /** The first row's value in the column headed {@code header} (shown or not: a narrow table hides Updated). */
    @SuppressWarnings("unchecked")
    private static String updated(Parent main, String header) {
        return Fx.call(() -> {
            var value = ((TableView<Customer>) main.lookup("#" + ListIds.CUSTOMER_TABLE)).getColumns().stream()
                    .filter(c -> header.equals(c.getText())).findFirst().orElseThrow().getCellObservableValue(0);
            return value == null ? "" : String.valueOf(value.getValue());
        });
    }

    private static List<String> menus(Parent main) {
        return Fx.call(() -> ((MenuBar) main.lookup(".menu-bar")).getMenus().stream().map(Menu::getText).toList());
    }

    private static Menu languageMenu(Parent main) {
        return ((MenuBar) main.lookup(".menu-bar")).getMenus().stream().flatMap(m -> m.getItems().stream())
                .filter(i -> LanguageMenu.MENU_ID.equals(i.getId())).map(Menu.class::cast).findFirst().orElseThrow();
    }

    private static String checked(Menu menu) {
        return menu.getItems().stream().filter(i -> i instanceof RadioMenuItem r && r.isSelected())
                .map(MenuItem::getText).findFirst().orElse("");
    }

    private static MenuItem item(Menu menu, String id) {
        return menu.getItems().stream().filter(i -> id.equals(i.getId())).findFirst().orElseThrow();
    }
}
