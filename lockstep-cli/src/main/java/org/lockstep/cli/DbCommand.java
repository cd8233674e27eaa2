package org.lockstep.cli;

import java.util.concurrent.Callable;
import org.lockstep.server.EmbeddedServer;
import org.lockstep.config.LockstepConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code lockstep db status|stop}: manages the embedded PostgreSQL server of a data directory. */
@Command(name = "db", description = "Manage the embedded PostgreSQL server.",
        subcommands = {DbCommand.Status.class, DbCommand.Stop.class})
public final class DbCommand {

    @ParentCommand
    Launcher launcher;

    EmbeddedServer server(CommandSpec spec) {
        LockstepConfig config = launcher.config();
        if (config.dbUrl().isPresent()) {
            spec.commandLine().getErr().println("lockstep: a --db-url is set; there is no embedded server to manage");
        }
        return new EmbeddedServer(config.dataDir(), LockstepConfig.cacheDir(System.getenv()));
    }

    /** {@code lockstep db status}: whether the server runs, its port, connected clients and the role they use. */
    @Command(name = "status",
            description = "Show whether the embedded server runs, its port, its clients and the role they connect as.")
    static final class Status implements Callable<Integer> {
        @ParentCommand
        DbCommand db;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            EmbeddedServer server = db.server(spec);
            EmbeddedServer.Status s = server.status();
            var out = spec.commandLine().getOut();
            out.println("data directory: " + server.dataDir());
            if (s.running()) {
                out.println("running: yes (pid " + s.pid() + ", port " + s.port() + ", " + s.clients()
                        + " client session" + (s.clients() == 1 ? "" : "s") + ")");
                out.println("url: jdbc:postgresql://127.0.0.1:" + s.port() + "/" + EmbeddedServer.DATABASE);
            } else {
                out.println("running: no");
            }
            out.println("role: " + s.role() + (s.roleIsSuperuser()
                    ? " (a superuser, as older Lockstep versions used; the next Lockstep command moves clients to "
                            + EmbeddedServer.APP_ROLE + ")"
                    : " (not a superuser; the superuser " + EmbeddedServer.ADMIN_ROLE + " only sets the server up)"));
            return ExitCodes.OK;
        }
    }

    /** {@code lockstep db stop}: stops the embedded server (open transactions roll back). */
    @Command(name = "stop", description = "Stop the embedded server; clients still connected lose their connection.")
    static final class Stop implements Callable<Integer> {
        @ParentCommand
        DbCommand db;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            boolean stopped = db.server(spec).stop();
            spec.commandLine().getOut().println(stopped ? "stopped" : "not running");
            return ExitCodes.OK;
        }
    }
}
