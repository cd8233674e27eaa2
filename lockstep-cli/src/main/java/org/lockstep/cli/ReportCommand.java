package org.lockstep.cli;

import java.time.ZoneId;
import java.util.concurrent.Callable;
import org.lockstep.report.ConflictReport;
import org.lockstep.report.ConflictReportFormats;
import org.lockstep.report.ConflictReports;
import org.lockstep.store.JdbiConflictReports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code lockstep report conflicts [--days 30] [--json]}: conflicts and merges per day, the customers with most
 * conflicts and who met them, and the hot-record alerts — the same report as Tools → Conflict report. Exit 0 with the
 * report; 2 when {@code --days} is out of range; 1 when the database cannot be reached.
 */
@Command(name = "report", description = "Reports for supervisors.", subcommands = ReportCommand.Conflicts.class)
public final class ReportCommand {

    @ParentCommand
    Launcher launcher;

    /** {@code lockstep report conflicts}. */
    @Command(name = "conflicts", description = {
            "Conflicts and merges per day: saves that hit zero rows, merges saved and abandoned, lease waits, broken and "
                    + "lapsed leases, lab retries exhausted; the conflict rate beside the saves; the customers with most "
                    + "conflicts and who met them; an alert line for each customer hot by the editor's rule "
                    + "(3 conflicts in 7 days).",
            "Days are the local time zone's (TZ)."})
    static final class Conflicts implements Callable<Integer> {
        @ParentCommand
        ReportCommand report;
        @Spec
        CommandSpec spec;
        @Option(names = "--days", paramLabel = "N", defaultValue = "30",
                description = "How many days back, today included: 1 to " + ConflictReport.MAX_DAYS
                        + ". Default 30.")
        int days;
        @Option(names = "--json", description = "Print JSON (keys: from, to, zone, read_at, hot_record, days, total, "
                + "customers, alerts) instead of a table.")
        boolean json;

        @Override
        public Integer call() {
            return CommandSupport.run(report.launcher, spec, false, s -> {
                ConflictReports.checkDays(days);
                ConflictReport r = new JdbiConflictReports(s.db().jdbi()).read(days, ZoneId.systemDefault());
                s.out().print(json ? ConflictReportFormats.jsonText(r) + System.lineSeparator()
                        : ConflictReportFormats.text(r));
                return ExitCodes.OK;
            });
        }
    }
}
