package org.lockstep.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.UnicodeText;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.DraftFile;
import org.lockstep.drafts.DraftJournal;
import org.lockstep.drafts.UnreadableDraftException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code lockstep drafts list|discard}: the unsaved edits the desktop journaled in this data directory's
 * {@code drafts/} (issue 28). It reads files only and needs no database; drafts never leave the machine.
 */
@Command(name = "drafts", description = "List or discard unsaved edits the desktop kept in this data directory.",
        subcommands = {DraftsCommand.ListDrafts.class, DraftsCommand.Discard.class})
public final class DraftsCommand {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @ParentCommand
    Launcher launcher;

    Path drafts() {
        return DraftJournal.under(launcher.config().dataDir());
    }

    /** {@code lockstep drafts list [--json]}: each draft's customer, base version, typed fields, and when. */
    @Command(name = "list", description = "Show the drafts: customer, the version they were typed on, the fields"
            + " typed and their values, and when. Exit 0, also when there are none.")
    static final class ListDrafts implements Callable<Integer> {
        @ParentCommand
        DraftsCommand drafts;
        @Spec
        CommandSpec spec;
        @Option(names = "--json", description = "Print a JSON array (fields by column name).")
        boolean json;

        @Override
        public Integer call() throws IOException {
            List<DraftFile> files = DraftJournal.listAll(drafts.drafts());
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                ArrayNode array = Json.mapper().createArrayNode();
                files.forEach(f -> array.add(json(f)));
                out.println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(array));
                return ExitCodes.OK;
            }
            if (files.isEmpty()) {
                out.println("no drafts in " + drafts.drafts());
                return ExitCodes.OK;
            }
            for (DraftFile f : files) {
                out.println(line(f));
                f.draft().ifPresent(d -> d.typed().forEach((field, text) -> out.printf("  %-14s%s%n",
                        field.column(), UnicodeText.oneLine(text))));
            }
            out.println(files.size() + " draft" + (files.size() == 1 ? "" : "s"));
            return ExitCodes.OK;
        }
    }

    /** {@code lockstep drafts discard ID|--all}: removes drafts of clients no longer running. */
    @Command(name = "discard", description = "Remove the drafts of one customer, or all of them. Drafts of a Lockstep"
            + " still running stay (it would write them again). Exit 3 when there was none to remove.")
    static final class Discard implements Callable<Integer> {
        @ParentCommand
        DraftsCommand drafts;
        @Spec
        CommandSpec spec;
        @ArgGroup(multiplicity = "1")
        Which which;

        static final class Which {
            @Parameters(paramLabel = "ID", description = "The customer whose drafts to remove.")
            Long id;
            @Option(names = "--all", description = "Remove every draft of every Lockstep no longer running.")
            boolean all;
        }

        @Override
        public Integer call() throws IOException {
            Predicate<DraftFile> chosen = which.all ? f -> true
                    : f -> f.draft().map(d -> d.customerId().isPresent()
                            && d.customerId().getAsLong() == which.id).orElse(false);
            List<DraftFile> removed = DraftJournal.discard(drafts.drafts(), chosen);
            long stillOpen = DraftJournal.listAll(drafts.drafts()).stream().filter(DraftFile::ownerRunning)
                    .filter(chosen).count();
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            if (stillOpen > 0) {
                err.println("lockstep: " + stillOpen + " draft" + (stillOpen == 1 ? " is" : "s are")
                        + " open in a Lockstep that is still running; close it there (Revert), or quit it first");
            }
            if (removed.isEmpty()) {
                err.println("lockstep: no draft" + (which.all ? "s" : " of customer " + which.id) + " to discard");
                return ExitCodes.CONFLICT;
            }
            out.println("discarded " + removed.size() + " draft" + (removed.size() == 1 ? "" : "s"));
            return ExitCodes.OK;
        }
    }

    private static String line(DraftFile f) {
        if (f.draft().isEmpty()) {
            UnreadableDraftException problem = f.problem().orElseThrow();
            // The parser's words quote what the file holds (a key, a character) and run over lines: one line, safe.
            String why = UnicodeText.oneLine(problem.getMessage());
            return UnicodeText.oneLine(f.path().getFileName().toString()) + ": "
                    + (problem.reason() == UnreadableDraftException.Reason.NEWER
                            ? "written by a newer Lockstep (" + why + "); kept" : "damaged (" + why + "); kept");
        }
        Draft d = f.draft().get();
        String who = d.customerId().isPresent() ? "customer " + d.customerId().getAsLong() + " on version "
                + d.baseVersion() : "a new customer";
        return who + ", by " + UnicodeText.oneLine(d.operator()) + ", "
                + WHEN.format(d.savedAt().atZone(ZoneId.systemDefault()))
                + (d.merge().isPresent() ? ", in a merge with version " + d.merge().get().theirsVersion() : "")
                + (f.ownerRunning() ? " (open in a running Lockstep)" : "");
    }

    private static ObjectNode json(DraftFile f) {
        ObjectNode node = Json.mapper().createObjectNode();
        node.put("file", f.path().toString());
        node.put("running", f.ownerRunning());
        f.problem().ifPresent(p -> node.put("unreadable", p.reason() == UnreadableDraftException.Reason.NEWER
                ? "newer" : "damaged").put("problem", p.getMessage()));
        f.draft().ifPresent(d -> {
            if (d.customerId().isPresent()) {
                node.put("id", d.customerId().getAsLong());
            } else {
                node.putNull("id");
            }
            node.put("baseVersion", d.baseVersion());
            node.put("operator", d.operator());
            node.put("savedAt", d.savedAt().toString());
            node.put("mode", d.mode().name().toLowerCase(java.util.Locale.ROOT));
            ObjectNode typed = node.putObject("typed");
            for (Map.Entry<CustomerField, String> e : d.typed().entrySet()) {
                typed.put(e.getKey().column(), e.getValue());
            }
            d.merge().ifPresent(m -> node.putObject("merge").put("theirsVersion", m.theirsVersion()));
        });
        return node;
    }
}
