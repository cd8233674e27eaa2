package org.lockstep.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table for the terminal: a header row, then rows, columns padded to their widest cell. */
final class Table {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... header) {
        this.header = List.of(header);
    }

    /** Adds a row; numbers are formatted by the caller. */
    Table row(Object... cells) {
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(String.valueOf(c));
        }
        rows.add(r);
        return this;
    }

    void print(PrintWriter out) {
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = header.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], i < r.size() ? r.get(i).length() : 0);
            }
        }
        line(out, header, width);
        StringBuilder rule = new StringBuilder();
        for (int w : width) {
            rule.append("-".repeat(w)).append("  ");
        }
        out.println(rule.toString().stripTrailing());
        rows.forEach(r -> line(out, r, width));
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < width.length; i++) {
            String c = i < cells.size() ? cells.get(i) : "";
            // Text left, numbers right: the usual reading order for a results table.
            boolean numeric = !c.isEmpty() && (Character.isDigit(c.charAt(0)) || c.charAt(0) == '-');
            s.append(numeric && i > 0 ? " ".repeat(width[i] - c.length()) + c : c + " ".repeat(width[i] - c.length()));
            s.append("  ");
        }
        out.println(s.toString().stripTrailing());
    }
}
