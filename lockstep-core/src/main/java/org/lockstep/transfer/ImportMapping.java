package org.lockstep.transfer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.lockstep.transfer.CsvRecordReader.NumberedRecord;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.FieldParser;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;

/**
 * Which column of a CSV file fills which customer field, and the conversion of one record into customer values.
 *
 * <p>A column maps to the field of its header name ({@link CustomerField#byColumn}: case, blanks and hyphens do not
 * matter), unless a {@code SOURCE=FIELD} mapping names it, by its name or by its position ({@code 3=city});
 * {@code SOURCE=} with no field skips the column. The columns that {@code lockstep export} writes but an import
 * cannot set ({@code id}, {@code version}, {@code updated_at}, {@code updated_by}) are skipped, except {@code id}
 * when it is the key. When several mapped columns fill one field their non-blank values are joined, with a space
 * (a line break for multi-line fields): so {@code first_name} and {@code last_name} can both fill
 * {@code contact_name}. Two columns that fill one field by their names alone ({@code company,city,city}) are a
 * problem of the header until a mapping chooses; a mapped column takes the field from those that would fill it by
 * name.
 *
 * <p>A cell that {@code lockstep export} neutralized against spreadsheet formulas ({@code '=…}) is read as the value
 * without that quote ({@link FormulaNeutralization#restore}).
 */
public final class ImportMapping {

    /** Columns that Lockstep maintains itself: they appear in exports and JSON, but no import or command sets them. */
    public static final List<String> MAINTAINED = List.of("id", "version", "updated_at", "updated_by");

    /** Where one column's values go. */
    private sealed interface Target {
    }

    private record ToField(CustomerField field) implements Target {
    }

    private record ToVersion() implements Target {
    }

    private record ToId() implements Target {
    }

    private record Skipped() implements Target {
    }

    /** A column whose header cell is blank: accepted while its cells are blank, too. */
    private record Nameless() implements Target {
    }

    private final List<String> header;
    private final List<Target> targets;
    private final List<String> headerProblems;
    private final FieldParser parser;
    private final CsvDelimiter delimiter;

    private ImportMapping(List<String> header, List<Target> targets, List<String> headerProblems,
            FieldParser parser, CsvDelimiter delimiter) {
        this.header = header;
        this.targets = targets;
        this.headerProblems = headerProblems;
        this.parser = parser;
        this.delimiter = delimiter;
    }

    /**
     * Maps the header of a comma-separated file, reading amounts in the neutral format ({@code 1,500.50}); see
     * {@link #of(List, List, ImportKey, FieldParser, CsvDelimiter)}.
     */
    public static ImportMapping of(List<String> header, List<String> mappings, ImportKey key) {
        return of(header, mappings, key, FieldParser.NEUTRAL, CsvDelimiter.COMMA);
    }

