package org.lockstep.app.csv;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.lockstep.app.csv.CsvRecordReader.NumberedRecord;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.FieldParser;
import org.lockstep.store.CustomerBulkStore.ImportKey;

/**
 * Which column of a CSV file fills which customer field, and the conversion of one record into customer values.
 *
 * <p>A column maps to the field of its header name ({@link CustomerField#byColumn}: case, blanks and hyphens do not
 * matter), unless a {@code SOURCE=FIELD} mapping names it; {@code SOURCE=} with no field skips the column. The
 * columns that {@code lockstep export} writes but an import cannot set ({@code id}, {@code version},
 * {@code updated_at}, {@code updated_by}) are skipped, except {@code id} when it is the key. When several columns map
 * to one field their non-blank values are joined, with a space (a line break for multi-line fields): so
 * {@code first_name} and {@code last_name} can both fill {@code contact_name}.
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

    private ImportMapping(List<String> header, List<Target> targets, List<String> headerProblems,
                          FieldParser parser) {
        this.header = header;
        this.targets = targets;
        this.headerProblems = headerProblems;
        this.parser = parser;
    }

    /** Maps a header, reading amounts in the neutral format ({@code 1,500.50}); see the other {@code of}. */
    public static ImportMapping of(List<String> header, List<String> mappings, ImportKey key) {
        return of(header, mappings, key, FieldParser.NEUTRAL);
    }

    /**
     * Maps a header.
     *
     * @param header   the header record's values
     * @param mappings {@code SOURCE=FIELD} texts, split at the last {@code =} so that a SOURCE may hold spaces,
     *                 slashes or {@code =}
     * @param key      the import key; with {@link ImportKey#ID} the {@code id} column is read, otherwise skipped
     * @param parser   reads the cells: text in NFC, amounts in its locale's separators
     * @throws IllegalArgumentException when a mapping is malformed, names a column the header lacks or a field that
     *         does not exist, or the key has no column; the message names it
     */
    public static ImportMapping of(List<String> header, List<String> mappings, ImportKey key, FieldParser parser) {
        Map<Integer, Target> mapped = new LinkedHashMap<>();
        for (String mapping : mappings) {
            int eq = mapping.lastIndexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("--map \"" + mapping + "\": expected SOURCE=FIELD");
            }
            String source = mapping.substring(0, eq);
            String target = mapping.substring(eq + 1).strip();
            List<Integer> columns = columnsNamed(header, source);
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("--map \"" + mapping + "\": the file has no column \"" + source
                        + "\"; its columns are " + quoted(header));
            }
            Target t = target.isEmpty() ? new Skipped() : explicitTarget(target, key)
                    .orElseThrow(() -> new IllegalArgumentException("--map \"" + mapping + "\": unknown field \""
                            + target + "\"; fields are " + fieldList()));
            columns.forEach(c -> mapped.put(c, t));
        }
        List<Target> targets = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            String name = header.get(i);
            Target t = mapped.get(i);
            if (t == null) {
                t = name.isBlank() ? new Nameless() : implicitTarget(name, key).orElse(null);
            }
            if (t == null) {
                problems.add("unknown column \"" + name + "\": no field has that name; map it with --map \"" + name
                        + "=FIELD\" or skip it with --map \"" + name + "=\" (fields are " + fieldList() + ")");
            }
            targets.add(t);
        }
        if (targets.stream().filter(t -> t instanceof ToId).count() > 1) {
            problems.add("several columns map to id; at most one may");
        }
        ImportMapping mapping = new ImportMapping(List.copyOf(header), targets, problems, parser);
        mapping.requireKeyColumn(key);
        return mapping;
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
                    + " column; its columns are " + quoted(header));
        }
    }

    private static List<Integer> columnsNamed(List<String> header, String source) {
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

    /** Converts and validates a record ({@link CustomerValidator}); a blank cell leaves its field absent. */
    public Converted convert(NumberedRecord record) {
        List<String> values = record.values();
        List<String> problems = new ArrayList<>();
        if (values.size() != header.size()) {
            problems.add("has " + values.size() + " value" + (values.size() == 1 ? "" : "s") + " but the header has "
                    + header.size() + " columns (is a value with a comma or a line break missing its quotes?)");
            return new Converted(record.line(), null, null, null, problems);
        }
        Map<CustomerField, List<String>> texts = new EnumMap<>(CustomerField.class);
        Long id = null;
        Long version = null;
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
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

    private static String quoted(List<String> names) {
        return names.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(", "));
    }
}
