package org.lockstep.server;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Server settings Lockstep sends at connection start (pgjdbc's {@code options} parameter, {@code -c name=value …})
 * combined with those a {@code --db-url} already carries. pgjdbc takes a parameter from the URL over the same one
 * given as a connection property, so a URL with {@code options=-c search_path=crm} would otherwise replace
 * Lockstep's {@code statement_timeout} and {@code lock_timeout} — and a save on a row held in psql would wait as long
 * as psql holds it. Lockstep's settings come first and the URL's after them: PostgreSQL applies the {@code -c}
 * settings in order, so a setting the URL names itself keeps the URL's value, and every other one is bounded.
 */
final class JdbcUrlOptions {

    private static final String OPTIONS = "options=";

    private JdbcUrlOptions() {
    }

    /**
     * {@code url} with {@code leading} placed before the URL's own {@code options}; {@code url} unchanged when it
     * has none (the caller passes {@code leading} as a connection property then).
     *
     * @param url     a pgjdbc URL, {@code jdbc:postgresql://HOST[:PORT]/DB[?k=v&…]}
     * @param leading settings in the {@code options} syntax, e.g. {@code -c statement_timeout=10000}
     */
    static String withLeadingOptions(String url, String leading) {
        int query = url.indexOf('?');
        if (query < 0) {
            return url;
        }
        List<String> kept = new ArrayList<>();
        String own = null;
        for (String parameter : url.substring(query + 1).split("&")) {
            if (parameter.startsWith(OPTIONS)) {
                // As pgjdbc reads it: URL-decoded, and the last one counts.
                own = URLDecoder.decode(parameter.substring(OPTIONS.length()), StandardCharsets.UTF_8);
            } else if (!parameter.isEmpty()) {
                kept.add(parameter);
            }
        }
        if (own == null) {
            return url;
        }
        kept.add(OPTIONS + URLEncoder.encode((leading + " " + own).strip(), StandardCharsets.UTF_8)
                .replace("+", "%20"));
        return url.substring(0, query + 1) + String.join("&", kept);
    }
}
