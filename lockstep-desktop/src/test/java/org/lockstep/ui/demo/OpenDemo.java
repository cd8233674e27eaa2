package org.lockstep.ui.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.lockstep.server.Database;
import org.lockstep.server.PostgresClient;
import org.lockstep.ui.DemoClients;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.Fx;

/** The demo's windows opened on a test database as `lockstep demo` opens them, at the fast pace; closed in order. */
public final class OpenDemo {

    private OpenDemo() {
    }

    /** Opens Alice's, Bob's and the Trainer's windows on {@code db}, leases lasting {@code leaseTtl}. */
    public static DemoSession open(Database db, FxTaskExecutor executor, Duration leaseTtl) {
        return open(DemoClients.over(PostgresClient.of(db, "Trainer", () -> {}), leaseTtl, Duration.ofMinutes(15)),
                executor);
    }

    /** Opens Alice's, Bob's and the Trainer's windows on {@code clients}, as the application wires them. */
    public static DemoSession open(DemoClients clients, FxTaskExecutor executor) {
        AtomicReference<Object> opened = new AtomicReference<>();
        Fx.run(() -> DemoSession.open(clients, executor, Pace.FAST, opened::set, opened::set));
        Fx.await("the demo's windows", () -> opened.get() != null);
        assertThat(opened.get()).isInstanceOf(DemoSession.class);
        return (DemoSession) opened.get();
    }

    /** Closes the demo and waits for it: the clients' pools close before the test closes the database. */
    public static void close(DemoSession demo) throws Exception {
        if (demo != null) {
            Fx.run(demo::close);
            demo.closed().get(30, TimeUnit.SECONDS);
        }
    }
}
