package org.lockstep.screenshots;

import java.awt.image.BufferedImage;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;

/** Turns a JavaFX snapshot into an image {@code ImageIO} writes (headless: no SwingFXUtils). */
final class Screens {

    private Screens() {
    }

    /** The snapshot's pixels as an ARGB image of the same size. */
    static BufferedImage image(WritableImage snapshot) {
        int w = (int) snapshot.getWidth();
        int h = (int) snapshot.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = snapshot.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                out.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        return out;
    }
}
