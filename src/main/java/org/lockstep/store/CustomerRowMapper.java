package org.lockstep.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;

/** Maps a {@code customer} row (all columns, as {@code SELECT *} or {@code RETURNING *} gives them). */
final class CustomerRowMapper implements RowMapper<Customer> {

    @Override
    public Customer map(ResultSet rs, StatementContext ctx) throws SQLException {
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
