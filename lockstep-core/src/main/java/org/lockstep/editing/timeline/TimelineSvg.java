package org.lockstep.editing.timeline;

import static org.lockstep.text.Texts.tr;

import java.text.Normalizer;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.lockstep.editing.timeline.TimelineEvent.Shape;
import org.lockstep.editing.timeline.TimelineLayout.Lane;
import org.lockstep.editing.timeline.TimelineLayout.Mark;
import org.lockstep.editing.timeline.TimelineLayout.Palette;

/**
 * Writes a laid-out timeline as an SVG 1.1 document (for slides): the same picture as the pane, in plain Java so that
 * {@code lockstep timeline ID --svg FILE} needs no JavaFX. Every text is NFC and XML-escaped, and characters XML
 * cannot carry (controls other than tab and newline) are dropped (XML 1.0, section 2.2 Characters). Each event is a
 * {@code <g class="event">} whose {@code <title>} holds its whole label and detail.
 */
public final class TimelineSvg {

    /** A band of paper around event texts, so that a lifeline they cross does not strike them through. */
    private static String halo(Mark m) {
        return "stroke=\"" + m.background() + "\" stroke-width=\"4\" paint-order=\"stroke\"";
    }

    private TimelineSvg() {
    }

    /** The SVG document of {@code layout}, its caption included. */
    public static String write(TimelineLayout layout) {
        StringBuilder svg = new StringBuilder(4096);
        double w = layout.width();
        double h = layout.height();
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" viewBox=\"0 0 ").append(n(w)).append(' ')
                .append(n(h)).append("\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n");
        svg.append("<title>").append(escape(layout.timeline().title())).append("</title>\n");
        markers(svg, layout);
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"").append(Palette.PAPER).append("\"/>\n");
        text(svg, TimelineLayout.MARGIN, TimelineLayout.MARGIN + 16, "start", "font-size=\"16\" font-weight=\"bold\"",
                Palette.INK, layout.timeline().cut() ? tr("{0} (latest 400 rows of each)", layout.timeline().title())
                        : layout.timeline().title());
        for (int i = 0; i < layout.caption().size(); i++) {
            text(svg, TimelineLayout.MARGIN, TimelineLayout.MARGIN + TimelineLayout.TITLE_HEIGHT + 2
                    + i * TimelineLayout.CAPTION_LINE, "start", "font-style=\"italic\"", Palette.INK,
                    layout.caption().get(i));
        }
        lanes(svg, layout);
        for (Mark m : layout.marks()) {
            event(svg, m);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static void markers(StringBuilder svg, TimelineLayout layout) {
        Set<String> colours = new LinkedHashSet<>();
        layout.marks().forEach(m -> colours.add(m.colour()));
        svg.append("<defs>\n");
        for (String c : colours) {
            svg.append("<marker id=\"head-").append(c.substring(1)).append("\" viewBox=\"0 0 10 10\" refX=\"10\" ")
                    .append("refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\">")
                    .append("<path d=\"M0,0 L10,5 L0,10 z\" fill=\"").append(c).append("\"/></marker>\n");
        }
        svg.append("</defs>\n");
    }

    private static void lanes(StringBuilder svg, TimelineLayout layout) {
        double top = layout.headerTop();
        double bottom = layout.height() - TimelineLayout.MARGIN;
        for (Lane lane : layout.lanes()) {
            double half = TimelineLayout.LANE_WIDTH / 2 - 12;
            svg.append("<g class=\"lane\">");
            svg.append("<rect x=\"").append(n(lane.x() - half)).append("\" y=\"").append(n(top))
                    .append("\" width=\"").append(n(half * 2)).append("\" height=\"28\" rx=\"4\" fill=\"")
                    .append(Palette.HEADER).append("\" stroke=\"").append(lane.colour()).append("\"/>");
            text(svg, lane.x(), top + 19, "middle", "font-weight=\"bold\"", lane.colour(), lane.shownName());
            svg.append("<line x1=\"").append(n(lane.x())).append("\" y1=\"").append(n(top + 28)).append("\" x2=\"")
                    .append(n(lane.x())).append("\" y2=\"").append(n(bottom)).append("\" stroke=\"")
                    .append(lane.colour()).append("\" stroke-width=\"1.5\" stroke-dasharray=\"2 4\"/>");
            svg.append("</g>\n");
        }
    }

    private static void event(StringBuilder svg, Mark m) {
        TimelineEvent e = m.event();
        svg.append("<g class=\"event\" data-kind=\"").append(e.kind().name().toLowerCase(Locale.ROOT))
                .append("\" data-source=\"").append(e.source().name().toLowerCase(Locale.ROOT)).append("\">");
        svg.append("<title>").append(escape(e.label() + (e.detail().isEmpty() ? "" : " — " + e.detail())))
                .append("</title>");
        if (m.highlighted()) {
            svg.append("<rect x=\"").append(n(TimelineLayout.MARGIN / 2)).append("\" y=\"").append(n(m.top()))
                    .append("\" width=\"100%\" height=\"").append(n(TimelineLayout.ROW_HEIGHT - 2))
                    .append("\" fill=\"").append(Palette.HIGHLIGHT).append("\"/>");
        }
        text(svg, TimelineLayout.MARGIN, m.y() + 4, "start", "font-family=\"DejaVu Sans Mono, monospace\"",
                Palette.INK, m.time());
        text(svg, TimelineLayout.MARGIN, m.y() + 18, "start", "font-size=\"10\"", Palette.INK, m.clock());
        double mid = (m.fromX() + m.toX()) / 2;
        if (e.kind().shape() == Shape.ON_DATABASE) {
            svg.append("<rect x=\"").append(n(mid - 90)).append("\" y=\"").append(n(m.y() - 14))
                    .append("\" width=\"180\" height=\"20\" rx=\"3\" fill=\"").append(Palette.PAPER)
                    .append("\" stroke=\"").append(m.colour()).append("\"/>");
            text(svg, mid, m.y() + 1, "middle", halo(m), m.colour(), m.label());
        } else {
            svg.append("<line x1=\"").append(n(m.fromX())).append("\" y1=\"").append(n(m.y())).append("\" x2=\"")
                    .append(n(m.toX())).append("\" y2=\"").append(n(m.y())).append("\" stroke=\"").append(m.colour())
                    .append("\" stroke-width=\"2\"").append(m.dashed() ? " stroke-dasharray=\"6 4\"" : "")
                    .append(" marker-end=\"url(#head-").append(m.colour().substring(1)).append(")\"/>");
            text(svg, mid, m.y() - 5, "middle", halo(m) + (e.alarm() ? " font-weight=\"bold\"" : ""), m.colour(),
                    m.label());
        }
        for (int i = 0; i < m.details().size(); i++) {
            text(svg, mid, m.y() + 17 + i * TimelineLayout.DETAIL_LINE, "middle", halo(m) + " font-size=\"10.5\"",
                    Palette.INK, m.details().get(i));
        }
        svg.append("</g>\n");
    }

    private static void text(StringBuilder svg, double x, double y, String anchor, String attributes, String fill,
            String text) {
        svg.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" text-anchor=\"")
                .append(anchor).append("\" fill=\"").append(fill).append('"')
                .append(attributes.isEmpty() ? "" : " " + attributes).append('>').append(escape(text))
                .append("</text>");
    }

    private static String n(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /** {@code text} in NFC with XML's five special characters escaped and characters XML cannot hold dropped. */
    static String escape(String text) {
        String nfc = Normalizer.normalize(text, Normalizer.Form.NFC);
        StringBuilder out = new StringBuilder(nfc.length() + 16);
        nfc.codePoints().forEach(cp -> {
            switch (cp) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    boolean allowed = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF)
                            || (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
                    if (allowed) {
                        out.appendCodePoint(cp);
                    }
                }
            }
        });
        return out.toString();
    }
}
