package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.OutsideSession;
import org.lockstep.testing.db.TestDatabases;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;

/**
 * The store's sentences for operators in the desktop's language (issue 16): a save that gave up on a row another
 * session holds, on a real database, in Brazilian Portuguese (the holding session described in it too); a refused
 * connection and a statement timeout, as the driver reports them (SQLSTATE 53300, 57014), in Spanish.
 */
@DatabaseTest
class TranslatedStoreMessagesTest {

    static Database db;
    static String name;
    Connection psql;

    @BeforeAll
    static void open() {
        name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(s.url(name), s.user(), s.password(), "Lockstep test");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @AfterEach
    void endBlockerAndSpeakEnglish() throws SQLException {
        Texts.use(Language.ENGLISH);
        if (psql != null) {
            psql.close();
        }
    }

    @Test
    void aSaveOnAHeldRowSaysSoInPortuguese() throws Exception {
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-session");
        Customer c = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-PT").build());
        psql = OutsideSession.holding(name, "SELECT 1 FROM customer WHERE id = ? FOR UPDATE", c.id());
        Texts.use(Language.PORTUGUESE_BRAZIL);

        assertThatThrownBy(() -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Campinas")))
                .isInstanceOf(RecordBusyException.class)
                .hasMessageStartingWith("O cliente " + c.id() + " está sendo gravado por outra sessão (psql (test "
                        + "blocker)")
                .hasMessageContaining(", papel ").hasMessageContaining(", numa transação aberta há ")
                .hasMessageEndingWith(" s); nada foi salvo — tente de novo daqui a pouco");
    }

    @Test
    void aRefusedConnectionAndATimeoutSaySoInSpanish() {
        Texts.use(Language.SPANISH);

        assertThat(ConnectionRefusals.explain(new SQLException("FATAL: sorry, too many clients already", "53300")))
                .hasValueSatisfying(m -> assertThat(m).startsWith("El servidor de base de datos rechazó la conexión: "
                        + "todas sus conexiones están en uso (max_connections)."));
        RuntimeException timeout = StoreErrors.translate(new IllegalStateException(
                new SQLException("ERROR: canceling statement due to statement timeout", "57014")));
        assertThat(timeout).isInstanceOf(StoreUnavailableException.class)
                .hasMessage("La base de datos tardó demasiado en responder (no se escribió nada)");
    }

    @Test
    void englishStaysTheWordsTheCommandLinePrints() {
        assertThat(ConnectionRefusals.explain(new SQLException("FATAL: sorry, too many clients already", "53300")))
                .hasValueSatisfying(m -> assertThat(m).startsWith("The database server refused the connection"));
    }
}
