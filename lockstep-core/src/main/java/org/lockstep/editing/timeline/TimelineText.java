package org.lockstep.editing.timeline;

import static org.lockstep.text.Texts.tr;

import java.math.BigDecimal;
import java.text.NumberFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.lockstep.domain.AmountFormat;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.UnicodeText;
import org.lockstep.text.Texts;

/** How the timeline writes values, changes and times: short, NFC, lengths in code points. */
public final class TimelineText {

    /** "—": an absent value. */
    public static final String ABSENT = "—";
    /** Values longer than this many code points are cut with "…". */
    static final int VALUE_LENGTH = 28;
    private static final int FIELDS_SHOWN = 3;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private TimelineText() {
    }

    /** A value as the timeline shows it: amounts as {@code 1,100.00}, text cut to {@link #VALUE_LENGTH}. */
    static String value(Object v) {
        if (v == null) {
            return ABSENT;
        }
        String text = v instanceof BigDecimal d ? AmountFormat.NEUTRAL.format(d) : v.toString();
        text = UnicodeText.oneLine(text).strip();
        return text.isEmpty() ? ABSENT : cut(text, VALUE_LENGTH);
    }

    /** The fields whose values differ, in field order. */
    static List<CustomerField> changed(CustomerData before, CustomerData after) {
        List<CustomerField> fields = new ArrayList<>();
        for (CustomerField f : CustomerField.values()) {
            if (!CustomerData.sameValue(before.get(f), after.get(f))) {
                fields.add(f);
            }
        }
        return fields;
    }

    /** "Credit limit 1,000.00 → 1,100.00; Phone … → …" for at most three fields, then "+2 more". */
    static String changes(CustomerData before, CustomerData after) {
        List<CustomerField> fields = changed(before, after);
        if (fields.isEmpty()) {
            return tr("no field changed");
        }
        List<String> parts = new ArrayList<>();
        for (CustomerField f : fields.subList(0, Math.min(FIELDS_SHOWN, fields.size()))) {
            parts.add(f.label() + " " + value(before.get(f)) + " → " + value(after.get(f)));
        }
        String text = String.join("; ", parts);
        return fields.size() > FIELDS_SHOWN ? tr("{0}; +{1, number} more", text, fields.size() - FIELDS_SHOWN) : text;
    }

    /** Seconds with one decimal in the current language, without grouping: "15.0", "15,0". */
    static String seconds(double seconds) {
        NumberFormat format = NumberFormat.getNumberInstance(Texts.locale());
        format.setGroupingUsed(false);
        format.setMinimumFractionDigits(1);
        format.setMaximumFractionDigits(1);
        return format.format(seconds);
    }

    /** "14:05:09.123" in {@code zone}. */
    public static String time(Instant at, ZoneId zone) {
        return TIME.format(at.atZone(zone));
    }

    /**
     * {@code text} as one line ({@link UnicodeText#oneLine}), cut to at most {@code max} code points (the last one then "…"): a surrogate pair is never
     * split.
     */
    public static String cut(String text, int max) {
        String nfc = UnicodeText.oneLine(text);
        if (nfc.codePointCount(0, nfc.length()) <= max) {
            return nfc;
        }
        int end = nfc.offsetByCodePoints(0, max - 1);
        return nfc.substring(0, end) + "…";
    }
}
