package org.lockstep.store;

import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A Java time zone as PostgreSQL's {@code AT TIME ZONE} reads it the same way. A region ({@code Asia/Kolkata}) is
 * passed by name. A fixed offset is not: Java's {@code +05:30}, {@code GMT+05:30} and {@code UTC+05:30} are east of
 * Greenwich, but PostgreSQL reads such text as a POSIX zone, positive <em>west</em> of Greenwich (PostgreSQL docs,
 * 8.5.3 Time Zones and B.5 POSIX Time Zone Specifications), so the report's days would be shifted by twice the offset
 * and the rows near their ends dropped. A JVM run with {@code TZ=GMT+5} or {@code -Duser.timezone=GMT+05:30} has
 * such a default zone. A fixed offset is therefore written in POSIX form with its sign turned.
 */
final class SqlZone {

    private SqlZone() {
    }

    /** The text to bind where SQL says {@code AT TIME ZONE :zone} for the days of {@code zone}. */
    static String of(ZoneId zone) {
        if (!(zone.normalized() instanceof ZoneOffset offset)) {
            return zone.getId();
        }
        int east = offset.getTotalSeconds();
        if (east == 0) {
            return "UTC";
        }
        int west = -east;
        int abs = Math.abs(west);
        return String.format(java.util.Locale.ROOT, "%s%02d:%02d:%02d", west < 0 ? "-" : "+", abs / 3600,
                abs / 60 % 60, abs % 60);
    }
}