    /**
     * Maps a header.
     *
     * @param header    the header record's values
     * @param mappings  {@code SOURCE=FIELD} texts, split at the last {@code =} so that a SOURCE may hold spaces,
     *                  slashes or {@code =}; a SOURCE that is a number no column is named picks the column at that
     *                  position (1 for the first), so that one of two columns with the same name can be chosen
     * @param key       the import key; with {@link ImportKey#ID} the {@code id} column is read, otherwise skipped
     * @param parser    reads the cells: text in NFC, amounts in its locale's separators
     * @param delimiter what separates the file's values, for messages
     * @throws IllegalArgumentException when a mapping is malformed, names a column the header lacks or several
     *         columns of the same name, maps a column already mapped, names a field that does not exist, or the key
     *         has no column; the message names the mapping
     */
    public static ImportMapping of(List<String> header, List<String> mappings, ImportKey key, FieldParser parser,
            CsvDelimiter delimiter) {
        Map<Integer, Target> explicit = new LinkedHashMap<>();
        Map<Integer, String> mappedBy = new HashMap<>();
        for (String mapping : mappings) {
            int eq = mapping.lastIndexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("--map \"" + mapping + "\": expected SOURCE=FIELD");
            }
            String source = mapping.substring(0, eq);
            String target = mapping.substring(eq + 1).strip();
            List<Integer> columns = ColumnLookup.columnsFor(header, mapping, source, !target.isEmpty());
            Target t = target.isEmpty() ? new Skipped() : explicitTarget(target, key)
                    .orElseThrow(() -> new IllegalArgumentException("--map \"" + mapping + "\": unknown field \""
                            + target + "\"; fields are " + fieldList()));
            for (int c : columns) {
                String earlier = mappedBy.putIfAbsent(c, mapping);
                if (earlier != null) {
                    throw new IllegalArgumentException("--map \"" + mapping + "\": column " + (c + 1)
                            + " is already mapped by --map \"" + earlier + "\"");
                }
                explicit.put(c, t);
            }
        }
        List<Target> targets = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            String name = header.get(i);
            Target t = explicit.get(i);
            if (t == null) {
                t = name.isBlank() ? new Nameless() : implicitTarget(name, key).orElse(null);
            }
            if (t == null) {
                unknown.add(name);
            }
            targets.add(t);
        }
        List<String> problems = new ArrayList<>(unknownColumnProblems(unknown));
        problems.addAll(resolveSharedTargets(header, targets, explicit.keySet()));
        ImportMapping mapping = new ImportMapping(List.copyOf(header), targets, problems, parser, delimiter);
        mapping.requireKeyColumn(key);
        return mapping;
    }

    /** How many unknown columns are each told on a line of their own; more are told as one line that counts them. */
    static final int UNKNOWN_COLUMNS_TOLD_ONE_BY_ONE = 3;

    /**
     * The problems of the header's columns that no field has the name of: one line each for a few, so that each can
     * be mapped or skipped; for a header of many (a wrong file, a spreadsheet's export of 10,000 columns) one line that
     * counts them and names the first few, instead of a screenful of nearly the same line.
     */
    private static List<String> unknownColumnProblems(List<String> unknown) {
        if (unknown.size() <= UNKNOWN_COLUMNS_TOLD_ONE_BY_ONE) {
            return unknown.stream().map(name -> "unknown column \"" + name + "\": no field has that name; map it with"
                    + " --map \"" + name + "=FIELD\" or skip it with --map \"" + name + "=\" (fields are "
                    + fieldList() + ")").toList();
        }
        int named = 5;
        String first = unknown.stream().limit(named).map(n -> "\"" + (n.length() > 40 ? n.substring(0, 39) + "…" : n)
                + "\"").collect(java.util.stream.Collectors.joining(", "));
        String more = unknown.size() > named ? String.format(java.util.Locale.ROOT, " and %,d more", unknown.size()
                - named) : "";
        return List.of(String.format(java.util.Locale.ROOT, "%,d unknown columns: ", unknown.size()) + first + more
                + ": no field has those names; map each with --map \"NAME=FIELD\" or skip it with --map \"NAME=\""
                + " (fields are " + fieldList() + ")");
    }

    /**
     * Columns that would fill the same field (or id, or version). Those a {@code --map} names are the operator's
     * choice: the others that would fill it by their name give way, and several named ones fill a text field
     * together (joined). With no {@code --map} to choose, two columns for one field are a problem: joining them
     * would store a value nobody typed ("Leeds York"), and taking either would drop the other.
     *
     * @param targets  changed in place: a column that gives way becomes skipped
     * @param explicit the columns a {@code --map} names
     * @return the problems, one per field
     */
    private static List<String> resolveSharedTargets(List<String> header, List<Target> targets,
            Set<Integer> explicit) {
        Map<Target, List<Integer>> byTarget = new LinkedHashMap<>();
        for (int i = 0; i < targets.size(); i++) {
            Target t = targets.get(i);
            if (t instanceof ToField || t instanceof ToId || t instanceof ToVersion) {
                byTarget.computeIfAbsent(t, k -> new ArrayList<>()).add(i);
            }
        }
        List<String> problems = new ArrayList<>();
        byTarget.forEach((target, columns) -> {
            if (columns.size() < 2) {
                return;
            }
            List<Integer> chosen = columns.stream().filter(explicit::contains).toList();
            if (chosen.isEmpty()) {
                problems.add(sharedTargetProblem(header, columns, targetName(target)));
                return;
            }
            columns.stream().filter(c -> !explicit.contains(c)).forEach(c -> targets.set(c, new Skipped()));
            if (chosen.size() > 1 && !(target instanceof ToField)) {
                problems.add("several columns map to " + targetName(target) + " (columns "
                        + ColumnLookup.positions(chosen) + "); at most one may");
            }
        });
        return problems;
    }

    private static String sharedTargetProblem(List<String> header, List<Integer> columns, String target) {
        String example = " (e.g. --map \"" + (columns.get(columns.size() - 1) + 1) + "=" + target + "\")";
        String first = header.get(columns.get(0));
        if (columns.stream().allMatch(c -> header.get(c).equals(first))) {
            String times = columns.size() == 2 ? "twice"
                    : String.format(Locale.ROOT, "%,d times", columns.size());
            return "header: column \"" + first + "\" appears " + times + " (columns " + ColumnLookup.positions(columns)
                    + "); use --map to choose one" + example;
        }
        String named = ColumnLookup.joined(columns.stream()
                .map(c -> (c + 1) + " (\"" + header.get(c) + "\")").toList());
        return "header: columns " + named + (columns.size() == 2 ? " both" : " all") + " fill " + target
                + "; use --map to choose one" + example;
    }

    private static String targetName(Target target) {
        if (target instanceof ToField f) {
            return f.field().column();
        }
        return target instanceof ToId ? "id" : "version";
    }

    /**
     * The header's names that no field, no column Lockstep maintains and no {@code --map} accounts for; blank names
     * count as accounted for. Used to tell which delimiter reads a header right.
     */
    public static List<String> unknownColumns(List<String> header, List<String> mappings) {
        Set<Integer> mapped = new HashSet<>();
        for (String mapping : mappings) {
            int eq = mapping.lastIndexOf('=');
            if (eq >= 0) {
                String source = mapping.substring(0, eq);
                mapped.addAll(ColumnLookup.columnsNamed(header, source));
                ColumnLookup.position(source, header.size()).ifPresent(p -> mapped.add(p - 1));
            }
        }
        List<String> unknown = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            String name = header.get(i);
            if (!name.isBlank() && !mapped.contains(i) && implicitTarget(name, ImportKey.NONE).isEmpty()) {
                unknown.add(name);
            }
        }
        return unknown;
    }

    private void requireKeyColumn(ImportKey key) {
        boolean present = switch (key) {
            case NONE -> true;
            case EXTERNAL_REF -> targets.contains(new ToField(CustomerField.EXTERNAL_REF));
            case ID -> targets.contains(new ToId());
        };
        if (!present) {
            String column = key == ImportKey.ID ? "id" : "external_ref";
            throw new IllegalArgumentException("--key " + column + ": the file has no " + column
                    + " column; its columns are " + ColumnLookup.quoted(header));
        }
    }

    private static Optional<Target> explicitTarget(String name, ImportKey key) {
        String column = name.strip().toLowerCase(Locale.ROOT);
        if (column.equals("id")) {
            return Optional.of(key == ImportKey.ID ? new ToId() : new Skipped());
        }
        return CustomerField.byColumn(name).map(ToField::new);
    }

    private static Optional<Target> implicitTarget(String name, ImportKey key) {
        String column = name.strip().toLowerCase(Locale.ROOT).replace(' ', '_').replace('-', '_');
        if (MAINTAINED.contains(column)) {
            if (column.equals("version") && key != ImportKey.NONE) {
                return Optional.of(new ToVersion()); // the version a keyed row's update is based on
            }
            return Optional.of(column.equals("id") && key == ImportKey.ID ? new ToId() : new Skipped());
        }
        return CustomerField.byColumn(name).map(ToField::new);
    }

    /** Problems with the header itself (unknown or doubly mapped columns); they belong to line 1. */
    public List<String> headerProblems() {
        return headerProblems;
    }

    /**
     * One record converted.
     *
     * @param line     the line the record starts on
     * @param id       the value of the {@code id} column when it is the key and not blank, else {@code null}
     * @param version  the value of the {@code version} column of a keyed import when not blank, else {@code null}
     * @param data     the values, normalized; {@code null} when there are problems
     * @param problems what is wrong with the record, each naming the field; empty when it may be imported
     */
    public record Converted(long line, Long id, Long version, CustomerData data, List<String> problems) {
    }

    /**
     * Converts and validates a record ({@link CustomerValidator}); a blank cell leaves its field absent, and a
     * neutralized cell stands for its value ({@link FormulaNeutralization#restore}).
     */
    public Converted convert(NumberedRecord record) {
        List<String> values = record.values();
        List<String> problems = new ArrayList<>();
        if (values.size() != header.size()) {
            problems.add("has " + values.size() + " value" + (values.size() == 1 ? "" : "s") + " but the header has "
                    + header.size() + " columns (is a value with a " + delimiter.word()
                    + " or a line break missing its quotes?)");
            return new Converted(record.line(), null, null, null, problems);
        }
        Map<CustomerField, List<String>> texts = new EnumMap<>(CustomerField.class);
        Long id = null;
        Long version = null;
        for (int i = 0; i < values.size(); i++) {
            // A cell export neutralized ('=…) stands for the value without its quote.
            String value = FormulaNeutralization.restore(values.get(i));
            if (value.indexOf(CsvRecordReader.UNDECODABLE) >= 0) {
                problems.add(header.get(i) + ": holds bytes that are not UTF-8 text; save the file as UTF-8 "
                        + "(it may be in Windows-1252 or Latin-1)");
            }
            Target target = targets.get(i);
            if (target instanceof ToField f) {
                if (!value.isBlank()) {
                    texts.computeIfAbsent(f.field(), k -> new ArrayList<>()).add(value);
                }
            } else if (target instanceof ToId && !value.isBlank()) {
                try {
                    id = Long.parseLong(value.strip());
                } catch (NumberFormatException e) {
                    problems.add("id: must be a whole number, not \"" + value.strip() + "\"");
                }
            } else if (target instanceof ToVersion && !value.isBlank()) {
                try {
                    version = Long.parseLong(value.strip());
                } catch (NumberFormatException e) {
                    problems.add("version: must be a whole number, not \"" + value.strip() + "\"");
                }
            } else if (target instanceof Nameless && !value.isBlank()) {
                problems.add("column " + (i + 1) + " has a value but no name in the header");
            }
        }
        Map<CustomerField, Object> parsed = new EnumMap<>(CustomerField.class);
        texts.forEach((field, parts) -> {
            String text = parts.size() == 1 ? parts.get(0)
                    : parts.stream().map(String::strip).collect(Collectors.joining(field.multiLine() ? "\n" : " "));
            try {
                parsed.put(field, parser.parse(field, text));
            } catch (FieldParser.InvalidValueException e) {
                problems.add(e.error().toString());
            }
        });
        CustomerData data = CustomerData.fromMap(parsed);
        CustomerValidator.validate(data).forEach(error -> problems.add(error.toString()));
        return new Converted(record.line(), id, version, problems.isEmpty() ? data.normalized() : null,
                List.copyOf(problems));
    }

    private static String fieldList() {
        return Arrays.stream(CustomerField.values()).map(CustomerField::column).collect(Collectors.joining(", "));
    }
}
