package org.lockstep.cli;

import org.lockstep.store.JdbiCustomerBulkStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.lockstep.domain.ImportConflictException;
import org.lockstep.transfer.CsvDelimiter;
import org.lockstep.transfer.CsvImport;
import org.lockstep.transfer.CustomerBulkStore;
import org.lockstep.transfer.CustomerBulkStore.ImportCounts;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep import FILE.csv [--map SOURCE=FIELD]... [--key FIELD] [--delimiter D]}: all rows or none, in one
 * transaction (see {@link CsvImport}). Every bad row is printed on stderr with its line and the field at fault; exit 2.
 */
@Command(name = "import", description = "Import customers from a UTF-8 CSV file with a header line; all rows "
        + "or none.")
public final class ImportCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The CSV file.")
    Path file;

    @Option(names = "--map", paramLabel = "SOURCE=FIELD",
            description = "Fill FIELD from the column named SOURCE (split at the last =), or at position SOURCE "
                    + "(3=city: the third column); SOURCE= skips the column. Columns named like a field map "
                    + "themselves; a mapped column takes its field from them.")
    List<String> mappings = new ArrayList<>();

    @Option(names = "--delimiter", paramLabel = "D",
            description = "What separates the values: , ; | or tab. Default: told by the header line.")
    String delimiter;

    @Option(names = "--key", paramLabel = "FIELD",
            description = "external_ref or id: rows whose key belongs to a customer update it (version + 1; "
                    + "a row with the values it already has leaves it unchanged); the others are inserted.")
    String key;

    @Override
    public Integer call() {
        ImportKey importKey;
        CsvDelimiter separator;
        try {
            importKey = importKey();
            separator = delimiter == null ? null : CsvDelimiter.parse(delimiter);
            if (!Files.isRegularFile(file)) {
                throw new CommandSupport.UsageException(file + ": no such file");
            }
        } catch (IllegalArgumentException e) {
            return CommandSupport.failure(spec.commandLine().getErr(), e);
        }
        // The file is the operator's own data: an empty database stays empty but for it, with no sample mixed in.
        return CommandSupport.run(launcher, spec, false, s -> {
            CsvImport.Outcome outcome;
            try {
                CsvImport csvImport = new CsvImport(new JdbiCustomerBulkStore(s.db().jdbi(), s.operator().name(),
                        s.customers().sessionId()), s.config().fieldParser());
                outcome = separator == null ? csvImport.run(file, mappings, importKey)
                        : csvImport.run(file, mappings, importKey, separator);
            } catch (ImportConflictException conflict) {
                conflict.problems().forEach(p -> s.err().println(file + ": " + p));
                s.err().println("lockstep: nothing imported: the file would overwrite " + conflict.problems().size()
                        + " customer" + (conflict.problems().size() == 1 ? "" : "s")
                        + " changed or locked since (export again, or merge by hand with set --merge)");
                return conflict.locked() ? ExitCodes.LOCKED : ExitCodes.CONFLICT;
            }
            if (outcome instanceof CsvImport.Rejected rejected) {
                rejected.problems().forEach(p -> s.err().println(file + ": " + p));
                long badLines = rejected.problems().stream().mapToLong(CsvImport.Problem::line).distinct().count();
                s.err().println("lockstep: nothing imported: " + badLines + " bad line" + (badLines == 1 ? "" : "s")
                        + " in " + file);
                return ExitCodes.INVALID;
            }
            ImportCounts counts = ((CsvImport.Imported) outcome).counts();
            s.out().println("inserted " + counts.inserted() + ", updated " + counts.updated() + ", unchanged "
                    + counts.unchanged());
            return ExitCodes.OK;
        });
    }

    private ImportKey importKey() {
        if (key == null) {
            return ImportKey.NONE;
        }
        return switch (key.strip().toLowerCase(Locale.ROOT).replace(' ', '_').replace('-', '_')) {
            case "external_ref" -> ImportKey.EXTERNAL_REF;
            case "id" -> ImportKey.ID;
            default -> throw new CommandSupport.UsageException("--key " + key
                    + ": the key must be external_ref or id, the fields that identify a customer");
        };
    }
}
