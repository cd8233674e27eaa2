package org.lockstep.ui.drafts;

import org.lockstep.drafts.Draft;

/** {@link DraftsContract} for the fake the view-model tests use. */
class InMemoryDraftsTest extends DraftsContract {

    final InMemoryDrafts fake = new InMemoryDrafts();

    @Override
    Drafts drafts() {
        return fake;
    }

    @Override
    void leftByEndedClient(Draft draft) {
        fake.leftByEndedClient(draft);
    }
}
