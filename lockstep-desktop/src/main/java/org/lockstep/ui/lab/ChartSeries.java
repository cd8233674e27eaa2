package org.lockstep.ui.lab;

import java.util.List;

/**
 * One series of a chart as plain data: the view model computes it, the view turns it into chart nodes
 * ({@code XYChart.Series}), so that no view model builds a {@code javafx.scene} object.
 *
 * @param name   the legend's name
 * @param points the points in order: category (x) and value (y)
 */
public record ChartSeries(String name, List<Point> points) {

    /** Copies the points. */
    public ChartSeries {
        points = List.copyOf(points);
    }

    /** A series without points yet. */
    public static ChartSeries empty(String name) {
        return new ChartSeries(name, List.of());
    }

    /**
     * One point.
     *
     * @param category the x category (a strategy id, a worker count)
     * @param value    the y value
     */
    public record Point(String category, double value) {
    }
}
