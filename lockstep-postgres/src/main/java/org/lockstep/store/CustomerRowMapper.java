package org.lockstep.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * Maps a {@code customer} row. By column name (all columns, as {@code SELECT *} or {@code RETURNING *} gives them), or
 * — {@link #ofColumns()} — by position, for statements that select exactly {@link #COLUMNS}: the list's pages and the
 * save's {@code RETURNING}, where looking up twenty names per row was a measurable part of the client's work.
 */
final class CustomerRowMapper implements RowMapper<Customer> {

    /**
     * The stored columns of a customer in the order {@link #ofColumns()} reads them: the id, the fields in {@link
     * CustomerField#all()}'s order (which is {@link CustomerData}'s), the version and the stamps — everything but the
     * generated {@code search_text} (V19), which only the database's search reads.
     */
    static final String COLUMNS = "id, " + String.join(", ", CustomerField.all().stream().map(CustomerField::column)
            .toList()) + ", version, updated_at, updated_by";

    private final boolean byPosition;

    /** A mapper reading columns by name. */
    CustomerRowMapper() {
        this(false);
    }

    private CustomerRowMapper(boolean byPosition) {
        this.byPosition = byPosition;
    }

    /** A mapper for a row of exactly {@link #COLUMNS}, in that order. */
    static CustomerRowMapper ofColumns() {
        return new CustomerRowMapper(true);
    }

    @Override
    public Customer map(ResultSet rs, StatementContext ctx) throws SQLException {
        return byPosition ? byPosition(rs) : byName(rs);
    }

    private static Customer byPosition(ResultSet rs) throws SQLException {
        CustomerData data = new CustomerData(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10),
                rs.getString(11), rs.getString(12), rs.getString(13), rs.getString(14), rs.getBigDecimal(15));
        return new Customer(rs.getLong(1), rs.getLong(16), data, rs.getObject(17, OffsetDateTime.class).toInstant(),
                rs.getString(18));
    }

    private static Customer byName(ResultSet rs) throws SQLException {
        CustomerData data = new CustomerData(
                rs.getString("external_ref"),
                rs.getString("company"),
                rs.getString("contact_name"),
                rs.getString("contact_title"),
                rs.getString("email"),
                rs.getString("phone"),
                rs.getString("fax"),
                rs.getString("address"),
                rs.getString("city"),
                rs.getString("region"),
                rs.getString("postal_code"),
                rs.getString("country"),
                rs.getString("notes"),
                rs.getBigDecimal("credit_limit"));
        return new Customer(rs.getLong("id"), rs.getLong("version"), data,
                rs.getObject("updated_at", OffsetDateTime.class).toInstant(), rs.getString("updated_by"));
    }
}
