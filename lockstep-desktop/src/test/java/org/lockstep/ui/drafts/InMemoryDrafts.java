package org.lockstep.ui.drafts;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lockstep.drafts.Draft;

/**
 * {@link Drafts} in memory, for view-model tests: drafts by key, drafts "left by an ended client" to adopt, and a
 * disk that can be made full ({@link #failWith}). {@link DraftsContractTest} holds it to what the real journal does.
 */
public final class InMemoryDrafts implements Drafts {

    private final Map<String, Draft> own = new LinkedHashMap<>();
    private final List<Draft> orphans = new ArrayList<>();
    private IOException failure;

    /** A client that ended left {@code draft}; the next {@link #adoptOrphans} of its operator adopts it. */
    public synchronized void leftByEndedClient(Draft draft) {
        orphans.add(draft);
    }

    /** From now on every save fails with {@code e} ({@code null}: saves work again), as on a full disk. */
    public synchronized void failWith(IOException e) {
        failure = e;
    }

    @Override
    public synchronized void save(Draft draft) throws IOException {
        if (failure != null) {
            throw failure;
        }
        own.put(draft.key(), draft);
    }

    @Override
    public synchronized void remove(String key) {
        own.remove(key);
    }

    @Override
    public synchronized List<Draft> adoptOrphans(String operator) {
        List<Draft> adopted = orphans.stream().filter(d -> d.operator().equals(operator)).toList();
        orphans.removeAll(adopted);
        adopted.forEach(d -> own.put(d.key(), d));
        return adopted;
    }

    @Override
    public synchronized List<Draft> drafts() {
        return List.copyOf(own.values());
    }
}
