package org.lockstep.cli;

import org.lockstep.store.JdbiCustomerBulkStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.lockstep.transfer.CsvExport;
import org.lockstep.transfer.CustomerBulkStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep export FILE.csv [--raw]}: every customer to a CSV file that {@code lockstep import} reads back
 * unchanged (see {@link CsvExport}), its cells neutralized against spreadsheet formulas unless {@code --raw}.
 */
@Command(name = "export", description = "Write every customer to a UTF-8 CSV file that import reads back.")
public final class ExportCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The CSV file to write; replaced when it exists.")
    Path file;

    @Option(names = "--raw",
            description = "Write values exactly, for programs: a value starting with = + - @ or a tab or line break "
                    + "is not prefixed with ' (a spreadsheet may run it as a formula). Refused when a value starts "
                    + "with ' before one of those, since import would drop that '.")
    boolean raw;

    @Override
    public Integer call() {
        return CommandSupport.run(launcher, spec, s -> {
            long count = new CsvExport(new JdbiCustomerBulkStore(s.db().jdbi(), s.operator().name()))
                    .write(file, raw ? CsvExport.Cells.RAW : CsvExport.Cells.NEUTRALIZED);
            s.out().println("exported " + count + " customer" + (count == 1 ? "" : "s") + " to " + file);
            return ExitCodes.OK;
        });
    }
}
