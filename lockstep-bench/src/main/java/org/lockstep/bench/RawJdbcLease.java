package org.lockstep.bench;

import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.LeaseSecrets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The baseline that {@code lockstep-bench lease} compares Lockstep's lease store with: the very acquire and release
 * statements of {@link JdbiLeaseRepository} (named parameters turned into JDBC's {@code ?}), run through plain
 * {@link PreparedStatement}s in auto-commit mode with no mapping: the least work a lease grant and release can do.
 * Not for the application's use.
 */
public final class RawJdbcLease {

    private static final Pattern PARAMETER = Pattern.compile("(?<!:):(\\w+)");

    private record Jdbc(String sql, List<String> parameters) {
        static Jdbc of(String named) {
            List<String> names = new ArrayList<>();
            Matcher m = PARAMETER.matcher(named);
            StringBuilder sql = new StringBuilder();
            while (m.find()) {
                names.add(m.group(1));
                m.appendReplacement(sql, "?");
            }
            m.appendTail(sql);
            return new Jdbc(sql.toString(), List.copyOf(names));
        }
    }

    private static final Jdbc ACQUIRE = Jdbc.of(JdbiLeaseRepository.ACQUIRE);
    private static final Jdbc RELEASE = Jdbc.of(JdbiLeaseRepository.RELEASE);

    private final DataSource dataSource;
    private final String holder;
    private final String session;
    private final String secret;

    /**
     * @param dataSource the same pool the store uses
     * @param holder     the operator's name
     * @param session    the client session
     */
    public RawJdbcLease(DataSource dataSource, String holder, String session) {
        this.dataSource = dataSource;
        this.holder = holder;
        this.session = session;
        this.secret = LeaseSecrets.ofThisProcess().secretOf(session);
    }

    /**
     * Runs the one-statement acquire.
     *
     * @return the fencing token, or empty when someone else holds the lease
     */
    public OptionalLong acquire(long recordId, long ttlMs) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(ACQUIRE.sql())) {
            bind(ps, ACQUIRE, recordId, 0, ttlMs);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong("token")) : OptionalLong.empty();
            }
        }
    }

    /** Runs the one-statement release. @return whether the lease was released */
    public boolean release(long recordId, long token) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(RELEASE.sql())) {
            bind(ps, RELEASE, recordId, token, 0);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private void bind(PreparedStatement ps, Jdbc jdbc, long id, long token, long ttlMs) throws SQLException {
        for (int i = 0; i < jdbc.parameters().size(); i++) {
            int index = i + 1;
            switch (jdbc.parameters().get(i)) {
                case "id" -> ps.setLong(index, id);
                case "token" -> ps.setLong(index, token);
                case "ttlMs" -> ps.setLong(index, ttlMs);
                case "holder", "actor" -> ps.setString(index, holder);
                case "session" -> ps.setString(index, session);
                case "secret" -> ps.setString(index, secret);
                default -> throw new IllegalStateException("unknown parameter :" + jdbc.parameters().get(i));
            }
        }
    }
}
