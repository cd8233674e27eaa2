package org.lockstep.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * The baseline that {@code lockstep bench save} compares Lockstep's store with: the very statement of
 * {@link JdbiCustomerRepository#save} ({@link JdbiCustomerRepository#SAVE_SQL}, its named parameters turned into
 * JDBC's {@code ?}), run through a plain {@link PreparedStatement} in auto-commit mode, followed like the store's by
 * its announcement ({@link Announcements}), with no validation, no mapping and no conflict handling: the least work
 * Lockstep's versioned save can do. Not for the application's use.
 */
public final class RawJdbcSave {

    private static final Pattern PARAMETER = Pattern.compile(":(\\w+)");

    /** The JDBC form of the save statement, {@code ?} in place of each named parameter. */
    static final String SQL;
    private static final List<String> PARAMETERS;
    /** The field behind each parameter, resolved once so that the timed loop does no look-ups; null for others. */
    private static final CustomerField[] FIELDS;

    static {
        List<String> names = new ArrayList<>();
        Matcher m = PARAMETER.matcher(JdbiCustomerRepository.SAVE_SQL);
        StringBuilder sql = new StringBuilder();
        while (m.find()) {
            names.add(m.group(1));
            m.appendReplacement(sql, "?");
        }
        m.appendTail(sql);
        SQL = sql.toString();
        PARAMETERS = List.copyOf(names);
        FIELDS = names.stream().map(n -> CustomerField.byColumn(n).orElse(null)).toArray(CustomerField[]::new);
    }

    private static final String ANNOUNCE = "SELECT set_config('synchronous_commit', 'off', true), pg_notify('"
            + PgChangeFeed.CHANNEL + "', json_build_object('table', 'customer', 'id', ?, 'version', ?, 'op', 'UPDATE',"
            + " 'session', ?)::text)";

    /** The client session the raw path writes as (the same work as the store's: a lease check and the setting). */
    private static final String SESSION = "raw-jdbc-bench";

    private final DataSource dataSource;
    private final String user;

    /**
     * @param dataSource the same pool the store uses
     * @param user       written to {@code updated_by}
     */
    public RawJdbcSave(DataSource dataSource, String user) {
        this.dataSource = dataSource;
        this.user = user;
    }

    /**
     * Runs the versioned {@code UPDATE … WHERE id = ? AND version = ? RETURNING *} once.
     *
     * @param data values written as they are (the caller passes normalized, valid values)
     * @return the new version, or empty when zero rows matched (a conflict)
     * @throws SQLException as the driver throws it
     */
    public OptionalLong save(long id, long baseVersion, CustomerData data) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(SQL)) {
            for (int i = 0; i < PARAMETERS.size(); i++) {
                bind(ps, i + 1, i, id, baseVersion, data);
            }
            ps.execute(); // the row lock, then the UPDATE (see JdbiCustomerRepository#SAVE_SQL)
            ps.getMoreResults();
            OptionalLong version;
            try (ResultSet rs = ps.getResultSet()) {
                version = rs.next() ? OptionalLong.of(rs.getLong("version")) : OptionalLong.empty();
            }
            if (version.isPresent()) {
                // The store's save announces itself after its commit (Announcements): the same statement here.
                try (PreparedStatement announce = c.prepareStatement(ANNOUNCE)) {
                    announce.setLong(1, id);
                    announce.setLong(2, version.getAsLong());
                    announce.setString(3, SESSION);
                    announce.execute();
                }
            }
            return version;
        }
    }

    private void bind(PreparedStatement ps, int index, int parameter, long id, long base, CustomerData data)
            throws SQLException {
        CustomerField f = FIELDS[parameter];
        if (f != null) {
            Object v = data.get(f);
            if (f.numeric()) {
                ps.setBigDecimal(index, (BigDecimal) v);
            } else if (v == null) {
                ps.setNull(index, Types.VARCHAR);
            } else {
                ps.setString(index, (String) v);
            }
            return;
        }
        switch (PARAMETERS.get(parameter)) {
            case "id" -> ps.setLong(index, id);
            case "base" -> ps.setLong(index, base);
            case "user" -> ps.setString(index, user);
            case "session" -> ps.setString(index, SESSION);
            case "request" -> ps.setString(index, java.util.UUID.randomUUID().toString());
            default -> throw new IllegalStateException("unknown parameter :" + PARAMETERS.get(parameter));
        }
    }
}
