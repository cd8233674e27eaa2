package org.lockstep.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableView;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.awaitility.Awaitility;
import org.lockstep.cli.Launcher;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.ui.editor.CustomerEditorView;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.editor.EditorState;
import org.lockstep.ui.list.ListIds;
import org.lockstep.ui.merge.MergeViewModel;

/**
 * Lockstep's desktop in a child JVM, for tests that end it as a crash does ({@link CrashRecoveryTest}): the product's
 * own command line and desktop ({@link Launcher} with {@link DesktopApp}, as {@link Main} runs them) on the main
 * thread, and a driver on another that reads one command a line on stdin, does it through the windows' real controls
 * on the FX thread, and answers one line on stdout: {@code ok …} or {@code fail …}. Waits are bounded (60 s).
 *
 * <p>Commands ({@code ID} a customer's id, {@code new} for an editor of a customer not yet created):
 * {@code editor ID} waits until its editor window has loaded and answers its version and the focused control;
 * {@code type ID FIELD TEXT…} sets a field's text (the column name, e.g. {@code phone}); {@code save ID} presses Save;
 * {@code saved ID V} waits until the editor shows version V, clean; {@code save-new} presses Save in the editor of a
 * new customer and answers its id once created;
 * {@code open ID} selects the customer in the main window's list and presses Open in new window;
 * {@code merge ID} waits for its merge dialog and answers the version merged with and each changed field's status;
 * {@code press-merge ID BUTTON} presses a button of that dialog (e.g. {@code use-mine-city}, {@code save-merged});
 * {@code offered N} waits until the main window offers N drafts and answers their keys;
 * {@code restore KEY} / {@code discard KEY} press that draft's button; {@code notice ID} answers the editor's notice;
 * {@code quit} ends the application.
 */
public final class DrivenDesktop {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private DrivenDesktop() {
    }

    /** @param args {@code lockstep}'s arguments, e.g. {@code --db-url URL --data-dir DIR --user Alice edit 4} */
    public static void main(String[] args) {
        PrintStream out = System.out;
        Thread driver = new Thread(() -> drive(out), "test-driver");
        driver.setDaemon(true);
        driver.start();
        int code = Launcher.commandLine(new DesktopApp()).execute(args);
        out.println("exit " + code);
        out.flush();
        System.exit(code);
    }

