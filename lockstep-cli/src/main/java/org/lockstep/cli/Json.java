package org.lockstep.cli;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The commands' plain JSON writer, made the first time a command prints JSON. Picocli makes an object of every
 * subcommand at each start, so a mapper in a command's static field was built by every command, {@code --json} or
 * not: Jackson's classes and the mapper cost {@code lockstep get 1} about 0.3 CPU-seconds (issue 30).
 */
final class Json {

    private Json() {
    }

    /** The shared mapper (thread-safe once configured, which it never is again). */
    static ObjectMapper mapper() {
        return Holder.MAPPER;
    }

    private static final class Holder {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }
}
