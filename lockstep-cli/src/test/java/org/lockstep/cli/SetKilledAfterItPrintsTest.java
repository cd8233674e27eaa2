package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.HeardChanges;
import org.lockstep.testing.db.TestDatabases;

/**
 * A {@code set} killed the moment it prints its result (a script's kill, Ctrl-C) has already told other clients: its
 * announcement goes out before the command reports the save (issue 13's attack found it lost otherwise, since saves
 * are announced from a thread of their own and the kill skips the flush at close).
 */
@DatabaseTest
class SetKilledAfterItPrintsTest {

    @TempDir
    Path dataDir;

    String url;
    Database db;
    HeardChanges other;

    @BeforeEach
    void open() {
        TestDatabases.Server s = TestDatabases.server();
        String name = TestDatabases.freshName();
        url = s.url(name) + "?user=" + s.user() + (s.password() == null ? "" : "&password=" + s.password());
        db = Database.open(url, null, null, "Lockstep test");
        other = HeardChanges.listening(s.url(name), s.user(), s.password());
    }

    @AfterEach
    void close() {
        other.close();
        db.close();
    }

    @Test
    void otherClientsHearOfTheSaveEvenWhenTheCommandIsKilledAsSoonAsItPrints() throws Exception {
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "KILLED-1").build());
        await().atMost(Duration.ofSeconds(10)).until(() -> other.customers().size() == 1);

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process set = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Launcher.class.getName(),
                "--db-url", url, "--data-dir", dataDir.toString(), "--user", "Killer", "set", Long.toString(c.id()),
                "--if-version", "1", "city=Killed").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String printed;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(set.getInputStream(),
                StandardCharsets.UTF_8))) {
            printed = out.readLine();
            set.destroyForcibly(); // kill -9 the moment it has said so
        }
        set.waitFor(30, TimeUnit.SECONDS);

        assertThat(printed).isNotNull();
        assertThat(new JdbiCustomerRepository(db.jdbi(), "Reader").find(c.id()).orElseThrow().version()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> other.customers().size() == 2);
        assertThat(other.customers().get(1).id()).isEqualTo(c.id());
        assertThat(other.customers().get(1).version()).isEqualTo(2);
    }
}