    private static void drive(PrintStream out) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String answer;
                try {
                    answer = "ok " + run(line.split(" ", -1));
                } catch (RuntimeException | AssertionError e) {
                    answer = "fail " + line + ": " + e;
                }
                out.println(answer.replace('\n', ' '));
                out.flush();
            }
        } catch (java.io.IOException e) {
            out.println("fail stdin: " + e);
        }
    }

    private static String run(String[] w) {
        switch (w[0]) {
            case "editor" -> {
                Stage editor = await("the editor of " + w[1], () -> editor(w[1])
                        .filter(s -> loaded(vm(s))));
                return fx(() -> "version " + vm(editor).buffer().baseProperty().get().version() + " focus "
                        + Optional.ofNullable(editor.getScene().getFocusOwner()).map(Node::getId).orElse("none"));
            }
            case "new-editor" -> {
                Stage editor = await("an editor of a new customer", () -> editor("new"));
                return fx(() -> notice(editor));
            }
            case "type" -> {
                String text = String.join(" ", Arrays.asList(w).subList(3, w.length));
                CustomerField field = CustomerField.byColumn(w[2]).orElseThrow();
                Stage editor = editor(w[1]).orElseThrow();
                return fx(() -> {
                    ((TextInputControl) byId(editor, EditorIds.field(field))).setText(text);
                    return text;
                });
            }
            case "save" -> {
                Stage editor = editor(w[1]).orElseThrow();
                return fx(() -> press(editor, EditorIds.SAVE_BUTTON));
            }
            case "saved" -> {
                long version = Long.parseLong(w[2]);
                Stage editor = await("version " + version + " of " + w[1], () -> editor(w[1])
                        .filter(s -> fx(() -> vm(s).buffer().baseProperty().get() != null
                                && vm(s).buffer().baseProperty().get().version()
                                        == version
                                && !vm(s).buffer().dirtyProperty().get())));
                return fx(() -> "customer " + vm(editor).customerId().getAsLong() + " version " + version);
            }
            case "save-new" -> {
                Stage editor = editor("new").orElseThrow();
                fx(() -> press(editor, EditorIds.SAVE_BUTTON));
                await("the new customer saved", () -> fx(() -> vm(editor).customerId().isPresent()
                        && !vm(editor).buffer().dirtyProperty().get() ? Optional.of(editor) : Optional.empty()));
                return fx(() -> "customer " + vm(editor).customerId().getAsLong() + " version "
                        + vm(editor).buffer().baseProperty().get().version());
            }
            case "notice" -> {
                Stage editor = editor(w[1]).orElseThrow();
                return fx(() -> notice(editor));
            }
            case "open" -> {
                long id = Long.parseLong(w[1]);
                Stage main = await("the main window's list", () -> mainWindow().filter(s -> fx(() -> table(s)
                        .getItems().stream().anyMatch(c -> ((Customer) c).id() == id))));
                return fx(() -> {
                    TableView<?> table = table(main);
                    table.getItems().stream().filter(c -> ((Customer) c).id() == id).findFirst()
                            .ifPresent(c -> select(table, c));
                    return press(main, "open-window");
                });
            }
            case "merge" -> {
                Stage dialog = await("the merge of " + w[1], () -> mergeDialog(w[1]));
                return fx(() -> {
                    MergeViewModel merge = vm(editor(w[1]).orElseThrow()).conflicts().mergeProperty().get();
                    return "theirs " + merge.theirs().orElseThrow().version() + " " + merge.rows().stream()
                            .filter(r -> r.isChanged())
                            .map(r -> r.field().column() + "=" + r.getStatus().replace(' ', '_'))
                            .collect(Collectors.joining(" ")) + " notice="
                            + merge.noticeProperty().get()
                                    .replace(' ', '_')
                            + " dialog=" + dialog.isShowing();
                });
            }
            case "press-merge" -> {
                Stage dialog = mergeDialog(w[1]).orElseThrow();
                return fx(() -> press(dialog, w[2]));
            }
            case "offered" -> {
                int count = Integer.parseInt(w[1]);
                Stage main = await("the main window", DrivenDesktop::mainWindow);
                return await(count + " drafts offered", () -> {
                    List<String> keys = fx(() -> offeredKeys(main));
                    return keys.size() == count ? Optional.of(String.join(" ", keys)) : Optional.empty();
                });
            }
            case "headline" -> {
                Stage main = mainWindow().orElseThrow();
                return fx(() -> ((Labeled) byId(main, "drafts-headline")).getText());
            }
            case "restore", "discard" -> {
                Stage main = mainWindow().orElseThrow();
                return fx(() -> press(main, w[0] + "-draft-" + w[1]));
            }
            case "quit" -> {
                Platform.runLater(Platform::exit);
                return "quitting";
            }
            default -> throw new IllegalArgumentException("no command " + w[0]);
        }
    }

    /** The editor window of customer {@code id}, or of a customer not yet created for {@code new}. */
    private static Optional<Stage> editor(String id) {
        return fx(() -> Window.getWindows().stream().filter(w -> w.getUserData() instanceof CustomerEditorView)
                .map(Stage.class::cast).filter(s -> {
                    CustomerEditorViewModel vm = vm(s);
                    return id.equals("new") ? vm.stateProperty().get() == EditorState.NEW
                            : vm.customerId().isPresent() && vm.customerId().getAsLong() == Long.parseLong(id);
                }).findFirst());
    }

    private static boolean loaded(CustomerEditorViewModel vm) {
        return fx(() -> vm.stateProperty().get() == EditorState.EDITING && vm.buffer().baseProperty().get() != null);
    }

    private static CustomerEditorViewModel vm(Stage editor) {
        return ((CustomerEditorView) editor.getUserData()).viewModel();
    }

    private static Optional<Stage> mergeDialog(String id) {
        return fx(() -> editor(id).flatMap(editor -> Window.getWindows().stream()
                .filter(w -> w instanceof Stage s && s.getOwner() == editor && s.isShowing()
                        && s.getScene().getRoot().lookup("#save-merged") != null)
                .map(Stage.class::cast).findFirst()));
    }

    private static Optional<Stage> mainWindow() {
        return fx(() -> Window.getWindows().stream().filter(w -> w instanceof Stage && w.isShowing()
                && w.getScene().getRoot().lookup("#" + ListIds.CUSTOMER_TABLE) != null).map(Stage.class::cast)
                .findFirst());
    }

    private static TableView<?> table(Stage main) {
        return (TableView<?>) byId(main, ListIds.CUSTOMER_TABLE);
    }

    @SuppressWarnings("unchecked")
    private static <T> void select(TableView<T> table, Object item) {
        table.getSelectionModel().select((T) item);
    }

    private static List<String> offeredKeys(Stage main) {
        return main.getScene().getRoot().lookupAll("Label").stream().map(Node::getId)
                .filter(id -> id != null && id.startsWith("draft-")).map(id -> id.substring("draft-".length()))
                .sorted().toList();
    }

    private static String notice(Stage editor) {
        Node bar = byId(editor, EditorIds.NOTICE_BAR);
        return bar.isVisible() ? ((Labeled) byId(editor, EditorIds.NOTICE_TEXT)).getText() : "none";
    }

    private static Node byId(Stage stage, String id) {
        Node n = stage.getScene().getRoot().lookup("#" + id);
        if (n == null) {
            throw new AssertionError("no #" + id + " in " + stage.getTitle());
        }
        return n;
    }

    private static String press(Stage stage, String id) {
        ButtonBase button = (ButtonBase) byId(stage, id);
        if (button.isDisabled()) {
            throw new AssertionError("#" + id + " is disabled in " + stage.getTitle());
        }
        button.fire();
        return id;
    }

    private static <T> T await(String what, Supplier<Optional<T>> found) {
        // Before the toolkit has started (the first command may come first) runLater throws: wait on.
        return Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(found::get, Optional::isPresent).orElseThrow();
    }

    private static <T> T fx(Supplier<T> onFxThread) {
        if (Platform.isFxApplicationThread()) {
            return onFxThread.get();
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                result.complete(onFxThread.get());
            } catch (RuntimeException | AssertionError e) {
                result.completeExceptionally(e);
            }
        });
        try {
            return result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the FX thread did not answer: " + e, e);
        }
    }
}
