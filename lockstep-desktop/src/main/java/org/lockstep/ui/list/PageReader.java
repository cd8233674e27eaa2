package org.lockstep.ui.list;

import java.util.ArrayList;
import java.util.List;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;

/** Reads keyset pages of the customer list, off the FX thread. */
final class PageReader {

    /** Rows read in one background task, and whether they reach the end of the query. */
    record Pages(List<Customer> rows, boolean end) {
    }

    private PageReader() {
    }

    /**
     * Reads pages from {@code first} on until at least {@code rowsWanted} rows are in or the query ends. Each page
     * asks for one row more than it keeps: when that row is there, the query goes on; when not, this was the end
     * (so a last page that happens to be full needs no extra round trip to find out). {@code cancel} stops the read
     * on the server when a newer query supersedes it.
     */
    static Pages read(CustomerRepository repository, CustomerPageRequest first, int rowsWanted, CancelSignal cancel) {
        List<Customer> all = new ArrayList<>();
        CustomerPageRequest request = first;
        int keep = request.limit() - 1;
        while (true) {
            List<Customer> page = repository.page(request, cancel);
            if (page.size() <= keep) {
                all.addAll(page);
                return new Pages(all, true);
            }
            all.addAll(page.subList(0, keep));
            if (all.size() >= rowsWanted) {
                return new Pages(all, false);
            }
            request = request.next(all.get(all.size() - 1));
        }
    }
}
