package org.lockstep.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerSort;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep list [--search TEXT] [--json]}: customers by id, as a table or a JSON array. Rows are read in
 * keyset pages and printed as they come, so the whole table is never in memory.
 */
@Command(name = "list", description = "List customers by id, as a table or as JSON.")
public final class ListCommand implements Callable<Integer> {

    /** Rows per page read from the database. */
    static final int PAGE_SIZE = 1_000;

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Option(names = "--search", paramLabel = "TEXT",
            description = "Only customers whose company, contact, email, city or country contains TEXT.")
    String search;

    @Option(names = "--json", description = "Print a JSON array of records (keys are the column names).")
    boolean json;

    @Override
    public Integer call() {
        try {
            CommandSupport.requireUtf8(spec, search);
        } catch (IllegalArgumentException e) {
            return CommandSupport.failure(spec.commandLine().getErr(), e);
        }
        return CommandSupport.run(launcher, spec, s -> {
            if (json) {
                try (JsonGenerator generator = CommandSupport.jsonGenerator(s.out())) {
                    generator.writeStartArray();
                    forEachCustomer(s.customers(), c -> CommandSupport.writeJson(generator, c));
                    generator.writeEndArray();
                }
                s.out().println();
            } else {
                printTable(s.customers(), s.out());
            }
            return ExitCodes.OK;
        });
    }

    private void printTable(CustomerRepository customers, PrintWriter out) throws IOException {
        String format = "%7s %4s  %-32s %-30s %-20s %-16s";
        out.println(String.format(format, "ID", "VER", "NAME", "EMAIL", "CITY", "COUNTRY").stripTrailing());
        long[] count = {0};
        forEachCustomer(customers, c -> {
            out.println(String.format(format, c.id(), c.version(), cell(c.data().displayName(), 32),
                    cell(c.data().email(), 30), cell(c.data().city(), 20), cell(c.data().country(), 16))
                    .stripTrailing());
            count[0]++;
        });
        out.println(count[0] + " customer" + (count[0] == 1 ? "" : "s"));
    }

    private static String cell(String text, int width) {
        if (text == null) {
            return "";
        }
        String line = text.replace('\n', ' ');
        return line.length() <= width ? line : line.substring(0, width - 1) + "…";
    }

    /** Something done with each customer in turn; may fail writing output. */
    @FunctionalInterface
    interface CustomerAction {
        void accept(Customer c) throws IOException;
    }

    private void forEachCustomer(CustomerRepository customers, CustomerAction action) throws IOException {
        CustomerPageRequest request = new CustomerPageRequest(search, CustomerSort.ID, false, null, PAGE_SIZE);
        List<Customer> page = customers.page(request);
        while (!page.isEmpty()) {
            for (Customer c : page) {
                action.accept(c);
            }
            page = page.size() < PAGE_SIZE ? List.of() : customers.page(request.next(page.get(page.size() - 1)));
        }
    }
}
