package org.lockstep.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;

/**
 * A customer as JSON, for the commands' {@code --json}: the only class of the customer commands that uses Jackson,
 * whose classes (some 380) and object mapper cost a command about 0.3 CPU-seconds to load and make (issue 30), so
 * that {@code lockstep get 1} without {@code --json} starts without them.
 */
final class CustomerJson {

    private static final ObjectMapper JSON = new ObjectMapper()
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private CustomerJson() {
    }

    /**
     * A customer as a JSON object whose keys are the column names: {@code id}, the fields, {@code version},
     * {@code updated_at} (ISO-8601, UTC) and {@code updated_by}; absent values are {@code null} and the credit
     * limit is a number.
     */
    static ObjectNode json(Customer c) {
        ObjectNode node = JSON.createObjectNode();
        node.put("id", c.id());
        for (CustomerField f : CustomerField.values()) {
            Object v = c.data().get(f);
            if (v == null) {
                node.putNull(f.column());
            } else if (v instanceof BigDecimal d) {
                node.put(f.column(), d);
            } else {
                node.put(f.column(), (String) v);
            }
        }
        node.put("version", c.version());
        node.put("updated_at", c.updatedAt().toString());
        node.put("updated_by", c.updatedBy());
        return node;
    }

    /** Prints a customer as an indented JSON object. */
    static void print(PrintWriter out, Customer c) {
        try {
            JSON.writerWithDefaultPrettyPrinter().writeValue(out, json(c));
            out.println();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A streaming JSON writer over {@code out}, for output too large to build in memory. */
    static JsonGenerator generator(PrintWriter out) throws IOException {
        return JSON.getFactory().createGenerator(out).useDefaultPrettyPrinter();
    }

    /** Writes one customer to a streaming JSON writer. */
    static void write(JsonGenerator generator, Customer c) throws IOException {
        JSON.writeTree(generator, json(c));
    }
}
