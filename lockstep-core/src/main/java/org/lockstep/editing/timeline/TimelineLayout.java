package org.lockstep.editing.timeline;

import static org.lockstep.text.Texts.tr;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.lockstep.editing.timeline.TimelineEvent.Shape;
import org.lockstep.editing.timeline.TimelineEvent.Source;

/**
 * Where each part of a {@link Timeline} goes on a page, in pixels, so that the JavaFX pane and the SVG file draw the
 * same picture: a title, one column per lane with its header and lifeline, and one row per event, time running down
 * the page, with its time (and which clock it is) at the left. Plain Java: the command line draws without JavaFX.
 */
public final class TimelineLayout {

    /** Width of the time column at the left. */
    public static final double TIME_WIDTH = 128;
    /** Width of one lane. */
    public static final double LANE_WIDTH = 270;
    /** Height of the title line. */
    public static final double TITLE_HEIGHT = 34;
    /** Height of the lane headers. */
    public static final double HEADER_HEIGHT = 40;
    /** Height of one event's row. */
    public static final double ROW_HEIGHT = 60;
    /** Height of a detail line. */
    public static final double DETAIL_LINE = 13;
    /** Space around the drawing. */
    public static final double MARGIN = 16;
    /** Labels and details are cut to this many code points (the whole text is in the tooltip or SVG title). */
    static final int LABEL_LENGTH = 44;

    /** The colours, as CSS/SVG hex: one place for both renderers. */
    public static final class Palette {
        /** Text, lifelines and the database's lane. */
        public static final String INK = "#37474f";
        /** Lost updates, conflicts and refusals. */
        public static final String ALARM = "#c62828";
        /** The background of the rows of the step just run. */
        public static final String HIGHLIGHT = "#fff3c4";
        /** The page. */
        public static final String PAPER = "#ffffff";
        /** Lane header fill. */
        public static final String HEADER = "#eceff1";
        /** Operators' colours, in lane order: Alice's blue and Bob's deep orange of the demo first (AA on white). */
        static final List<String> OPERATORS = List.of("#1565c0", "#bf360c", "#1b5e20", "#6a1b9a", "#00696f",
                "#5d4037");

        private Palette() {
        }
    }

    /**
     * A lane's column.
     *
     * @param name   operator or {@link Timeline#DATABASE}
     * @param x      the lifeline's x
     * @param colour its colour
     */
    public record Lane(String name, double x, String colour) {

        /** The name over the lane: an operator's name, or "Database" in the current language. */
        public String shownName() {
            return name.equals(Timeline.DATABASE) ? tr("Database") : name;
        }
    }

    /**
     * One event's row.
     *
     * @param event       the event
     * @param top         the row's top
     * @param y           the arrow's (or box's) y
     * @param fromX       where the arrow starts (the box's centre for {@link Shape#ON_DATABASE})
     * @param toX         where its head is
     * @param colour      its colour
     * @param dashed      only the client knows of it: drawn dashed
     * @param highlighted part of the step just run
     * @param time        "14:05:09.123"
     * @param clock       "database clock" or "client clock"
     * @param label       the label, cut
     * @param details     the detail, wrapped to at most two lines (the second cut), none when empty
     */
    public record Mark(TimelineEvent event, double top, double y, double fromX, double toX, String colour,
            boolean dashed, boolean highlighted, String time, String clock, String label,
            List<String> details) {

        /** The background behind this row's texts: the highlight's or the paper's. */
        public String background() {
            return highlighted ? Palette.HIGHLIGHT : Palette.PAPER;
        }
    }

    /** Height of one line of the caption. */
    public static final double CAPTION_LINE = 17;
    /** Roughly how wide a caption character is, in pixels (12 px sans-serif), to wrap the caption. */
    private static final double CHAR_WIDTH = 6.6;

    private final Timeline timeline;
    private final List<Lane> lanes = new ArrayList<>();
    private final List<Mark> marks = new ArrayList<>();
    private final List<String> caption;

