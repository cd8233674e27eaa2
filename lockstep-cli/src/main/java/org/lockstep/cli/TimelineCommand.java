package org.lockstep.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import org.lockstep.domain.RecordedStory;
import org.lockstep.domain.UnicodeText;
import org.lockstep.editing.timeline.Timeline;
import org.lockstep.editing.timeline.TimelineEvent;
import org.lockstep.editing.timeline.TimelineLayout;
import org.lockstep.editing.timeline.TimelineSvg;
import org.lockstep.editing.timeline.TimelineText;
import org.lockstep.editing.timeline.Timelines;
import org.lockstep.store.JdbiHistoryRepository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep timeline ID [--svg FILE]}: a customer's story as the database recorded it — saves, conflicts,
 * deletes and re-creations, lease grants, takeovers, releases, breaks and lapses — one line per event on stdout, or
 * drawn as a sequence diagram into an SVG file. A deleted customer still has its timeline; an id no customer ever had
 * exits 3 ("no customer N"), as every command does.
 */
@Command(name = "timeline", description = "Show a customer's timeline: who saved, conflicted, locked, when.")
public final class TimelineCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
    long id;

    @Option(names = "--svg", paramLabel = "FILE", description = "Write the timeline as an SVG sequence diagram.")
    Path svg;

    @Override
    public Integer call() {
        return CommandSupport.run(launcher, spec, false, s -> {
            List<RecordedStory> stories = Timelines.read(new JdbiHistoryRepository(s.db().jdbi()), id);
            if (stories.get(0).isEmpty()) {
                return CommandSupport.missing(s, id, "");
            }
            Timeline timeline = Timelines.build(stories);
            ZoneId zone = ZoneId.systemDefault();
            if (svg != null) {
                Files.writeString(svg, TimelineSvg.write(new TimelineLayout(timeline, zone, Integer.MAX_VALUE)),
                        StandardCharsets.UTF_8);
                s.out().println("Wrote " + svg + ": " + timeline.events().size() + " events of "
                        + timeline.title() + ".");
            } else {
                s.out().println(UnicodeText.oneLine(timeline.title())
                        + (timeline.cut() ? " (latest " + RecordedStory.LIMIT + " rows of each)" : ""));
                for (TimelineEvent e : timeline.events()) {
                    // Names and values may hold what psql let in: one event stays one line, and drives no terminal.
                    s.out().printf("%s  %-10s %s%n", TimelineText.time(e.at(), zone), UnicodeText.oneLine(e.lane()),
                            UnicodeText.oneLine(e.label() + (e.detail().isEmpty() ? "" : " — " + e.detail())));
                }
            }
            return ExitCodes.OK;
        });
    }
}
