package org.lockstep.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Message;
import org.lockstep.domain.MessageRepository;

/**
 * What every {@link MessageRepository} promises about asking a supervisor, run against {@code JdbiMessageRepository}
 * on a team server (in lockstep-postgres: real logins, the database says who is a supervisor) and against the
 * {@link InMemoryMessageRepository} that view-model tests use (here). A subclass gives an operator who is not a
 * supervisor, one who is, and customers. Each case makes customers of its own, so the store may be shared.
 */
public abstract class MessageRepositoryContractTest {

    /** A client of an operator who is no supervisor. */
    protected abstract MessageRepository operator();

    /** The name the store records for {@link #operator()}'s messages. */
    protected abstract String operatorName();

    /** A client of a supervisor. */
    protected abstract MessageRepository supervisor();

    /** A new customer: its id. */
    protected abstract long aCustomer();

    @Test
    void aSupervisorReadsAnOperatorsRequestWithItsSenderCustomerTextAndTime() {
        long customer = aCustomer();
        Message sent = operator().askSupervisors(customer, "  Please break Alice's lock on customer " + customer
                + "  ");

        assertThat(sent.fromUser()).isEqualTo(operatorName());
        assertThat(sent.text()).isEqualTo("Please break Alice's lock on customer " + customer);
        assertThat(supervisor().supervisorRequests(sent.id() - 1)).containsExactly(sent);
        assertThat(supervisor().supervisorRequestsSince(sent.sentAt())).contains(sent);
    }

    @Test
    void anOperatorWhoIsNoSupervisorReadsNoRequests() {
        Message sent = operator().askSupervisors(aCustomer(), "Please break the lock");

        assertThat(operator().supervisorRequests(sent.id() - 1)).isEmpty();
        assertThat(operator().supervisorRequestsSince(Instant.EPOCH)).isEmpty();
    }

    @Test
    void requestsComeOldestFirstAfterTheGivenIdAndSinceTheGivenTime() {
        long customer = aCustomer();
        Message first = operator().askSupervisors(customer, "first");
        Message second = operator().askSupervisors(customer, "second");

        assertThat(second.id()).isGreaterThan(first.id());
        assertThat(supervisor().supervisorRequests(first.id())).containsExactly(second);
        assertThat(supervisor().supervisorRequests(first.id() - 1)).containsExactly(first, second);
        assertThat(supervisor().supervisorRequestsSince(first.sentAt())).containsSubsequence(first, second);
        assertThat(supervisor().supervisorRequestsSince(second.sentAt().plusSeconds(3600))).isEmpty();
    }

    @Test
    void aMessageToALocksHolderIsNoSupervisorRequest() {
        long customer = aCustomer();
        Message toHolder = operator().send("some-session", customer, "Please save");

        assertThat(supervisor().supervisorRequests(toHolder.id() - 1)).isEmpty();
    }

    @Test
    void anEmptyRequestIsRefusedAndNothingIsSent() {
        long customer = aCustomer();
        Message before = operator().askSupervisors(customer, "before");

        assertThatThrownBy(() -> operator().askSupervisors(customer, "   "))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("Write a message first.");
        assertThat(supervisor().supervisorRequests(before.id())).isEmpty();
    }
}
