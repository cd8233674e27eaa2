package org.lockstep.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A subcommand's help that shows its own options only. The global options ({@code --db-url}, {@code --user},
 * {@code --allow-unsafe}, …) are declared once on {@code lockstep} and inherited by every subcommand, so that they may
 * be given before or after the command's name; listed again under every command they buried each command's own few
 * options under ten desktop settings. They are described once, in {@code lockstep --help}, and every subcommand's help
 * ends with a line that says so. {@code --help} and {@code --version} stay listed: they are how a reader gets around.
 */
final class OwnOptionsHelp extends Help {

    /** The line that ends every subcommand's help of the root command {@code root}. */
    static String globalOptionsFooter(String root) {
        return "Global options (--db-url, --data-dir, --user, --locale, …) may be given before or after the command; "
                + "see " + root + " --help.";
    }

    OwnOptionsHelp(CommandSpec spec, ColorScheme colorScheme) {
        super(spec, colorScheme);
    }

    /** Installs this help on {@code root}'s subcommands, at every depth, with the footer that names the rest. */
    static void install(CommandLine root) {
        root.setHelpFactory(OwnOptionsHelp::new);
        addFooter(root, globalOptionsFooter(root.getCommandName()));
    }

    private static void addFooter(CommandLine parent, String line) {
        for (CommandLine sub : parent.getSubcommands().values()) {
            List<String> footer = new ArrayList<>(List.of(sub.getCommandSpec().usageMessage().footer()));
            footer.add("%n" + line);
            sub.getCommandSpec().usageMessage().footer(footer.toArray(String[]::new));
            addFooter(sub, line);
        }
    }

    @Override
    public String optionList() {
        return optionListExcludingGroups(own(commandSpec().options()), createDefaultLayout(),
                createDefaultOptionSort(), createDefaultParamLabelRenderer());
    }

    @Override
    protected Ansi.Text createDetailedSynopsisOptionsText(Collection<ArgSpec> done, List<OptionSpec> options,
            java.util.Comparator<OptionSpec> optionSort, boolean clusterBooleanOptions) {
        return super.createDetailedSynopsisOptionsText(done, own(options), optionSort, clusterBooleanOptions);
    }

    /** The options a reader of this command's help needs: its own, plus --help and --version. */
    private static List<OptionSpec> own(List<OptionSpec> options) {
        return options.stream().filter(o -> !o.inherited() || o.usageHelp() || o.versionHelp()).toList();
    }
}
