package org.lockstep.testing;

import org.lockstep.domain.CustomerRepository;

/** The customer repository's contract, kept by the fake view-model tests use: a store of its own per case. */
class InMemoryCustomerRepositoryContractTest extends CustomerRepositoryContractTest {

    private final InMemoryCustomerRepository store = InMemoryCustomerRepository.empty("Setup");

    @Override
    protected CustomerRepository client(String user) {
        return store.as(user);
    }
}