    /** A layout without caption. */
    public TimelineLayout(Timeline timeline, ZoneId zone, int highlightFrom) {
        this(timeline, zone, highlightFrom, "");
    }

    /**
     * @param zone          the zone the times are shown in
     * @param highlightFrom the index of the first event of the step just run; events from there on are highlighted
     *                      ({@code events().size()} or more: none)
     * @param caption       lines under the title (the demo's step and "what to notice"), wrapped to the width; may
     *                      be empty
     */
    public TimelineLayout(Timeline timeline, ZoneId zone, int highlightFrom, String caption) {
        this.timeline = Objects.requireNonNull(timeline);
        int perLine = (int) ((TIME_WIDTH + timeline.lanes().size() * LANE_WIDTH) / CHAR_WIDTH);
        this.caption = wrap(TimelineText.cut(caption, perLine * 3), perLine);
        int operator = 0;
        for (int i = 0; i < timeline.lanes().size(); i++) {
            String name = timeline.lanes().get(i);
            String colour = name.equals(Timeline.DATABASE) ? Palette.INK
                    : Palette.OPERATORS.get(operator++ % Palette.OPERATORS.size());
            lanes.add(new Lane(name, MARGIN + TIME_WIDTH + i * LANE_WIDTH + LANE_WIDTH / 2, colour));
        }
        double top = headerTop() + HEADER_HEIGHT;
        for (int i = 0; i < timeline.events().size(); i++) {
            TimelineEvent e = timeline.events().get(i);
            Lane own = lane(e.lane());
            Lane db = lane(Timeline.DATABASE);
            double y = top + 22;
            double from = e.kind().shape() == Shape.FROM_DATABASE ? db.x() : own.x();
            double to = e.kind().shape() == Shape.TO_DATABASE ? db.x() : e.kind().shape() == Shape.ON_DATABASE
                    ? db.x() : own.x();
            String colour = e.alarm() ? Palette.ALARM : own.colour();
            boolean client = e.source() == Source.CLIENT;
            marks.add(new Mark(e, top, y, from, to, colour, client, i >= highlightFrom,
                    TimelineText.time(e.at(), zone), client ? tr("client clock") : tr("database clock"),
                    TimelineText.cut(e.label(), LABEL_LENGTH), details(e.detail())));
            top += ROW_HEIGHT;
        }
    }

    /** The detail in at most two lines of {@code LABEL_LENGTH + 14} code points, the second cut with "…". */
    private static List<String> details(String detail) {
        int width = LABEL_LENGTH + 14;
        List<String> lines = wrap(detail, width);
        if (lines.size() <= 2) {
            return lines;
        }
        return List.of(lines.get(0), TimelineText.cut(String.join(" ", lines.subList(1, lines.size())), width));
    }

    private Lane lane(String name) {
        return lanes.stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("No lane " + name));
    }

    /** The timeline laid out. */
    public Timeline timeline() {
        return timeline;
    }

    /** The lanes, left to right. */
    public List<Lane> lanes() {
        return List.copyOf(lanes);
    }

    /** The events' rows, top to bottom. */
    public List<Mark> marks() {
        return List.copyOf(marks);
    }

    /** The y of the lane headers' top. */
    public double headerTop() {
        return MARGIN + TITLE_HEIGHT + caption.size() * CAPTION_LINE;
    }

    /** The caption's lines, each to be drawn {@link #CAPTION_LINE} below the one before, after the title. */
    public List<String> caption() {
        return caption;
    }

    /** Word-wraps {@code text} to lines of at most {@code width} code points (a longer word gets a line of its own). */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.strip().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            int length = line.codePointCount(0, line.length());
            if (length > 0 && length + 1 + word.codePointCount(0, word.length()) > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return List.copyOf(lines);
    }

    /** The whole drawing's width. */
    public double width() {
        return MARGIN * 2 + TIME_WIDTH + lanes.size() * LANE_WIDTH;
    }

    /** The whole drawing's height (at least room for one row). */
    public double height() {
        return headerTop() + HEADER_HEIGHT + Math.max(1, marks.size()) * ROW_HEIGHT + MARGIN;
    }
}
