package org.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.lockstep.app.Database;
import org.lockstep.app.Launcher;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.TestDatabases;

class WatchCommandTest {

    @Test
    void watchPrintsOneJsonObjectPerChangeUntilInterrupted() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread watcher = new Thread(() -> exit.set(Launcher.run(new PrintWriter(out, true), new PrintWriter(err,
                    true), "--db-url", url, "watch", "--json")));
            watcher.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("live"));

            JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
            Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "W-1").build());
            db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = 'Lille' WHERE id = ?", c.id()));

            await().atMost(Duration.ofSeconds(10)).until(() -> out.toString().lines().count() == 2);
            watcher.interrupt();
            watcher.join(10_000);

            ObjectMapper json = new ObjectMapper();
            JsonNode first = json.readTree(out.toString().lines().findFirst().orElseThrow());
            JsonNode second = json.readTree(out.toString().lines().skip(1).findFirst().orElseThrow());
            assertThat(first.get("table").asText()).isEqualTo("customer");
            assertThat(first.get("id").asLong()).isEqualTo(c.id());
            assertThat(first.get("op").asText()).isEqualTo("INSERT");
            assertThat(first.get("session").asText()).isEqualTo(alice.sessionId());
            assertThat(second.get("version").asLong()).isEqualTo(2);
            assertThat(second.get("session").isNull()).isTrue();
            assertThat(exit.get()).isEqualTo(Launcher.OK);
        }
    }
}
