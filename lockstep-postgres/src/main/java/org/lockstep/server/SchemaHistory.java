package org.lockstep.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * Whether a database's schema is exactly what this Lockstep's migrations make, read in one query of Flyway's history
 * table ({@code flyway_schema_history}), so that a start on an up-to-date database need not load Flyway at all
 * (issue 30: Flyway's scan, parse and validate of every migration took 0.9 of the 3.5 CPU-seconds of {@code
 * lockstep get 1}, at every command).
 *
 * <p>Only the verdict {@link Verdict#CURRENT} skips Flyway, and only when every migration in the jar — versioned and
 * repeatable — is recorded as applied with the checksum Flyway would compute for it, and nothing else is recorded:
 * any doubt (no history table, a failed row, a migration missing or changed, a repeatable migration edited, a
 * checksum computed differently by another Flyway) is {@link Verdict#MIGRATE}, and Flyway migrates and validates as
 * before. A history holding versions above every migration in the jar is {@link Verdict#TOO_NEW}, which the caller
 * refuses as Flyway's {@link Database#refuseNewerSchema} does.
 *
 * <p>Checksums are Flyway's: the CRC-32 of the file's lines in UTF-8, each without its line ending, a leading byte
 * order mark dropped (Flyway's {@code LoadableResource.calculateChecksum}); {@code SchemaHistoryTest} checks them
 * against the ones Flyway itself recorded.
 */
final class SchemaHistory {

    /** Where the migrations are, on the class path (Flyway's {@code locations}). */
    static final String LOCATION = "db/migration";

    private static final Pattern VERSIONED = Pattern.compile("V([0-9][0-9._]*)__.+\\.sql");
    private static final Pattern REPEATABLE = Pattern.compile("R__.+\\.sql");

    /** What the history says of this Lockstep's migrations. */
    enum Verdict {
        /** Every migration applied, as it is in the jar, and nothing else: Flyway has nothing to do. */
        CURRENT,
        /** Something to apply, or something to validate: Flyway's migrate decides. */
        MIGRATE,
        /** A newer Lockstep migrated it: versions above every one this jar has. */
        TOO_NEW
    }

    /**
     * The verdict, and for {@link Verdict#TOO_NEW} the highest version applied and the highest this jar knows.
     *
     * @param verdict what to do
     * @param applied the highest version in the history, when there is one
     * @param known   the highest version among this jar's migrations
     */
    record Check(Verdict verdict, Optional<String> applied, String known) {
    }

    /** One migration file in the jar: its script name, its version (absent for a repeatable one), its checksum. */
    record Migration(String script, Optional<String> version, int checksum) {
    }

    private SchemaHistory() {
    }

    /**
     * Compares the history on {@code c} with {@code migrations}, in one query.
     *
     * @throws SQLException when the query fails for a reason other than a missing history table
     */
    static Check check(Connection c) throws SQLException {
        return check(c, migrations(defaultSchema(c)));
    }

    /** As {@link #check(Connection)}, against the migrations given. */
    static Check check(Connection c, List<Migration> migrations) throws SQLException {
        String known = migrations.stream().flatMap(m -> m.version().stream()).max(SchemaHistory::compareVersions)
                .orElse("0");
        if (!historyExists(c)) {
            return new Check(Verdict.MIGRATE, Optional.empty(), known);
        }
        // The latest row per script: a repeatable migration applied again after an edit has a row per edit.
        Map<String, Integer> appliedChecksums = new HashMap<>();
        List<String> appliedVersions = new ArrayList<>();
        boolean failed = false;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT version, script, checksum, success, type"
                        + " FROM flyway_schema_history ORDER BY installed_rank")) {
            while (rs.next()) {
                String version = rs.getString(1);
                String script = rs.getString(2);
                int checksum = rs.getInt(3);
                boolean noChecksum = rs.wasNull();
                failed |= !rs.getBoolean(4);
                String type = rs.getString(5);
                if ("SCHEMA".equals(type) || "BASELINE".equals(type)) {
                    failed = true; // not what Lockstep's migrations write: let Flyway judge
                    continue;
                }
                if (version != null) {
                    appliedVersions.add(version);
                }
                if (noChecksum) {
                    appliedChecksums.remove(script);
                } else {
                    appliedChecksums.put(script, checksum);
                }
            }
        }
        Optional<String> newest = appliedVersions.stream().max(SchemaHistory::compareVersions);
        if (newest.isPresent() && compareVersions(newest.get(), known) > 0) {
            return new Check(Verdict.TOO_NEW, newest, known);
        }
        long versionedInJar = migrations.stream().filter(m -> m.version().isPresent()).count();
        boolean current = !failed && appliedVersions.size() == versionedInJar
                && migrations.stream().allMatch(m -> Objects.equals(appliedChecksums.get(m.script()), m.checksum()));
        return new Check(current ? Verdict.CURRENT : Verdict.MIGRATE, newest, known);
    }

    /** The schema Flyway migrates when none is configured: the connection's current one. */
    static String defaultSchema(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT current_schema()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static boolean historyExists(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT to_regclass('flyway_schema_history') IS NOT NULL")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /**
     * This jar's migrations ({@code V…__….sql} and {@code R__….sql} under {@value #LOCATION}; callbacks such as
     * {@code afterMigrate.sql} are not migrations), each with Flyway's checksum.
     *
     * @param defaultSchema what Flyway puts for {@code ${flyway:defaultSchema}} in a repeatable migration, whose
     *                      checksum it takes after replacing its placeholders (so that a new value applies it again)
     * @throws IllegalStateException when the location cannot be listed (neither a directory nor a jar)
     */
    static List<Migration> migrations(String defaultSchema) {
        List<Migration> found = new ArrayList<>();
        for (String name : scriptNames()) {
            Matcher versioned = VERSIONED.matcher(name);
            if (versioned.matches()) {
                found.add(new Migration(name, Optional.of(versioned.group(1).replace('_', '.')),
                        checksum(name, line -> line)));
            } else if (REPEATABLE.matcher(name).matches()) {
                // Another placeholder would give another checksum than Flyway's: Flyway then decides (MIGRATE).
                found.add(new Migration(name, Optional.empty(),
                        checksum(name, line -> line.replace("${flyway:defaultSchema}", defaultSchema))));
            }
        }
        found.sort(Comparator.comparing(Migration::script));
        return found;
    }

    /** The text of a script under {@value #LOCATION} (the {@code afterMigrate.sql} callback, say), as UTF-8. */
    static String text(String script) {
        try (InputStream in = open(script)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Flyway's checksum of a script: CRC-32 over its lines' UTF-8 bytes, without line endings or a leading BOM, each
     * line as {@code placeholders} makes it.
     */
    static int checksum(String script, java.util.function.UnaryOperator<String> placeholders) {
        CRC32 crc = new CRC32();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(open(script),
                StandardCharsets.UTF_8))) {
            boolean first = true;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (first && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                first = false;
                crc.update(placeholders.apply(line).getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return (int) crc.getValue();
    }

    private static InputStream open(String script) throws IOException {
        InputStream in = SchemaHistory.class.getClassLoader().getResourceAsStream(LOCATION + "/" + script);
        if (in == null) {
            throw new IOException("No " + LOCATION + "/" + script + " on the class path");
        }
        return in;
    }

    /** The file names directly under {@value #LOCATION}, in a directory (the build's classes) or in a jar. */
    private static List<String> scriptNames() {
        // afterMigrate.sql is always there: it locates the directory or jar that holds the migrations.
        URL anchor = SchemaHistory.class.getClassLoader().getResource(LOCATION + "/afterMigrate.sql");
        if (anchor == null) {
            throw new IllegalStateException("No " + LOCATION + " on the class path");
        }
        try {
            if ("jar".equals(anchor.getProtocol())) {
                JarURLConnection connection = (JarURLConnection) anchor.openConnection();
                connection.setUseCaches(false);
                List<String> names = new ArrayList<>();
                try (JarFile jar = connection.getJarFile()) {
                    for (JarEntry e : java.util.Collections.list(jar.entries())) {
                        String name = e.getName();
                        if (name.startsWith(LOCATION + "/") && name.indexOf('/', LOCATION.length() + 1) < 0
                                && !e.isDirectory()) {
                            names.add(name.substring(LOCATION.length() + 1));
                        }
                    }
                }
                return names;
            }
            if ("file".equals(anchor.getProtocol())) {
                try (Stream<Path> files = Files.list(Path.of(anchor.toURI()).getParent())) {
                    return files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).toList();
                }
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("Cannot list " + LOCATION + ": " + e.getMessage(), e);
        }
        throw new IllegalStateException("Cannot list " + LOCATION + " in " + anchor);
    }

    /** Flyway's order of versions: numeric parts compared one by one ({@code 2 < 13}, {@code 1.1 < 1.10}). */
    static int compareVersions(String a, String b) {
        String[] x = a.split("[._]");
        String[] y = b.split("[._]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            BigInteger p = i < x.length ? new BigInteger(x[i]) : BigInteger.ZERO;
            BigInteger q = i < y.length ? new BigInteger(y[i]) : BigInteger.ZERO;
            int c = p.compareTo(q);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
