package org.lockstep.app.cli;

import java.util.concurrent.Callable;
import org.lockstep.app.DesktopApp;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code lockstep demo}: two operator windows, Alice and Bob, each its own client of one database (the embedded one
 * unless {@code --db-url} is given), and the Trainer panel with its six scenarios. Leases last
 * {@link DesktopApp#DEMO_LEASE_TTL} unless {@code --lease-ttl} says otherwise, so that a crashed holder's lease
 * lapses while the class watches.
 */
@Command(name = "demo",
        description = {"Show the lost update and its cures: two operator windows (Alice and Bob) on one database "
                + "and a Trainer panel that runs six scenarios step by step.",
                "Leases last 15s in the demo unless --lease-ttl is given (its 60s default is the editor's). For two "
                        + "real screens, run "
                        + "`lockstep --user Alice` and `lockstep --user Bob` against one --db-url instead."})
public final class DemoCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;

    @Override
    public Integer call() {
        return DesktopApp.runDemo(launcher.config(), launcher.leaseTtlOr(DesktopApp.DEMO_LEASE_TTL));
    }
}
