package org.lockstep.ui.timeline;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.Node;
import javafx.scene.SnapshotParameters;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.transform.Transform;
import javax.imageio.ImageIO;
import org.lockstep.editing.timeline.TimelineLayout;
import org.lockstep.editing.timeline.TimelineSvg;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a timeline to a file: PNG from the drawn node (a snapshot at twice the screen's scale, sharp on a projector),
 * SVG from the layout through {@link TimelineSvg}. The PNG goes through {@code java.desktop}'s ImageIO, so that no
 * javafx-swing is needed. FX thread for the PNG (snapshots are taken there).
 */
public final class TimelineExport {

    static final Logger LOG = LoggerFactory.getLogger(TimelineExport.class);
    /** The PNG's pixels per drawing pixel. */
    static final double PNG_SCALE = 2;

    /** A write that may fail with an I/O error. */
    @FunctionalInterface
    interface Write {
        void run() throws IOException;
    }

    private TimelineExport() {
    }

    /** Writes {@code node} as a PNG image. FX thread. */
    public static void png(Node node, Path file) throws IOException {
        SnapshotParameters params = new SnapshotParameters();
        params.setTransform(Transform.scale(PNG_SCALE, PNG_SCALE));
        WritableImage image = node.snapshot(params, null);
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                out.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        if (!ImageIO.write(out, "png", file.toFile())) {
            throw new IOException("no PNG writer in this Java runtime");
        }
    }

    /** Writes the timeline as SVG, UTF-8. */
    public static void svg(TimelineLayout layout, Path file) throws IOException {
        Files.writeString(file, TimelineSvg.write(layout), StandardCharsets.UTF_8);
    }
}
