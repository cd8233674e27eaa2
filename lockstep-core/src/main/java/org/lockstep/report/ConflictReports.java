package org.lockstep.report;

import java.time.ZoneId;

/** Reads the {@link ConflictReport} from the database. Blocking: call it off the UI thread. */
public interface ConflictReports {

    /**
     * The report over the last {@code days} days (today included), grouped by the days of {@code zone}.
     *
     * @param days 1 to {@link ConflictReport#MAX_DAYS}
     * @throws IllegalArgumentException when {@code days} is out of range, naming it
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached
     */
    ConflictReport read(int days, ZoneId zone);

    /** Checks a number of days for {@link #read}; the message names {@code --days}. */
    static int checkDays(int days) {
        if (days < 1 || days > ConflictReport.MAX_DAYS) {
            throw new IllegalArgumentException("--days must be between 1 and " + ConflictReport.MAX_DAYS + ", not "
                    + days);
        }
        return days;
    }
}
