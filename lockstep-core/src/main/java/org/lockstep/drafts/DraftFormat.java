package org.lockstep.drafts;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;

/**
 * A {@link Draft} as the JSON of one file under {@code drafts/}. Fields go by their column names, so a file stays
 * readable to a person and to {@code lockstep drafts list --json}. Every file names its format; a file of a later
 * format (a newer Lockstep wrote it) is kept untouched and reported, never half read.
 */
final class DraftFormat {

    /** The format this Lockstep writes and reads. */
    static final int FORMAT = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    private DraftFormat() {
    }

    static byte[] write(Draft draft) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("key", draft.key());
        draft.customerId().ifPresent(id -> root.put("customerId", id));
        root.put("baseVersion", draft.baseVersion());
        root.set("base", values(draft.base()));
        root.set("typed", texts(draft.typed()));
        root.put("mode", draft.mode().name());
        draft.leaseToken().ifPresent(token -> root.put("leaseToken", token));
        root.put("operator", draft.operator());
        root.put("savedAt", draft.savedAt().toString());
        draft.merge().ifPresent(merge -> {
            ObjectNode m = root.putObject("merge");
            m.put("theirsVersion", merge.theirsVersion());
            m.set("theirs", values(merge.theirs()));
            m.set("resolved", texts(merge.resolved()));
            m.set("choices", choices(merge.choices()));
        });
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A draft could not be written as JSON", e);
        }
    }

    /**
     * Reads one file's bytes.
     *
     * @throws UnreadableDraftException when the bytes are not a whole draft of this format, or of a later one
     */
    static Draft read(byte[] bytes) throws UnreadableDraftException {
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (java.io.IOException e) {
            throw new UnreadableDraftException(UnreadableDraftException.Reason.DAMAGED, e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new UnreadableDraftException(UnreadableDraftException.Reason.DAMAGED, "not a JSON object");
        }
        int format = root.path("format").asInt(-1);
        if (format > FORMAT) {
            throw new UnreadableDraftException(UnreadableDraftException.Reason.NEWER,
                    "format " + format + ", this Lockstep reads format " + FORMAT);
        }
        if (format != FORMAT) {
            throw new UnreadableDraftException(UnreadableDraftException.Reason.DAMAGED, "no format");
        }
        try {
            Optional<MergeDraft> merge = Optional.empty();
            JsonNode m = root.get("merge");
            if (m != null && m.isObject()) {
                // "choices" came later within format 1: a merge without them holds what the operator wrote.
                JsonNode how = m.get("choices");
                merge = Optional.of(new MergeDraft(required(m, "theirsVersion").asLong(),
                        values(required(m, "theirs")), texts(required(m, "resolved")),
                        how == null || how.isNull() ? Map.of() : choices(how)));
            }
            return new Draft(required(root, "key").asText(), optionalLong(root, "customerId"),
                    required(root, "baseVersion").asLong(), values(required(root, "base")),
                    texts(required(root, "typed")), ConcurrencyMode.valueOf(required(root, "mode").asText()),
                    optionalLong(root, "leaseToken"), required(root, "operator").asText(),
                    Instant.parse(required(root, "savedAt").asText()), merge);
        } catch (IllegalArgumentException | DateTimeParseException | ClassCastException e) {
            throw new UnreadableDraftException(UnreadableDraftException.Reason.DAMAGED, e.getMessage());
        }
    }

    private static JsonNode required(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("no " + name);
        }
        return value;
    }

    private static OptionalLong optionalLong(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? OptionalLong.empty() : OptionalLong.of(value.asLong());
    }

    private static ObjectNode values(CustomerData data) {
        ObjectNode out = JSON.createObjectNode();
        for (CustomerField field : CustomerField.values()) {
            Object value = data.get(field);
            if (value instanceof BigDecimal amount) {
                out.put(field.column(), amount.toPlainString());
            } else if (value != null) {
                out.put(field.column(), (String) value);
            }
        }
        return out;
    }

    /**
     * Stored values (a base, a merge's other side): an amount must be one the store can hold. A file changed by
     * anything but Lockstep could otherwise hold {@code 9e99999999}, which reads in an instant and takes the FX thread
     * forever to show (its plain form has a hundred million digits): the restore froze the desktop.
     */
    private static CustomerData values(JsonNode node) {
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        for (Map.Entry<CustomerField, String> e : texts(node).entrySet()) {
            values.put(e.getKey(), e.getKey().numeric() ? storedAmount(e.getValue()) : e.getValue());
        }
        return CustomerData.fromMap(values);
    }

    private static BigDecimal storedAmount(String text) {
        BigDecimal amount = new BigDecimal(text);
        if (amount.signum() < 0 || amount.compareTo(CustomerValidator.MAX_CREDIT_LIMIT) > 0
                || amount.stripTrailingZeros().scale() > 2) {
            throw new IllegalArgumentException("not an amount the store holds: " + text);
        }
        return amount;
    }

    private static ObjectNode texts(Map<CustomerField, String> texts) {
        ObjectNode out = JSON.createObjectNode();
        for (CustomerField field : CustomerField.values()) {
            String text = texts.get(field);
            if (text != null) {
                out.put(field.column(), text);
            }
        }
        return out;
    }

    /** {@code {"city": {"how": "MINE"}, "notes": {"how": "PARTS", "parts": ["MINE", "BOTH"]}}}. */
    private static ObjectNode choices(Map<CustomerField, MergeDraft.Choice> choices) {
        ObjectNode out = JSON.createObjectNode();
        for (CustomerField field : CustomerField.values()) {
            MergeDraft.Choice choice = choices.get(field);
            if (choice != null) {
                ObjectNode c = out.putObject(field.column());
                c.put("how", choice.how().name());
                if (!choice.parts().isEmpty()) {
                    ArrayNode parts = c.putArray("parts");
                    choice.parts().forEach(p -> parts.add(p.name()));
                }
            }
        }
        return out;
    }

    private static Map<CustomerField, MergeDraft.Choice> choices(JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("choices are not an object");
        }
        Map<CustomerField, MergeDraft.Choice> out = new EnumMap<>(CustomerField.class);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            CustomerField field = CustomerField.byColumn(e.getKey())
                    .orElseThrow(() -> new IllegalArgumentException("no field " + e.getKey()));
            List<HunkChoice> parts = new ArrayList<>();
            for (JsonNode part : e.getValue().path("parts")) {
                parts.add(HunkChoice.valueOf(part.asText()));
            }
            out.put(field, new MergeDraft.Choice(MergeDraft.How.valueOf(required(e.getValue(), "how").asText()),
                    parts));
        }
        return out;
    }

    private static Map<CustomerField, String> texts(JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("fields are not an object");
        }
        Map<CustomerField, String> out = new EnumMap<>(CustomerField.class);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            CustomerField field = CustomerField.byColumn(e.getKey())
                    .orElseThrow(() -> new IllegalArgumentException("no field " + e.getKey()));
            out.put(field, e.getValue().asText());
        }
        return out;
    }
}
