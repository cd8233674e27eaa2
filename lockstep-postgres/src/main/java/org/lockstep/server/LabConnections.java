package org.lockstep.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;
import org.lockstep.lab.ConnectionRoom;
import org.lockstep.lab.ContentionLab;
import org.lockstep.lab.LabRunner;
import org.lockstep.lab.StockStore;
import org.lockstep.lab.StockStores;
import org.lockstep.store.JdbiLabStore;
import org.lockstep.store.SessionSettings;

/**
 * Wires the contention lab to a {@link Database}. The lab's buyers must really race, each on its own connection,
 * and there are more of them than the editor's pool holds ({@value Database#POOL_SIZE}); so each lab run gets a
 * separate pool on the same server, sized to its buyers and closed when the run ends. Its connections are bounded
 * as the editor's are ({@link SessionSettings#boundEveryStatement}): no statement of the lab — the setup that resets its
 * rows included — waits for a lock longer than {@code lock_timeout} or runs longer than {@code statement_timeout};
 * a pessimistic buyer sets its own, shorter lock timeout ({@code --lock-timeout-ms}). Before a run opens its pool,
 * {@link #room()} asks the server how many connections it has free.
 */
public final class LabConnections implements StockStores {

    /** How {@code pg_stat_activity.application_name} shows the lab's connections. */
    static final String APPLICATION = "Lockstep lab";

    private final HikariDataSource main;
    private final Jdbi jdbi;

    private LabConnections(HikariDataSource main, Jdbi jdbi) {
        this.main = main;
        this.jdbi = jdbi;
    }

    /** A lab runner on the database of {@code db}. */
    public static LabRunner runner(Database db) {
        HikariDataSource main;
        try {
            main = db.dataSource().unwrap(HikariDataSource.class);
        } catch (SQLException e) {
            throw new IllegalStateException("The database's pool is not a HikariCP pool", e);
        }
        return new ContentionLab(new LabConnections(main, db.jdbi()));
    }

    @Override
    public StockStore open(int connections) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(main.getJdbcUrl());
        config.setUsername(main.getUsername());
        config.setPassword(main.getPassword());
        config.setPoolName("lockstep-lab");
        config.setMaximumPoolSize(connections);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(10_000);
        config.setInitializationFailTimeout(10_000);
        config.addDataSourceProperty("ApplicationName", APPLICATION);
        config.addDataSourceProperty("connectTimeout", "5");
        SessionSettings.boundEveryStatement(config);
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot open " + connections + " connections for the lab: "
                    + Database.rootMessage(e), e);
        }
        return new JdbiLabStore(Jdbi.create(pool).installPlugin(new PostgresPlugin()), pool::close);
    }

    /** The connections free on the server for the lab's role, through the editor's pool. */
    @Override
    public ConnectionRoom room() {
        return JdbiLabStore.connectionRoom(jdbi);
    }
}
