package org.lockstep.testing;

import org.lockstep.domain.MessageRepository;

/** The message repository's contract, kept by the fake view-model tests use, on a {@link ManualClock}. */
class InMemoryMessageRepositoryContractTest extends MessageRepositoryContractTest {

    private final InMemoryMessageRepository bob =
            InMemoryMessageRepository.empty(new ManualClock(), "Bob", "bob-session", false);
    private final InMemoryMessageRepository sam = bob.as("Sam", "sam-session", true);
    private long customers;

    @Override
    protected MessageRepository operator() {
        return bob;
    }

    @Override
    protected String operatorName() {
        return "Bob";
    }

    @Override
    protected MessageRepository supervisor() {
        return sam;
    }

    @Override
    protected long aCustomer() {
        return ++customers;
    }
}
