package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.ui.EditorLocale;

/**
 * A record's values as plain text an operator can paste into a mail or a note: one "Label: value" line per field,
 * multi-line values indented below their label. What "Copy mine" puts on the clipboard, so that no edit is lost
 * even when the operator discards them.
 */
public final class ReadableValues {

    private ReadableValues() {
    }

    /**
     * The values as text.
     *
     * @param title the first line, e.g. "My values for Embraer (customer 42, edited from version 5)"
     * @return lines separated by {@code \n}, ending with a line break
     */
    public static String of(String title, CustomerData data) {
        StringBuilder out = new StringBuilder(title).append('\n');
        for (CustomerField f : CustomerField.values()) {
            String value = EditorLocale.fields().format(data.get(f));
            out.append(f.label()).append(':');
            if (value.isEmpty()) {
                out.append(' ').append(tr("(empty)")).append('\n');
            } else if (f.multiLine() && value.contains("\n")) {
                out.append('\n');
                for (String line : value.split("\n", -1)) {
                    out.append("    ").append(line).append('\n');
                }
            } else {
                out.append(' ').append(value).append('\n');
            }
        }
        return out.toString();
    }
}
