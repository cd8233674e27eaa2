package org.lockstep.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.mapper.RowMapper;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * A save statement of the store ({@link CustomerWriteSql#SAVE_SQL} and its kin: one versioned UPDATE) in JDBC
 * form: each named parameter turned into {@code ?} once, its value bound by position, the
 * returned row mapped by position. The store runs its saves this way on its Jdbi handle's connection; it is public
 * so that the benchmarks' raw-JDBC baseline ({@code bench.RawJdbcSave}, in its own jar) runs the very same code: on a quiet machine, Jdbi's statement machinery
 * (parsing the names, finding an argument factory for each of twenty values, its statement context) was about
 * 0.04 ms of a 0.6 ms save (docs/benchmarks.md, "Issue 13 on a quiet machine").
 */
public final class PositionalSave {

    /** A named parameter; {@code ::} (a cast) is not one. */
    private static final Pattern PARAMETER = Pattern.compile("(?<!:):(\\w+)");

    /** What a parameter other than a field stands for. */
    private enum Param {
        ID, BASE, USER, SESSION, REQUEST, TOKEN, SECRET, RESTORED
    }

    /**
     * The values of one save: the customer's fields and the rest.
     *
     * @param token    the writer's fencing token; 0 when the statement takes none
     * @param secret   the writer's lease secret ({@link LeaseSecrets})
     * @param restored the earlier version whose values this save restores; 0 for an ordinary save
     */
    public record Values(long id, long base, String user, String session, String request, long token,
            String secret, long restored, CustomerData data) {

        /** An ordinary save's values: it restores no version. */
        public Values(long id, long base, String user, String session, String request, long token, String secret,
                CustomerData data) {
            this(id, base, user, session, request, token, secret, 0, data);
        }
    }

    private final String sql;
    /** Per {@code ?}: the field it binds, or null for {@link #params}' entry. */
    private final CustomerField[] fields;
    private final Param[] params;

    private PositionalSave(String sql, CustomerField[] fields, Param[] params) {
        this.sql = sql;
        this.fields = fields;
        this.params = params;
    }

    /**
     * The JDBC form of {@code namedSql}, whose parameters are customer fields (by column name) and {@code :id},
     * {@code :base}, {@code :user}, {@code :session}, {@code :request}, {@code :token}, {@code :secret} and
     * {@code :restored}.
     *
     * @throws IllegalArgumentException on any other parameter
     */
    public static PositionalSave of(String namedSql) {
        List<CustomerField> fields = new ArrayList<>();
        List<Param> params = new ArrayList<>();
        Matcher m = PARAMETER.matcher(namedSql);
        StringBuilder sql = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            Optional<CustomerField> field = CustomerField.byColumn(name).filter(f -> f.column().equals(name));
            fields.add(field.orElse(null));
            params.add(field.isPresent() ? null : switch (name) {
                case "id" -> Param.ID;
                case "base" -> Param.BASE;
                case "user" -> Param.USER;
                case "session" -> Param.SESSION;
                case "request" -> Param.REQUEST;
                case "token" -> Param.TOKEN;
                case "secret" -> Param.SECRET;
                case "restored" -> Param.RESTORED;
                default -> throw new IllegalArgumentException("unknown parameter :" + name + " in " + namedSql);
            });
            m.appendReplacement(sql, "?");
        }
        m.appendTail(sql);
        return new PositionalSave(sql.toString(), fields.toArray(CustomerField[]::new), params.toArray(Param[]::new));
    }

    /** The statement as sent, {@code ?} in place of each named parameter. */
    String sql() {
        return sql;
    }

    /**
     * Runs the statement on {@code c} (in auto-commit mode: it is its own transaction) and maps its row, if any.
     *
     * @throws JdbiException wrapping the driver's {@link SQLException}, SQLSTATE and all, as Jdbi's statements do
     */
    public <T> Optional<T> run(Connection c, Values v, RowMapper<T> mapper) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, v);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(mapper.map(rs, null)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new Failure(e);
        }
    }

    private void bind(PreparedStatement ps, Values v) throws SQLException {
        for (int i = 0; i < fields.length; i++) {
            int index = i + 1;
            CustomerField f = fields[i];
            if (f != null) {
                Object value = v.data().get(f);
                if (f.numeric()) {
                    ps.setBigDecimal(index, (BigDecimal) value);
                } else if (value == null) {
                    ps.setNull(index, Types.VARCHAR);
                } else {
                    ps.setString(index, (String) value);
                }
                continue;
            }
            switch (params[i]) {
                case ID -> ps.setLong(index, v.id());
                case BASE -> ps.setLong(index, v.base());
                case USER -> ps.setString(index, v.user());
                case SESSION -> ps.setString(index, v.session());
                case REQUEST -> ps.setString(index, v.request());
                case TOKEN -> ps.setLong(index, v.token());
                case SECRET -> ps.setString(index, v.secret());
                case RESTORED -> {
                    if (v.restored() > 0) {
                        ps.setLong(index, v.restored());
                    } else {
                        ps.setNull(index, Types.BIGINT);
                    }
                }
            }
        }
    }

    /** A save that failed in the driver or the database; the {@link SQLException} is its cause. */
    static final class Failure extends JdbiException {
        private static final long serialVersionUID = 1L;

        Failure(SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
