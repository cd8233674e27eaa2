package org.lockstep.ui;

import javafx.stage.Stage;

/** Showing Lockstep's top-level windows the same way everywhere. */
public final class Windows {

    private Windows() {
    }

    /**
     * Shows a stage at its intended size. The size is applied again once the stage is shown: some window managers
     * (seen with Openbox) map a new stage at its minimum size, whatever the scene asked for.
     *
     * @param width  the width in pixels
     * @param height the height in pixels
     */
    public static void showAtSize(Stage stage, double width, double height) {
        stage.show();
        stage.setWidth(width);
        stage.setHeight(height);
    }
}
