package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.config.LockstepConfig;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.testing.db.DatabaseTest;

/**
 * TLS to the server with {@code sslmode=verify-full} (issue 26; docs/admin-guide.md, "TLS to the server"), with a CA
 * made for the test: a throw-away CA signs a server certificate for {@code localhost} (subjectAltName DNS:localhost,
 * IP:127.0.0.1), and a second, unrelated CA signs nothing. An embedded server of its own serves with {@code ssl = on}
 * and accepts TLS connections only ({@code hostssl} in pg_hba.conf). Lockstep connects and migrates when the URL's
 * {@code sslrootcert} is the CA that signed the server's certificate, and says in plain words why it refuses
 * otherwise: another CA, or a certificate for another host name.
 */
@DatabaseTest
class TlsVerifyFullTest {

    @TempDir
    static Path dir;

    static Path pki;
    static EmbeddedServer server;
    static EmbeddedServer.Endpoint app;

    @BeforeAll
    static void caCertificatesAndServer() throws Exception {
        assumeTrue(opensslInstalled(), "openssl is not installed (apt-get install openssl; .ci/run installs it): "
                + "the TLS test is skipped");
        pki = Files.createDirectories(dir.resolve("pki"));
        Files.writeString(pki.resolve("openssl.cnf"), """
                [req]
                distinguished_name = dn
                prompt = no
                [dn]
                CN = Lockstep test
                [ca]
                basicConstraints = critical, CA:TRUE
                keyUsage = critical, keyCertSign, cRLSign
                subjectKeyIdentifier = hash
                [localhost]
                basicConstraints = critical, CA:FALSE
                keyUsage = critical, digitalSignature
                extendedKeyUsage = serverAuth
                subjectAltName = DNS:localhost, IP:127.0.0.1
                [elsewhere]
                basicConstraints = critical, CA:FALSE
                keyUsage = critical, digitalSignature
                extendedKeyUsage = serverAuth
                subjectAltName = DNS:db.example.com
                """);
        certificateAuthority("ca", "Lockstep test CA");
        certificateAuthority("other-ca", "Unrelated test CA");
        serverCertificate("localhost", "localhost", 2);
        serverCertificate("elsewhere", "db.example.com", 3);

        server = new EmbeddedServer(dir.resolve("data"), LockstepConfig.cacheDir(System.getenv()));
        app = server.ensureRunning(); // initializes the cluster and starts it; TLS from the reload below
        // The schema, as Lockstep's own start brings it up (as its owner): the application's login is an operator.
        Database.open(LockstepConfig.resolve(null, dir.resolve("data"), "TLS test", java.util.Map.of()),
                "Lockstep TLS test setup", false).close();
        Path pgData = server.dataDir().resolve("pgdata");
        Files.writeString(pgData.resolve("postgresql.conf"), "\n# TlsVerifyFullTest\nssl = on\ninclude = 'tls.conf'\n",
                StandardOpenOption.APPEND);
        // TLS connections only: a plain one finds no line of pg_hba.conf that lets it in.
        Files.writeString(pgData.resolve("pg_hba.conf"), "hostssl all all 127.0.0.1/32 scram-sha-256\n");
        serveCertificate("localhost");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.stop(); // @TempDir then deletes the cluster, the keys and the certificates
        }
    }

    /**
     * Has the server serve the certificate and key {@code name}.crt and {@code name}.key from its next connection on:
     * PostgreSQL reloads its TLS settings, pg_hba.conf among them, on {@code pg_reload_conf()} (a signal to the
     * postmaster, which rereads the files and then sets up TLS anew before it starts another backend); a new session
     * showing the new file is one the postmaster started after that.
     */
    static void serveCertificate(String name) throws Exception {
        String certFile = pki.resolve(name + ".crt").toString();
        Files.writeString(server.dataDir().resolve("pgdata").resolve("tls.conf"),
                "ssl_cert_file = '" + certFile + "'\nssl_key_file = '" + pki.resolve(name + ".key") + "'\n");
        EmbeddedServer.Endpoint admin = server.adminEndpoint();
        // pgjdbc's default sslmode (prefer): TLS once the server offers it, checking nothing.
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password());
                Statement s = c.createStatement()) {
            s.execute("SELECT pg_reload_conf()");
        }
        await("the server serving " + name + ".crt").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> certFile.equals(setting(admin, "ssl_cert_file")) && "on".equals(setting(admin, "ssl")));
    }

    static String setting(EmbeddedServer.Endpoint admin, String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password());
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static String url(String host, String sslmode, String rootCert) {
        return "jdbc:postgresql://" + host + ":" + app.port() + "/" + EmbeddedServer.DATABASE + "?sslmode=" + sslmode
                + "&sslrootcert=" + pki.resolve(rootCert + ".pem");
    }

    static Database open(String url) {
        return Database.open(url, app.user(), app.password(), "Lockstep TLS test");
    }

    @Test
    void verifyFullWithTheServersCaConnectsAndEncryptsEveryConnection() {
        try (Database db = open(url("localhost", "verify-full", "ca"))) {
            assertThat(encrypted(db)).isTrue();
            int migrations = db.jdbi().withHandle(h -> h.createQuery(
                    "SELECT count(*) FROM flyway_schema_history WHERE success").mapTo(Integer.class).one());
            assertThat(migrations).isPositive();

            ChangeFeed feed = db.changeFeed(new ChangeFeed.Listener() {
                @Override
                public void changes(List<ChangeEvent> batch) {
                }

                @Override
                public void resync() {
                }
            });
            try {
                feed.start();
                await("the live feed connected").atMost(Duration.ofSeconds(10))
                        .until(() -> feed.status() == ChangeFeed.Status.LIVE);
                List<Tuple> sessions = db.jdbi().withHandle(h -> h.createQuery("""
                        SELECT a.application_name, s.ssl, s.version
                        FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid)
                        WHERE a.backend_type = 'client backend' AND a.usename = current_user""")
                        .map((rs, ctx) -> tuple(rs.getString(1), rs.getBoolean(2), rs.getString(3))).list());
                assertThat(sessions).extracting(t -> t.toList().get(0))
                        .contains("Lockstep TLS test", "Lockstep live updates");
                assertThat(sessions).allSatisfy(t -> {
                    assertThat(t.toList().get(1)).as("ssl of %s", t).isEqualTo(true);
                    assertThat((String) t.toList().get(2)).as("TLS version of %s", t).startsWith("TLSv1.");
                });
            } finally {
                feed.close();
            }
        }
    }

    @Test
    void theCertificatesIpAddressIsVerifiedToo() {
        try (Database db = open(url("127.0.0.1", "verify-full", "ca"))) {
            assertThat(encrypted(db)).isTrue();
        }
    }

    @Test
    void aPlainConnectionIsRefused() {
        assertThatThrownBy(() -> open(url("localhost", "disable", "ca")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no pg_hba.conf entry")
                .hasMessageContaining("no encryption");
    }

    @Test
    void aCertificateNotSignedByTheCaInSslrootcertIsRefusedInPlainWords() {
        assertThatThrownBy(() -> open(url("localhost", "verify-full", "other-ca")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("The server's certificate is not signed by the CA in sslrootcert")
                .hasRootCauseInstanceOf(java.security.cert.CertPathBuilderException.class)
                .satisfies(e -> assertThat(causes(e)).hasAtLeastOneElementOfType(SSLHandshakeException.class));
    }

    @Test
    void aCertificateForAnotherHostNameIsRefusedInPlainWords() throws Exception {
        serveCertificate("elsewhere"); // signed by the same CA, for db.example.com only
        try {
            // The chain is good: verify-ca, which does not check the name, connects.
            try (Database db = open(url("127.0.0.1", "verify-ca", "ca"))) {
                assertThat(encrypted(db)).isTrue();
            }
            // verify-full checks the name too: 127.0.0.1 is in the localhost certificate (see
            // theCertificatesIpAddressIsVerifiedToo), not in this one.
            assertThatThrownBy(() -> open(url("127.0.0.1", "verify-full", "ca")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("The server's certificate is not for the host name in the URL");
        } finally {
            serveCertificate("localhost");
        }
    }

    /** Whether the pool connection this runs on is encrypted, as the server sees it. */
    static boolean encrypted(Database db) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                .mapTo(Boolean.class).one());
    }

    static List<Throwable> causes(Throwable e) {
        List<Throwable> all = new ArrayList<>();
        for (Throwable t = e; t != null && !all.contains(t); t = t.getCause()) {
            all.add(t);
        }
        return all;
    }

    static void certificateAuthority(String name, String commonName) throws IOException {
        openssl("req", "-x509", "-config", "openssl.cnf", "-extensions", "ca", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:P-256", "-nodes", "-keyout", name + ".key", "-out", name + ".pem", "-days", "2",
                "-subj", "/CN=" + commonName);
    }

    static void serverCertificate(String name, String commonName, int serial) throws IOException {
        openssl("req", "-new", "-config", "openssl.cnf", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + commonName);
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial",
                Integer.toString(serial), "-days", "2", "-extfile", "openssl.cnf", "-extensions", name, "-out",
                name + ".crt");
        // PostgreSQL refuses a key file others may read ("private key file … has group or world access"); the
        // server's user owns it (as root, the server runs in a user namespace and root's files are its own).
        Files.setPosixFilePermissions(pki.resolve(name + ".key"), PosixFilePermissions.fromString("rw-------"));
    }

    static void openssl(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Path log = pki.resolve("openssl.log");
        Process p = new ProcessBuilder(cmd).directory(pki.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("openssl timed out: " + cmd);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("openssl failed (exit " + p.exitValue() + "): " + cmd + "\n" + Files.readString(log));
        }
    }

    static boolean opensslInstalled() {
        try {
            Process p = new ProcessBuilder("openssl", "version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
