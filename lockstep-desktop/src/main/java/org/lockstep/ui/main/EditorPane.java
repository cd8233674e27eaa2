package org.lockstep.ui.main;

import static org.lockstep.text.Texts.tr;

import java.util.function.Supplier;
import javafx.beans.InvalidationListener;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.lockstep.ui.editor.CustomerEditorView;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.editor.EditorState;

/**
 * The main window's editor side. While its editor has no customer ({@link EditorState#EMPTY}) and nothing to say, it
 * shows a note: "No customer selected", where a customer's name goes, and how to get one. From the first customer
 * chosen or started — and for a message, such as a load that failed — it shows the editor's view, which it builds
 * then, the first time it is needed.
 *
 * <p>Why: with no customer the editor showed its whole form, empty and disabled, and building, styling, skinning and
 * laying out that form was the largest part of the main window's first frame — about 0.2 of the 1.5 CPU-seconds a
 * start may spend to its first page (issue 30; docs/benchmarks.md, "Issue 30, phase 6"). It is now done when the
 * operator first chooses a customer, which a start does not wait for. The editor's view reads its view model's state
 * when it is built (as after a language switch), so nothing the editor said before is lost.
 */
final class EditorPane {

    private final StackPane root = new StackPane();
    private final CustomerEditorViewModel editor;
    private final Supplier<CustomerEditorView> build;
    private final VBox note;
    private CustomerEditorView view;
    private final InvalidationListener follow = o -> showWhatFits();

    /**
     * @param editor the pane's editor
     * @param build  makes that editor's view, once it has a customer or a message; called at most once, FX thread
     */
    EditorPane(CustomerEditorViewModel editor, Supplier<CustomerEditorView> build) {
        this.editor = editor;
        this.build = build;
        Label heading = new Label(tr("No customer selected"));
        heading.getStyleClass().add("heading");
        Label help = new Label(tr("Choose a customer in the list to edit it here, or press Ctrl+N for a new one."));
        help.getStyleClass().add("help");
        help.setWrapText(true);
        note = new VBox(heading, help);
        note.getStyleClass().add("editor-note");
        root.setId("editor-pane");
        root.getChildren().setAll(note);
        editor.stateProperty().addListener(follow);
        editor.noticeProperty().addListener(follow);
        showWhatFits();
    }

    /** The node to put in the window. */
    Parent root() {
        return root;
    }

    /** Whether the editor is shown rather than the note. */
    boolean showsEditor() {
        return view != null && root.getChildren().contains(view.root());
    }

    /** Whether the editor's merge or delete-conflict dialog is open ({@link CustomerEditorView#hasOpenDialog()}). */
    boolean hasOpenDialog() {
        return view != null && view.hasOpenDialog();
    }

    /**
     * Hands the editor over to the pane of a window built again in another language: the text being typed goes into
     * the edit buffer ({@link CustomerEditorView#retire()}), and this pane stops following the editor. FX thread.
     */
    void retire() {
        editor.stateProperty().removeListener(follow);
        editor.noticeProperty().removeListener(follow);
        if (view != null) {
            view.retire();
        }
    }

    private void showWhatFits() {
        boolean needed = editor.stateProperty().get() != EditorState.EMPTY || editor.noticeProperty().get() != null;
        if (needed == showsEditor()) {
            return;
        }
        if (needed && view == null) {
            view = build.get();
        }
        root.getChildren().setAll(needed ? view.root() : note);
    }
}
