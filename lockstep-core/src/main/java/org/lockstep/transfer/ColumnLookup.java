package org.lockstep.transfer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * Finds the columns of a header that a {@code --map} SOURCE names: by header name (exactly, else ignoring case and
 * surrounding blanks), or by 1-based position when SOURCE is a number no column is named; and words columns for
 * messages.
 */
final class ColumnLookup {

    private ColumnLookup() {
    }

    /**
     * The columns a mapping's SOURCE names: those of that name, else the column at that position.
     *
     * @param choosing whether the mapping fills a field (rather than skipping), so must name one column
     */
    static List<Integer> columnsFor(List<String> header, String mapping, String source, boolean choosing) {
        List<Integer> named = columnsNamed(header, source);
        OptionalInt position = position(source, header.size());
        if (position.isPresent() && !named.isEmpty() && !named.equals(List.of(position.getAsInt() - 1))) {
            throw new IllegalArgumentException("--map \"" + mapping + "\": \"" + source.strip() + "\" is the name of "
                    + "column " + positions(named) + " and the position of column " + position.getAsInt()
                    + "; rename the column in the file to map it");
        }
        if (!named.isEmpty()) {
            if (named.size() > 1 && choosing) {
                throw new IllegalArgumentException("--map \"" + mapping + "\": the file has "
                        + String.format(Locale.ROOT, "%,d", named.size()) + " columns named \"" + source
                        + "\" (columns " + positions(named) + "); choose one by its "
                        + "position, e.g. --map \"" + (named.get(named.size() - 1) + 1) + mapping.substring(
                                mapping.lastIndexOf('='))
                        + "\"");
            }
            return named;
        }
        if (position.isPresent()) {
            return List.of(position.getAsInt() - 1);
        }
        throw new IllegalArgumentException("--map \"" + mapping + "\": the file has no column \"" + source
                + "\"; its columns are " + quoted(header) + (isNumber(source) ? " (a number picks a column by "
                        + "position, 1 to " + header.size() + ")" : ""));
    }

    /** A SOURCE that is a whole number from 1 to the number of columns, as a 1-based position. */
    static OptionalInt position(String source, int columns) {
        if (!isNumber(source)) {
            return OptionalInt.empty();
        }
        try {
            int p = Integer.parseInt(source.strip());
            return p >= 1 && p <= columns ? OptionalInt.of(p) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty(); // too many digits for any file
        }
    }

    private static boolean isNumber(String source) {
        String s = source.strip();
        return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** The columns named SOURCE exactly, else those named so ignoring case and surrounding blanks. */
    static List<Integer> columnsNamed(List<String> header, String source) {
        List<Integer> exact = new ArrayList<>();
        List<Integer> loose = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            if (header.get(i).equals(source)) {
                exact.add(i);
            } else if (header.get(i).strip().equalsIgnoreCase(source.strip())) {
                loose.add(i);
            }
        }
        return exact.isEmpty() ? loose : exact;
    }

    /**
     * How many columns a message names before it counts the rest: a header of 10,000 columns named alike (or a
     * {@code --map} of a column such a file lacks) once printed all of them on one line of 59,000 characters (issue
     * 28, seen by hand), where the first few tell the operator what is wrong.
     */
    static final int LISTED = 10;

    /** Longer names are cut to this many characters in a message (with an ellipsis), as unknown columns are. */
    static final int NAME_SHOWN = 40;

    /** 1-based positions: "2 and 3", "2, 3 and 5"; beyond {@value #LISTED}, "1, 2, … 10 and 9,990 more". */
    static String positions(List<Integer> columns) {
        return joined(columns.stream().map(c -> Integer.toString(c + 1)).toList());
    }

    /**
     * Items as a person lists them: "a", "a and b", "a, b and c"; beyond {@value #LISTED} items, the first ones and
     * how many more ("a, b, … j and 9,990 more").
     */
    static String joined(List<String> items) {
        if (items.size() > LISTED) {
            return String.join(", ", items.subList(0, LISTED)) + more(items.size());
        }
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    /**
     * Names, each in double quotes, comma-separated; beyond {@value #LISTED} names, the first ones and how many more;
     * a name longer than {@value #NAME_SHOWN} characters cut with an ellipsis.
     */
    static String quoted(List<String> names) {
        String listed = names.stream().limit(LISTED).map(n -> "\"" + shown(n) + "\"")
                .collect(Collectors.joining(", "));
        return names.size() > LISTED ? listed + more(names.size()) : listed;
    }

    private static String shown(String name) {
        return name.length() > NAME_SHOWN ? name.substring(0, NAME_SHOWN - 1) + "…" : name;
    }

    private static String more(int total) {
        return String.format(Locale.ROOT, " and %,d more", total - LISTED);
    }
}
