package org.lockstep.app.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations as operators write them: {@code 60s}, {@code 500ms}, {@code 2m}, {@code 1h}, or plain seconds. */
public final class DurationConverter implements ITypeConverter<Duration> {

    private static final Pattern FORM = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
        Matcher m = FORM.matcher(value.strip());
        if (!m.matches()) {
            throw new TypeConversionException("'" + value + "' is not a duration (e.g. 60s, 500ms, 2m)");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration d = switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
        if (d.isZero()) {
            throw new TypeConversionException("a duration must be longer than zero");
        }
        return d;
    }
}
