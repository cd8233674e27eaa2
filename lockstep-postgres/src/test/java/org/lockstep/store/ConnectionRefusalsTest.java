package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.Translations.expect;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.sql.SQLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.InEveryTranslation;
import org.lockstep.testing.db.PgBouncer;
import org.lockstep.text.Language;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;

/**
 * The plain-words sentences for a TLS connection refused because the server's certificate could not be verified, from
 * failures shaped as pgjdbc 42.7 and the JDK report them under HikariCP's (TlsVerifyFullTest gets them from a real
 * server); the refusals of a full server are tested with one (ServerFullTest, ThroughPgBouncerTest).
 */
class ConnectionRefusalsTest {

    /** An untrusted chain: pgjdbc's "SSL error: …" around the handshake's failure around the JDK's path builder's. */
    static RuntimeException notSignedByTheRootCa() {
        CertPathBuilderException path = new CertPathBuilderException(
                "unable to find valid certification path to requested target");
        SSLHandshakeException handshake = new SSLHandshakeException("PKIX path building failed: " + path);
        handshake.initCause(new CertificateException("PKIX path building failed: " + path, path));
        return new RuntimeException("Failed to initialize pool: SSL error: " + handshake.getMessage(),
                new PSQLException("SSL error: " + handshake.getMessage(), PSQLState.CONNECTION_FAILURE, handshake));
    }

    static RuntimeException forAnotherHostName() {
        return new RuntimeException(new PSQLException(
                "The hostname 127.0.0.1 could not be verified by hostnameverifier PgjdbcHostnameVerifier.",
                PSQLState.CONNECTION_FAILURE));
    }

    @Test
    void aCertificateNotSignedByTheCaInSslrootcertSaysSo() {
        assertThat(ConnectionRefusals.explain(notSignedByTheRootCa())).hasValue("The server's certificate is not "
                + "signed by the CA in sslrootcert (by default ~/.postgresql/root.crt), so Lockstep did not connect: "
                + "it may not be your database server. Check that sslrootcert names the CA certificate your "
                + "administrator gave you, or ask for it (docs/admin-guide.md, \"TLS to the server\").");
    }

    @Test
    void aCertificateForAnotherHostNameSaysSo() {
        assertThat(ConnectionRefusals.explain(forAnotherHostName())).hasValue("The server's certificate is not for the "
                + "host name in the URL, so Lockstep did not connect (sslmode=verify-full checks it). Connect by a "
                + "name the certificate lists (its subjectAltName), or ask the administrator for a certificate that "
                + "lists the name you connect by (docs/admin-guide.md, \"TLS to the server\").");
    }

    /** What pgjdbc reports when a transaction pooler handed another client's prepared statement to this one. */
    static RuntimeException preparedStatementOfAnotherClient() {
        return new RuntimeException(new SQLException("ERROR: prepared statement \"S_1\" already exists", "42P05"));
    }

    @Test
    void aPoolersMixedUpPreparedStatementSaysToGiveTheServerWithListenUrl() {
        assertThat(ConnectionRefusals.explain(preparedStatementOfAnotherClient())).hasValue("A connection pooler in"
                + " transaction mode (PgBouncer) sits in front of the database and mixed up prepared statements; this"
                + " statement did not run. Give the database server itself with --listen-url (or"
                + " LOCKSTEP_LISTEN_URL): Lockstep then prepares no statements through the pooler"
                + " (docs/admin-guide.md, \"PgBouncer\").");
        assertThat(ConnectionRefusals
                .explain(new SQLException("ERROR: prepared statement \"mine\" already exists", "42P05")))
                .as("a statement a script prepared by name").isEmpty();
    }

    @InEveryTranslation
    void thePoolersFaultsSaySoInTheLanguage(Language lang) {
        assertThat(ConnectionRefusals.explain(preparedStatementOfAnotherClient())).hasValueSatisfying(m -> assertThat(m)
                .startsWith(expect(lang, "Um agrupador de conexões em modo de transação (PgBouncer)",
                        "Un agrupador de conexiones en modo transacción (PgBouncer)")));
        assertThat(
                ConnectionRefusals.explain(new SQLException("FATAL: unsupported startup parameter: options", "08P01")))
                .hasValueSatisfying(m -> assertThat(m).startsWith(
                        expect(lang,
                                "A URL do banco de dados leva a um agrupador de conexões (PgBouncer)",
                                "La URL de la base de datos lleva a un agrupador de conexiones (PgBouncer)")));
        assertThat(ConnectionRefusals.explain(startupOptionsDropped()))
                .hasValueSatisfying(m -> assertThat(m).startsWith(expect(lang,
                        "Um agrupador de conexões (PgBouncer) entre o Lockstep e o servidor do banco de dados descarta",
                        "Un agrupador de conexiones (PgBouncer) entre Lockstep y el servidor de base de datos descarta")));
    }

    /** What the check of Lockstep's mark meets where a pooler dropped the startup options, under HikariCP's. */
    static RuntimeException startupOptionsDropped() {
        return new RuntimeException("Failed to initialize pool: ERROR: unrecognized configuration parameter"
                + " \"lockstep.startup_options\"",
                new SQLException("ERROR: unrecognized configuration parameter"
                        + " \"lockstep.startup_options\"", "42704"));
    }

    @Test
    void aPoolerThatDropsTheStartupOptionsSaysToGiveTheServerWithListenUrl() {
        String sentence = PgBouncer.DROPPED_OPTIONS_REFUSAL;
        assertThat(ConnectionRefusals.explain(startupOptionsDropped())).hasValue(sentence);
        // A server whose messages are in Spanish quotes the name its own way.
        assertThat(ConnectionRefusals.explain(new SQLException(
                "ERROR: parámetro de configuración «lockstep.startup_options» no reconocido", "42704")))
                .hasValue(sentence);
        assertThat(ConnectionRefusals.explain(new SQLException(
                "ERROR: unrecognized configuration parameter \"crm.tenant\"", "42704")))
                .as("another setting a script reads").isEmpty();
    }

    @Test
    void otherFailuresToConnectAreLeftAsTheyAre() {
        SSLHandshakeException alert = new SSLHandshakeException("Received fatal alert: handshake_failure");
        assertThat(ConnectionRefusals.explain(new PSQLException("SSL error: " + alert.getMessage(),
                PSQLState.CONNECTION_FAILURE, alert))).isEmpty();
        assertThat(ConnectionRefusals.explain(new SQLException(
                "Connection to localhost:5432 refused. Check that the hostname and port are correct", "08001")))
                .isEmpty();
        assertThat(ConnectionRefusals.explain(new SQLException("Could not open SSL root certificate file "
                + "/root/.postgresql/root.crt.", "08006"))).isEmpty();
    }

    @InEveryTranslation
    void theCertificatesFaultsSaySoInTheLanguage(Language lang) {
        assertThat(ConnectionRefusals.explain(notSignedByTheRootCa())).hasValueSatisfying(m -> assertThat(m)
                .startsWith(expect(lang, "O certificado do servidor não foi assinado pela CA de sslrootcert",
                        "El certificado del servidor no está firmado por la CA de sslrootcert")));
        assertThat(ConnectionRefusals.explain(forAnotherHostName())).hasValueSatisfying(m -> assertThat(m)
                .startsWith(expect(lang, "O certificado do servidor não é para o nome de host da URL",
                        "El certificado del servidor no es para el nombre de host de la URL")));
    }
}
