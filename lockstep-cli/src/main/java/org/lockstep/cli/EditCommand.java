package org.lockstep.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import org.lockstep.text.Language;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep edit ID}: the desktop, as {@code lockstep} opens it, with that customer's editor window beside the
 * main window and the keyboard in its first field, so that other tools and scripts can send an operator to a record
 * (issue 28). The command returns when the desktop closes, with the desktop's exit code. A customer that does not
 * exist is said so over the main window (deleted, by whom and when, or never there), which stays open: a script that
 * must know first asks {@code lockstep get ID}, exit 3 for no such customer. An id below 1 is exit 2.
 */
@Command(name = "edit", description = {
        "Open the desktop with one customer's editor window, its first field ready for typing: a script's way to "
                + "send an operator to a record.",
        "Returns when the desktop closes (exit 0, or 1 when the database could not be opened). A customer that does "
                + "not exist is said so in the desktop; `lockstep get ID` tells a script first (exit 3)."})
public final class EditCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The customer's id.")
    long id;

    @Option(names = "--lang", paramLabel = "TAG", converter = LanguageConverter.class,
            description = "The windows' language: en, pt-BR or es. Default the operating system's language.")
    Language lang;

    @Override
    public Integer call() {
        if (id < 1) {
            spec.commandLine().getErr().println("lockstep: a customer's id is 1 or more, not " + id);
            return ExitCodes.INVALID;
        }
        return launcher.desktop().openEditor(launcher.config(), launcher.leaseTtlOr(Desktop.DEMO_LEASE_TTL),
                Optional.ofNullable(lang == null ? launcher.lang : lang), id);
    }
}
