package org.lockstep.ui.restore;

import static org.lockstep.text.Texts.tr;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.CustomerField;
import org.lockstep.drafts.Draft;
import org.lockstep.ui.drafts.Drafts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The offer at start of the unsaved edits of clients that ended without saving them (issue 28): "Unsaved changes to
 * 2 customers from before Lockstep closed", each with Restore and Discard, and both for all. Only this operator's
 * drafts are offered; another operator's stay kept for them. Restore hands the draft to the opener (an editor window
 * on the draft's base); Discard removes the draft. The drafts are adopted and removed on the executor, never on the FX
 * thread, which is the only thread that may touch this object.
 */
public final class DraftsOfferViewModel {

    private static final Logger LOG = LoggerFactory.getLogger(DraftsOfferViewModel.class);

    private final Drafts drafts;
    private final TaskExecutor executor;
    private final String operator;
    private final Consumer<Draft> opener;
    private final ZoneId zone;
    private final ObservableList<Draft> offered = FXCollections.observableArrayList();
    private final ObservableList<Draft> readOnly = FXCollections.unmodifiableObservableList(offered);

    /**
     * @param drafts   where the drafts are kept
     * @param executor runs the disk work off the FX thread, results back on it
     * @param operator the signed-in operator, whose drafts are offered
     * @param opener   opens an editor on a draft to restore
     * @param zone     where the operator reads times
     */
    public DraftsOfferViewModel(Drafts drafts, TaskExecutor executor, String operator, Consumer<Draft> opener,
            ZoneId zone) {
        this.drafts = Objects.requireNonNull(drafts);
        this.executor = Objects.requireNonNull(executor);
        this.operator = Objects.requireNonNull(operator);
        this.opener = Objects.requireNonNull(opener);
        this.zone = Objects.requireNonNull(zone);
    }

    /** Adopts the drafts ended clients left and offers this operator's. */
    public void start() {
        start(List.of());
    }

    /**
     * Adopts the drafts ended clients left and offers this operator's after {@code kept}: drafts this client adopted
     * already and has not yet restored (offered while the database could not be reached).
     */
    public void start(List<Draft> kept) {
        offered.setAll(kept);
        executor.execute(() -> drafts.adoptOrphans(operator), adopted -> offered.addAll(
                adopted.stream().filter(d -> offerable(d, operator)).toList()),
                failure -> LOG.warn("Could not read the drafts left from before: {}", failure.getMessage(), failure));
    }

    /** Offers {@code adopted}, drafts this client adopted itself (to know whether there are any), without adopting. */
    public void offer(List<Draft> adopted) {
        offered.setAll(adopted.stream().filter(d -> offerable(d, operator)).toList());
    }

    /**
     * Whether a start offers {@code draft} to {@code operator}: their own, with something typed or a merge with
     * choices in it. Another operator's drafts stay kept for them.
     */
    public static boolean offerable(Draft draft, String operator) {
        return draft.operator().equals(operator) && (!draft.typed().isEmpty() || draft.merge().isPresent());
    }

    /** The drafts offered, oldest first; empty once each was restored or discarded. */
    public ObservableList<Draft> offered() {
        return readOnly;
    }

    /**
     * "Unsaved changes to 2 customers from before Lockstep closed", following the drafts offered: customers, not
     * drafts — two editor windows of one customer left two drafts of it, one customer to the operator.
     */
    public StringBinding headline() {
        return Bindings.createStringBinding(() -> {
            long customers = offered.stream().map(d -> d.customerId().isPresent()
                    ? "customer " + d.customerId().getAsLong() : "new " + d.key()).distinct().count();
            return customers == 1 ? tr("Unsaved changes to 1 customer from before Lockstep closed")
                    : tr("Unsaved changes to {0} customers from before Lockstep closed", customers);
        }, offered);
    }

    /**
     * One draft in a line: "Acme Ltd (Customer #4): City, Phone — 4 Dec 2026, 10:07", and "in a merge with version
     * 6" before the time for a draft of a merge dialog.
     */
    public String describe(Draft draft) {
        String name = draft.base().displayName();
        String typedName = draft.typed().getOrDefault(CustomerField.COMPANY, "");
        String who = draft.isNewCustomer()
                ? (typedName.isBlank() ? tr("New customer") : tr("New customer {0}", typedName))
                : tr("{0} (Customer #{1})", name, draft.customerId().getAsLong());
        String fields = draft.typed().keySet().stream().map(CustomerField::label).collect(Collectors.joining(", "));
        String when = DateTimeFormatter.ofLocalizedDateTime(FormatStyle.MEDIUM, FormatStyle.SHORT)
                .format(draft.savedAt().atZone(zone));
        return who + ": " + fields + draft.merge().map(m -> " — " + tr("in a merge with version {0}",
                m.theirsVersion())).orElse("") + " — " + when;
    }

    /** Opens an editor on {@code draft}; it is no longer offered (the editor keeps it until saved or discarded). */
    public void restore(Draft draft) {
        if (offered.remove(draft)) {
            opener.accept(draft);
        }
    }

    /** Removes {@code draft}: the edits in it are gone. */
    public void discard(Draft draft) {
        if (offered.remove(draft)) {
            executor.execute(() -> {
                drafts.remove(draft.key());
                return null;
            }, done -> {}, failure -> LOG.warn("Could not remove a draft: {}", failure.getMessage(), failure));
        }
    }

    /** Restores every draft offered, each in an editor window of its own. */
    public void restoreAll() {
        List.copyOf(offered).forEach(this::restore);
    }

    /** Discards every draft offered. */
    public void discardAll() {
        List.copyOf(offered).forEach(this::discard);
    }
}
