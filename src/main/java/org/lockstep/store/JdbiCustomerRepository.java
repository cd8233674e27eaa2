package org.lockstep.store;

import java.math.BigDecimal;
import java.sql.Types;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.SqlStatement;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;

/**
 * Customers in PostgreSQL through Jdbi. Saves and deletes are versioned single statements (PoEAA, Optimistic
 * Offline Lock): the {@code WHERE version = :base} clause and the row lock that {@code UPDATE} takes make the check
 * and the write one atomic step, so of any number of concurrent saves on one base version exactly one commits
 * (PostgreSQL docs, 13.2.1 Read Committed: a waiting UPDATE re-evaluates its WHERE clause on the new row version).
 */
public final class JdbiCustomerRepository implements CustomerRepository {

    static final String COLUMNS = String.join(", ", CustomerField.all().stream().map(CustomerField::column).toList());
    private static final String VALUES = String.join(", ",
            CustomerField.all().stream().map(f -> ":" + f.column()).toList());
    private static final String ASSIGNMENTS = String.join(", ",
            CustomerField.all().stream().map(f -> f.column() + " = :" + f.column()).toList());

    static final String SAVE_SQL = "UPDATE customer SET " + ASSIGNMENTS
            + ", version = version + 1, updated_at = now(), updated_by = :user"
            + " WHERE id = :id AND version = :base RETURNING *";
    static final String INSERT_SQL = "INSERT INTO customer (" + COLUMNS + ", updated_by) VALUES (" + VALUES
            + ", :user) RETURNING *";

    private final Jdbi jdbi;
    private final String user;
    private final CustomerRowMapper mapper = new CustomerRowMapper();

    /**
     * @param jdbi the database
     * @param user the operator's name, written to {@code updated_by} on every write
     */
    public JdbiCustomerRepository(Jdbi jdbi, String user) {
        this.jdbi = jdbi;
        this.user = user;
    }

    /** The operator this repository writes as. */
    public String user() {
        return user;
    }

    @Override
    public Optional<Customer> find(long id) {
        return call(() -> jdbi.withHandle(h -> find(h, id)));
    }

    static Optional<Customer> find(Handle h, long id) {
        return h.createQuery("SELECT * FROM customer WHERE id = :id").bind("id", id)
                .map(new CustomerRowMapper()).findOne();
    }

    @Override
    public Customer create(CustomerData data) {
        CustomerData clean = valid(data);
        return call(() -> jdbi.withHandle(h -> insert(h, clean)));
    }

    Customer insert(Handle h, CustomerData clean) {
        return bindValues(h.createQuery(INSERT_SQL), clean).bind("user", user).map(mapper).one();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The UPDATE runs in auto-commit mode, without {@code BEGIN}/{@code COMMIT} around it: one statement is
     * already atomic, and an explicit transaction would cost a second round trip per save (the {@code COMMIT}).
     * Reading theirs after zero rows in the same transaction would add nothing either: under Read Committed each
     * statement takes a new snapshot anyway (PostgreSQL docs, 13.2.1), so the read sees the latest committed row
     * either way.
     */
    @Override
    public SaveOutcome save(long id, long baseVersion, CustomerData data) {
        CustomerData clean = valid(data);
        return call(() -> jdbi.withHandle(h -> {
            Optional<Customer> saved = bindValues(h.createQuery(SAVE_SQL), clean)
                    .bind("user", user).bind("id", id).bind("base", baseVersion)
                    .map(mapper).findOne();
            if (saved.isPresent()) {
                return new SaveOutcome.Saved(saved.get());
            }
            return new SaveOutcome.Conflict(find(h, id));
        }));
    }

    /** {@inheritDoc} Like {@link #save}, one auto-commit statement, then a read of theirs on zero rows. */
    @Override
    public DeleteOutcome delete(long id, long baseVersion) {
        return call(() -> jdbi.withHandle(h -> {
            int rows = h.createUpdate("DELETE FROM customer WHERE id = :id AND version = :base")
                    .bind("id", id).bind("base", baseVersion).execute();
            if (rows == 1) {
                return new DeleteOutcome.Deleted(id);
            }
            return new DeleteOutcome.Conflict(find(h, id));
        }));
    }

    @Override
    public List<Customer> page(CustomerPageRequest request) {
        return call(() -> jdbi.withHandle(h -> CustomerListQuery.page(h, request, mapper)));
    }

    @Override
    public CustomerCount count(String search, long budgetMs) {
        return call(() -> jdbi.withHandle(h -> CustomerListQuery.count(h, search, budgetMs)));
    }

    static CustomerData valid(CustomerData data) {
        List<FieldError> errors = CustomerValidator.validate(data);
        if (!errors.isEmpty()) {
            throw new InvalidCustomerException(errors);
        }
        return data.normalized();
    }

    /**
     * Binds each field by column name. The values are bound as ready {@link Argument}s of their SQL type rather than
     * by Java type: the type of every field is known here, and skipping Jdbi's per-value argument-factory look-up
     * takes a measurable part of a save's client-side cost (see docs/benchmarks.md).
     */
    static <S extends SqlStatement<S>> S bindValues(S statement, CustomerData data) {
        for (CustomerField f : CustomerField.values()) {
            Object v = data.get(f);
            Argument argument;
            if (v == null) {
                int type = f.numeric() ? Types.NUMERIC : Types.VARCHAR;
                argument = (position, ps, ctx) -> ps.setNull(position, type);
            } else if (f.numeric()) {
                BigDecimal d = (BigDecimal) v;
                argument = (position, ps, ctx) -> ps.setBigDecimal(position, d);
            } else {
                String text = (String) v;
                argument = (position, ps, ctx) -> ps.setString(position, text);
            }
            statement.bind(f.column(), argument);
        }
        return statement;
    }

    static <T> T call(Supplier<T> body) {
        try {
            return body.get();
        } catch (InvalidCustomerException e) {
            throw e;
        } catch (RuntimeException e) {
            throw StoreErrors.translate(e);
        }
    }
}
