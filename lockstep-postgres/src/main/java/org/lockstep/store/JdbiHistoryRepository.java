package org.lockstep.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.RecordedStory;

/**
 * Reads {@code customer_history} (see {@code db/migration/V2__history.sql}). Since V16 an UPDATE's history row keeps
 * the new row only: its old row is the new row of the customer's previous history row, which every read of whole
 * entries takes with {@code lag()} (rows written before V16 still carry their own {@code old_row}). Since V23 a
 * restore's row names the version it restored ({@code restored_from}).
 */
public final class JdbiHistoryRepository implements HistoryRepository {

    /**
     * Jackson's mapper, made with the first history read, not with the repository, which the desktop makes before its
     * first page (docs/benchmarks.md, "Issue 30, phase 4").
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    private static final String SELECT = """
            SELECT customer_id, version, op, changed_by, changed_at, old_row::text AS old_row, new_row::text AS new_row,
                   restored_from
            FROM customer_history
            """;
    /**
     * Every entry of one customer ({@code :id}), oldest first, with the old row of each UPDATE; a condition on
     * {@code version} follows. The window runs over the customer's whole history before the condition applies, so
     * the first entry of a range still finds its predecessor.
     */
    private static final String ENTRIES = """
            SELECT customer_id, version, op, changed_by, changed_at, old_row::text AS old_row, new_row::text AS new_row,
                   restored_from
            FROM (SELECT id, customer_id, version, op, changed_by, changed_at,
                         CASE WHEN op = 'UPDATE' THEN coalesce(old_row, lag(new_row) OVER (ORDER BY id)) ELSE old_row END
                             AS old_row,
                         new_row, restored_from
                  FROM customer_history WHERE customer_id = :id) h
            """;

    private final Jdbi jdbi;
    private final RowMapper<HistoryEntry> mapper = new EntryMapper();

    /** @param jdbi the database */
    public JdbiHistoryRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public List<HistoryEntry> history(long customerId) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(ENTRIES
                + "ORDER BY id").bind("id", customerId).map(mapper).list()));
    }

    @Override
    public Optional<CustomerData> valuesAt(long customerId, long version) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(SELECT
                + "WHERE customer_id = :id AND version = :v AND op <> 'DELETE' ORDER BY id DESC LIMIT 1")
                .bind("id", customerId).bind("v", version).map(mapper).findOne()
                .flatMap(HistoryEntry::after)));
    }

    @Override
    public List<HistoryEntry> between(long customerId, long fromVersion, long toVersion) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(ENTRIES
                + "WHERE version > :from AND version <= :to ORDER BY id")
                .bind("id", customerId).bind("from", fromVersion).bind("to", toVersion).map(mapper).list()));
    }

    @Override
    public Optional<HistoryEntry> deletion(long customerId) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(SELECT
                + "WHERE customer_id = :id AND op = 'DELETE' ORDER BY id DESC LIMIT 1")
                .bind("id", customerId).map(mapper).findOne()));
    }

    /** {@inheritDoc} See {@link StoryQueries} for the queries and their bounds. */
    @Override
    public RecordedStory story(long customerId) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> StoryQueries.read(h, customerId, mapper)));
    }

    /** The customer values in a {@code to_jsonb(customer)} document. */
    static CustomerData fromJson(String json) {
        try {
            JsonNode row = Json.MAPPER.readTree(json);
            Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
            for (CustomerField f : CustomerField.values()) {
                JsonNode v = row.get(f.column());
                if (v == null || v.isNull()) {
                    continue;
                }
                values.put(f, f.numeric() ? new BigDecimal(v.asText()) : v.asText());
            }
            return CustomerData.fromMap(values);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Unreadable history row: " + e.getMessage(), e);
        }
    }

    private static final class EntryMapper implements RowMapper<HistoryEntry> {
        @Override
        public HistoryEntry map(ResultSet rs, StatementContext ctx) throws SQLException {
            String oldRow = rs.getString("old_row");
            String newRow = rs.getString("new_row");
            long restored = rs.getLong("restored_from");
            OptionalLong restoredFrom = rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(restored);
            return new HistoryEntry(rs.getLong("customer_id"), rs.getLong("version"),
                    HistoryEntry.Op.valueOf(rs.getString("op")), rs.getString("changed_by"),
                    rs.getObject("changed_at", OffsetDateTime.class).toInstant(),
                    Optional.ofNullable(oldRow).map(JdbiHistoryRepository::fromJson),
                    Optional.ofNullable(newRow).map(JdbiHistoryRepository::fromJson),
                    restoredFrom);
        }
    }
}
