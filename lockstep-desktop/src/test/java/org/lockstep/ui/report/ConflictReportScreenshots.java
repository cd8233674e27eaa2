package org.lockstep.ui.report;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;

/** Writes a JavaFX snapshot as PNG without javafx.swing: its ARGB pixels into an AWT image, for headless screenshots. */
public final class ConflictReportScreenshots {

    private ConflictReportScreenshots() {
    }

    /** Writes {@code image} to {@code file} as PNG. */
    public static void write(WritableImage image, Path file) throws IOException {
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                out.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        ImageIO.write(out, "png", file.toFile());
    }
}
