package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * What one save sends, as docs/architecture.md ("A save's path") draws it: on the caller's thread one statement, the
 * versioned UPDATE of {@link CustomerWriteSql#SAVE_SQL}, in auto-commit (no BEGIN, no row lock taken first, nothing
 * read back); the announcement to other clients follows as a statement of its own on the announcer's thread. A save
 * that matches no row sends the same UPDATE and only then reads why. Counted at the JDBC connection: every statement
 * the store prepares or executes on a connection of the pool, with the thread it ran on.
 */
@DatabaseTest
class OneSaveOneStatementTest {

    @FreshDatabase
    static Database db;

    /** A statement given to a connection, the thread that gave it, and whether the connection was in auto-commit. */
    record Sent(String thread, String sql, boolean autoCommit) {
    }

    final List<Sent> sent = new CopyOnWriteArrayList<>();
    JdbiCustomerRepository alice;

    @BeforeEach
    void aRepositoryOnCountedConnections() {
        Jdbi counted = Jdbi.create(() -> counted(db.dataSource().getConnection()))
                .installPlugin(new PostgresPlugin());
        alice = new JdbiCustomerRepository(counted, "Alice", "alice-session");
    }

    @Test
    void aVersionedSaveIsOneUpdateInAutoCommitAndItsAnnouncementFollowsOnAnotherThread() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ONE-STATEMENT").build());
        sent.clear();

        SaveOutcome outcome = alice.save(c.id(), c.version(),
                c.data().with(CustomerField.CITY, "Porto").with(CustomerField.PHONE, "+351 22 000 0000"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(onThisThread()).containsExactly(new Sent(Thread.currentThread().getName(),
                PositionalSave.of(CustomerWriteSql.SAVE_SQL).sql(), true));
        assertThat(PositionalSave.of(CustomerWriteSql.SAVE_SQL).sql()).startsWith("UPDATE customer SET ")
                .contains(" WHERE id = ? AND version = ? AND ").contains(" RETURNING ");
        await().atMost(Duration.ofSeconds(10)).until(() -> sent.stream()
                .anyMatch(s -> !s.thread().equals(Thread.currentThread().getName()) && s.sql().contains("pg_notify")));
    }

    @Test
    void aSaveThatMatchesNoRowSendsTheSameUpdateAndOnlyThenReadsWhy() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ZERO-ROWS").build());
        assertThat(alice.save(c.id(), c.version(), c.data().with(CustomerField.CITY, "Porto")))
                .isInstanceOf(SaveOutcome.Saved.class);
        sent.clear();

        SaveOutcome stale = alice.save(c.id(), c.version(), c.data().with(CustomerField.CITY, "Lisboa"));

        assertThat(stale).isInstanceOf(SaveOutcome.Conflict.class);
        List<Sent> mine = onThisThread();
        assertThat(mine.get(0).sql()).isEqualTo(PositionalSave.of(CustomerWriteSql.SAVE_SQL).sql());
        assertThat(mine.subList(1, mine.size())).isNotEmpty()
                .noneSatisfy(s -> assertThat(s.sql()).startsWith("UPDATE customer"));
    }

    private List<Sent> onThisThread() {
        String me = Thread.currentThread().getName();
        return sent.stream().filter(s -> s.thread().equals(me)).toList();
    }

    /** {@code c}, recording each statement prepared or executed on it (and on the statements it creates). */
    private Connection counted(Connection c) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{Connection.class},
                (proxy, method, args) -> {
                    String name = method.getName();
                    if ((name.equals("prepareStatement") || name.equals("prepareCall")) && args[0] instanceof String) {
                        record(c, (String) args[0]);
                    }
                    Object result = invoke(method, c, args);
                    return name.equals("createStatement") ? counted(c, (Statement) result) : result;
                });
    }

    private Statement counted(Connection c, Statement s) {
        return (Statement) Proxy.newProxyInstance(Statement.class.getClassLoader(), new Class<?>[]{Statement.class},
                (proxy, method, args) -> {
                    if (method.getName().startsWith("execute") && args != null && args.length > 0
                            && args[0] instanceof String) {
                        record(c, (String) args[0]);
                    }
                    return invoke(method, s, args);
                });
    }

    private void record(Connection c, String sql) throws java.sql.SQLException {
        sent.add(new Sent(Thread.currentThread().getName(), sql, c.getAutoCommit()));
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
