package org.lockstep.ui.report;

import static org.lockstep.text.Texts.tr;

import java.time.ZoneId;
import javafx.scene.Scene;
import javafx.scene.control.MenuItem;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.lockstep.text.Texts;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.report.ConflictReports;
import org.lockstep.ui.Windows;
import org.lockstep.ui.main.MainWindow;

/** The Conflict report in a window of its own (Tools → Conflict report), read when it opens. */
public final class ConflictReportWindow {

    /** Initial width in pixels: fits a 1280×800 screen. */
    public static final double WIDTH = 1240;
    /** Initial height in pixels. */
    public static final double HEIGHT = 780;
    /** The Tools menu item's id. */
    public static final String MENU_ITEM_ID = "open-conflict-report";

    private ConflictReportWindow() {
    }

    /**
     * Adds Tools → Conflict report… to {@code window}; each choice opens a report window (or brings the open one to
     * the front).
     */
    public static void offer(MainWindow window, ConflictReports reports, TaskExecutor executor) {
        String text = Texts.key("Conflict _report…"); // given again in a new language
        MenuItem item = new MenuItem(tr(text));
        item.setId(MENU_ITEM_ID);
        Stage[] open = new Stage[1];
        item.setOnAction(e -> {
            if (open[0] != null && open[0].isShowing()) {
                open[0].toFront();
                return;
            }
            open[0] = open(window.stage(), reports, executor);
        });
        window.addToolsItem(item, text);
    }

    /**
     * Opens and shows the report window; the report over the last 30 days is read in the background.
     *
     * @param owner    the window it belongs to, or {@code null}
     * @param reports  reads the report
     * @param executor runs the reads and exports off the FX thread
     * @return the window's stage, already showing
     */
    public static Stage open(Window owner, ConflictReports reports, TaskExecutor executor) {
        ConflictReportViewModel vm = new ConflictReportViewModel(reports, executor, ZoneId.systemDefault());
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(tr("Lockstep — conflict report"));
        stage.setScene(new Scene(new ConflictReportView(vm).root(), WIDTH, HEIGHT));
        stage.setMinWidth(760);
        stage.setMinHeight(520);
        Windows.showAtSize(stage, WIDTH, HEIGHT);
        vm.refresh();
        return stage;
    }
}
