package org.lockstep.bench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.lockstep.server.Database;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * A yardstick that {@code lockstep-bench save} compares Lockstep's save with: the same versioned UPDATE of the same
 * values on a copy of the benchmark's customers, with no trigger (no history, no notification, no version stamp: the
 * statement raises the version and stamps the time itself), and no row lock or lease check before it. One statement,
 * one round trip, one commit. Two copies ({@link Copy}): the customer table's shape with every constraint and index,
 * and the bare rows with their primary key only, which PostgreSQL updates heap-only (HOT) whatever changes.
 */
final class TriggerFreeSave {

    /** The two copies. */
    enum Copy {
        /** Every column, constraint and index of the customer table (issue 13's yardstick). */
        INDEXED("bench_trigger_free_customer", "CREATE TABLE %s (LIKE customer INCLUDING ALL)"),
        /**
         * The rows and their primary key only (issue 29's yardstick): no CHECK, no other index, default fill factor.
         */
        BARE("bench_bare_customer", "CREATE TABLE %s (LIKE customer, PRIMARY KEY (id))");

        final String table;
        private final String create;

        Copy(String table, String create) {
            this.table = table;
            this.create = create;
        }
    }

    /** The indexed copy's table; each copy is created for a run and dropped after it. */
    static final String TABLE = Copy.INDEXED.table;

    private final Database db;
    private final DataSource dataSource;
    private final String user;
    private final Copy copy;
    private final String sql;

    TriggerFreeSave(Database db, String user) {
        this(db, user, Copy.INDEXED);
    }

    TriggerFreeSave(Database db, String user, Copy copy) {
        this.db = db;
        this.dataSource = db.dataSource();
        this.user = user;
        this.copy = copy;
        this.sql = "UPDATE " + copy.table + " SET "
                + String.join(", ", CustomerField.all().stream().map(f -> f.column() + " = ?").toList())
                + ", version = version + 1, updated_at = clock_timestamp(), updated_by = ? WHERE id = ? AND version = ?"
                + " RETURNING version";
    }

    /** The copy's table. */
    String table() {
        return copy.table;
    }

    /**
     * A connection that may create and drop the copy: the owner's on the embedded server, whose application login is
     * an operator and may create nothing; the benchmark's own login on a server given by URL (its owner's, as the
     * admin guide says to run the benchmarks).
     */
    private Connection ddl() throws SQLException {
        Optional<Connection> owner = db.ownerConnection();
        return owner.isPresent() ? owner.get() : dataSource.getConnection();
    }

    /** Creates the copy (LIKE … INCLUDING ALL copies defaults, constraints and indexes, never triggers) with these rows. */
    void create(List<Long> ids) throws SQLException {
        try (Connection c = ddl(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + copy.table);
            s.execute(String.format(copy.create, copy.table));
            if (db.embeddedServer().isPresent()) { // made by the owner, saved into by the application's login
                s.execute("GRANT SELECT, UPDATE ON " + copy.table + " TO lockstep_operators");
            }
            // The stored columns by name. The search text is the row trigger's to keep since V25 (no longer generated),
            // and the copies have no trigger: copied as it is, and left alone by the UPDATE, which names no search field.
            String columns = "id, " + String.join(", ", CustomerField.all().stream().map(CustomerField::column)
                    .toList()) + ", version, updated_at, updated_by, search_text";
            s.execute("INSERT INTO " + copy.table + " (" + columns + ") SELECT " + columns
                    + " FROM customer WHERE id IN (" + String.join(", ", ids.stream().map(String::valueOf).toList())
                    + ")");
        }
    }

    /** Drops the copy. */
    void drop() throws SQLException {
        try (Connection c = ddl(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + copy.table);
        }
    }

    /** @return the new version, or empty when the row was not at {@code base} */
    OptionalLong save(long id, long base, CustomerData data) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            for (CustomerField f : CustomerField.all()) {
                Object v = data.get(f);
                if (f.numeric()) {
                    ps.setBigDecimal(i++, (BigDecimal) v);
                } else if (v == null) {
                    ps.setNull(i++, Types.VARCHAR);
                } else {
                    ps.setString(i++, (String) v);
                }
            }
            ps.setString(i++, user);
            ps.setLong(i++, id);
            ps.setLong(i, base);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }
}
