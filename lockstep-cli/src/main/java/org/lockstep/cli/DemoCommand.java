package org.lockstep.cli;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.lockstep.text.Language;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep demo}: two operator windows, Alice and Bob, each its own client of the demo's own database — never the
 * operators' (issue 27): {@code lockstep_demo} on the embedded server, made afresh at each start, or with
 * {@code --db-url} the URL's database with {@code _demo} added — and the Trainer panel with its seven scenarios; with
 * two or more screens, Alice and Bob get a screen each and the Trainer panel goes on {@code --trainer-screen N}. Leases
 * last {@link Desktop#DEMO_LEASE_TTL} unless {@code --lease-ttl} says otherwise, so that a crashed holder's lease lapses
 * while the class watches.
 */
@Command(name = "demo",
        description = {
                "Show the lost update and its cures: two operator windows (Alice and Bob) on the demo's database "
                        + "and a Trainer panel that runs seven scenarios step by step.",
                "The demo's customers live in a database of their own, never the operators': lockstep_demo on the "
                        + "embedded server, made afresh at each start; with --db-url, the URL's database with _demo "
                        + "added (lockstep_demo beside lockstep), which an administrator creates with lockstep admin "
                        + "setup.",
                "Leases last 15s in the demo unless --lease-ttl is given (its 60s default is the editor's). For two "
                        + "real screens, run "
                        + "`lockstep --user Alice` and `lockstep --user Bob` against one --db-url, or let the demo "
                        + "put Alice and Bob on a screen each (it does when it finds two or more)."})
public final class DemoCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;

    @Option(names = "--trainer-screen", paramLabel = "N",
            description = "With two or more screens, put the Trainer panel on screen N (1 = the first screen "
                    + "JavaFX lists). Default the primary screen. Alice and Bob get a screen each.")
    Integer trainerScreen;

    @Option(names = "--lang", paramLabel = "TAG", converter = LanguageConverter.class,
            description = "The windows' language: en, pt-BR or es. Default the operating system's language.")
    Language lang;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (trainerScreen != null) {
            if (trainerScreen < 1) {
                spec.commandLine().getErr().println("lockstep: --trainer-screen must be 1 or more, not "
                        + trainerScreen);
                return ExitCodes.INVALID;
            }
        }
        return launcher.desktop().openDemo(launcher.config(), launcher.leaseTtlOr(Desktop.DEMO_LEASE_TTL),
                Optional.ofNullable(lang), trainerScreen == null ? OptionalInt.empty() : OptionalInt.of(trainerScreen));
    }
}
