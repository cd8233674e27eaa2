package org.lockstep.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.animation.PauseTransition;
import javafx.collections.ListChangeListener;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxToolkit;

/**
 * The starting window shows only for a start slower than {@link StartingWindow#SHOW_AFTER}: closed before that, as a
 * quick start closes it when its main window is up, it never shows, not even once the time has passed; left open, it
 * shows with its message. LockstepApplicationTest starts the whole application on a database held back.
 */
@WindowTest
class StartingWindowTest {

    private final List<String> shown = new CopyOnWriteArrayList<>();
    private final ListChangeListener<Window> recorder = change -> {
        while (change.next()) {
            change.getAddedSubList().forEach(w -> shown.add(w instanceof Stage s ? s.getTitle() : w.toString()));
        }
    };

    @BeforeEach
    void recordWindows() throws Exception {
        FxToolkit.registerPrimaryStage();
        Fx.run(() -> Window.getWindows().addListener(recorder));
    }

    @AfterEach
    void stopRecording() {
        Fx.run(() -> Window.getWindows().removeListener(recorder));
    }

    @Test
    void closedBeforeItsTimeItNeverShows() throws Exception {
        StartingWindow w = Fx.call(() -> {
            StartingWindow started = StartingWindow.showUnlessQuick("Lockstep — starting", "Starting database…");
            started.close(); // the main window was up first
            return started;
        });

        // Twice its time, measured by the FX thread's own clock.
        CountDownLatch passed = new CountDownLatch(1);
        Fx.run(() -> {
            PauseTransition twice = new PauseTransition(StartingWindow.SHOW_AFTER.multiply(2));
            twice.setOnFinished(e -> passed.countDown());
            twice.play();
        });
        assertThat(passed.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(Fx.call(w::isShowing)).isFalse();
        assertThat(shown).doesNotContain("Lockstep — starting");
    }

    @Test
    void leftOpenItShowsOnceItsTimeHasPassedAndClosesWhenAsked() {
        StartingWindow w = Fx.call(() -> {
            StartingWindow started = StartingWindow.showUnlessQuick("Lockstep — starting", "Starting database…");
            assertThat(started.isShowing()).isFalse(); // not at once
            return started;
        });

        Fx.await("the starting window", w::isShowing);
        assertThat(shown).containsOnlyOnce("Lockstep — starting");

        Fx.run(w::close);
        assertThat(Fx.call(w::isShowing)).isFalse();
    }

    @Test
    void shownAtOnceWhenAskedAndNeverOnceClosed() {
        StartingWindow asked = Fx.call(() -> {
            StartingWindow w = StartingWindow.showUnlessQuick("Lockstep — starting", "Starting database…");
            w.showNow(); // a sign-in dialog is about to show
            assertThat(w.isShowing()).isTrue();
            w.showNow(); // a second refusal: still the one window
            return w;
        });
        assertThat(shown).containsOnlyOnce("Lockstep — starting");
        Fx.run(asked::close);

        StartingWindow closed = Fx.call(() -> {
            StartingWindow w = StartingWindow.showUnlessQuick("Lockstep — closed", "Starting database…");
            w.close();
            w.showNow();
            return w;
        });
        assertThat(Fx.call(closed::isShowing)).isFalse();
        assertThat(shown).doesNotContain("Lockstep — closed");
    }
}
