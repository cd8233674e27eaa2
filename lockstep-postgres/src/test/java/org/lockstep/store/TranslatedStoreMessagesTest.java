package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;
import static org.lockstep.testing.Translations.expect;

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
import org.lockstep.testing.InEveryTranslation;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.OutsideSession;
import org.lockstep.testing.db.TestDatabases;
import org.lockstep.text.Language;

/**
 * The store's sentences for operators in each of the desktop's languages besides English (issue 16): a save that gave
 * up on a row another session holds, on a real database (the holding session described in it too); a refused
 * connection and a statement timeout, as the driver reports them (SQLSTATE 53300, 57014). English stays the command
 * line's words.
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
    void endBlocker() throws SQLException {
        if (psql != null) {
            psql.close();
        }
    }

    @InEveryTranslation
    void aSaveOnAHeldRowSaysSoInTheLanguage(Language lang) throws Exception {
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-session");
        Customer c = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-" + lang.tag()).build());
        psql = OutsideSession.holding(name, "SELECT 1 FROM customer WHERE id = ? FOR UPDATE", c.id());

        assertThatThrownBy(() -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Campinas")))
                .isInstanceOf(RecordBusyException.class)
                .hasMessageStartingWith(expect(lang, "O cliente " + c.id() + " está sendo gravado por outra sessão ",
                        "Otra sesión está escribiendo el cliente " + c.id() + " ") + "(psql (test blocker)")
                .hasMessageContaining(expect(lang, ", papel ", ", rol "))
                .hasMessageContaining(expect(lang, ", numa transação aberta há ", ", en una transacción abierta hace "))
                .hasMessageEndingWith(expect(lang, " s); nada foi salvo — tente de novo daqui a pouco",
                        " s); no se guardó nada: vuelve a intentarlo en un momento"));
    }

    @InEveryTranslation
    void aRefusedConnectionAndATimeoutSaySoInTheLanguage(Language lang) {
        assertThat(ConnectionRefusals.explain(new SQLException("FATAL: sorry, too many clients already", "53300")))
                .hasValueSatisfying(m -> assertThat(m).startsWith(expect(lang,
                        "O servidor de banco de dados recusou a conexão: todas as conexões dele estão em uso "
                                + "(max_connections).",
                        "El servidor de base de datos rechazó la conexión: todas sus conexiones están en uso "
                                + "(max_connections).")));
        RuntimeException timeout = StoreErrors.translate(new IllegalStateException(
                new SQLException("ERROR: canceling statement due to statement timeout", "57014")));
        assertThat(timeout).isInstanceOf(StoreUnavailableException.class).hasMessage(expect(lang,
                "O banco de dados demorou demais para responder (nada foi gravado)",
                "La base de datos tardó demasiado en responder (no se escribió nada)"));
    }

    @Test
    void englishStaysTheWordsTheCommandLinePrints() {
        assertThat(ConnectionRefusals.explain(new SQLException("FATAL: sorry, too many clients already", "53300")))
                .hasValueSatisfying(m -> assertThat(m).startsWith("The database server refused the connection"));
    }
}
