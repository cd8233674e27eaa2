package org.lockstep.cli;

import java.math.BigInteger;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.lockstep.config.DurationRange;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads durations as operators write them — {@code 60s}, {@code 500ms}, {@code 2m}, {@code 1h}, or plain seconds —
 * and accepts only those within the option's {@link DurationRange}. Any number of digits is read without overflow:
 * {@code 9999999999999999h} is refused as too long, like {@code 999999h}, with the bounds in the message. picocli
 * names the option before the message ({@code Invalid value for option '--ttl': must be between 5s and 24h, not
 * 1ms}) and exits 2.
 */
public class DurationConverter implements ITypeConverter<Duration> {

    private static final Pattern FORM = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    private final DurationRange range;

    /** @param range the durations accepted */
    protected DurationConverter(DurationRange range) {
        this.range = range;
    }

    /** A lease's TTL: {@link DurationRange#LEASE_TTL}. */
    public static final class LeaseTtl extends DurationConverter {
        /** For picocli. */
        public LeaseTtl() {
            super(DurationRange.LEASE_TTL);
        }
    }

    /** An editor's idle limit: {@link DurationRange#LOCK_IDLE}. */
    public static final class LockIdle extends DurationConverter {
        /** For picocli. */
        public LockIdle() {
            super(DurationRange.LOCK_IDLE);
        }
    }

    @Override
    public Duration convert(String value) {
        String typed = value.strip();
        Matcher m = FORM.matcher(typed);
        if (!m.matches()) {
            throw new TypeConversionException("'" + value + "' is not a duration (e.g. 60s, 500ms, 2m)");
        }
        String unit = m.group(2) == null ? "s" : m.group(2);
        long unitMillis = switch (unit) {
            case "ms" -> 1;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> 1_000;
        };
        // Compared as a BigInteger first: the digits may not fit a long, nor their product with the unit.
        BigInteger millis = new BigInteger(m.group(1)).multiply(BigInteger.valueOf(unitMillis));
        if (millis.compareTo(BigInteger.valueOf(range.max().toMillis())) > 0) {
            throw new TypeConversionException(range.refusal(typed));
        }
        Duration d = Duration.ofMillis(millis.longValueExact());
        if (!range.contains(d)) {
            throw new TypeConversionException(range.refusal(typed));
        }
        return d;
    }
}
