package org.lockstep.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.lockstep.server.admin.NotPermittedHere;
import org.lockstep.server.admin.OperatorLogins;
import org.lockstep.server.admin.PrivilegeCheck;
import org.lockstep.server.admin.PsqlFile;
import org.lockstep.server.admin.ServerLogin;
import org.lockstep.server.admin.TeamSetup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep admin setup|add-operator|check}: a team server's roles as commands (docs/admin-guide.md, "Roles and
 * privileges"; issue 26), for an administrator with no psql. They need a {@code --db-url}: a team server, never the
 * embedded one. Exit 5 when the login may not do it (the message says who may), 2 for a name or password that will
 * not do, 3 when a role of that name exists and is not an operator's, 1 for {@code check}'s findings.
 */
@Command(name = "admin", description = "Set a team server's roles up, add operators, check their privileges.",
        subcommands = {AdminCommand.Setup.class, AdminCommand.AddOperator.class, AdminCommand.Check.class})
public final class AdminCommand {

    private static final Logger LOG = LoggerFactory.getLogger(AdminCommand.class);

    @ParentCommand
    Launcher launcher;

    /** The administrator's login from {@code --db-url}. */
    ServerLogin login() {
        String url = launcher.config().dbUrl().orElseThrow(() -> new CommandSupport.UsageException(
                "admin commands work on a team server: give its --db-url (e.g. "
                        + "jdbc:postgresql://db.example.com:5432/lockstep?user=postgres)"));
        return new ServerLogin(url, System.getenv());
    }

    /** Runs {@code work}, mapping what it throws to the exit codes of docs/cli.md. */
    static int run(CommandSpec spec, Callable<Integer> work) {
        PrintWriter err = spec.commandLine().getErr();
        try {
            return work.call();
        } catch (NotPermittedHere e) {
            LOG.info("Refused", e);
            err.println("lockstep: " + e.getMessage());
            return ExitCodes.NOT_PERMITTED;
        } catch (SQLException e) {
            LOG.info("Admin command failed", e);
            err.println("lockstep: " + e.getMessage());
            return ExitCodes.FAILURE;
        } catch (Exception e) {
            return CommandSupport.failure(err, e);
        } finally {
            spec.commandLine().getOut().flush();
            err.flush();
        }
    }

    /** {@code lockstep admin setup [--owner NAME] [--database NAME]}. */
    @Command(name = "setup", description = {
            "Create or update the owner, the groups lockstep_operators, lockstep_supervisors and "
                    + "lockstep_shared_login, the database and its grants, then migrate the schema as the owner "
                    + "(docs/admin/team-roles.sql). Run it with a superuser's (or the owner's) --db-url; run it "
                    + "again after an upgrade. Run again, it changes nothing and says so."})
    static final class Setup implements Callable<Integer> {
        @ParentCommand
        AdminCommand admin;
        @Spec
        CommandSpec spec;
        @Option(names = "--owner", paramLabel = "NAME", defaultValue = TeamSetup.DEFAULT_OWNER,
                description = "The role that owns the database and migrates it; default ${DEFAULT-VALUE}.")
        String owner;
        @Option(names = "--database", paramLabel = "NAME",
                description = "Lockstep's database; default the --db-url's, else lockstep.")
        String database;

        @Override
        public Integer call() {
            return run(spec, () -> {
                ServerLogin login = admin.login();
                OperatorLogins.requireName(owner);
                String db = database != null ? database : login.database();
                TeamSetup.Report r = TeamSetup.run(login, owner, db);
                PrintWriter out = spec.commandLine().getOut();
                for (PsqlFile.Sent s : r.statements()) {
                    out.println(s.sql().replaceAll("\\s+", " "));
                }
                if (r.migrated()) {
                    out.println("schema: migrated to version " + r.versionAfter() + " as " + r.migratedAs()
                            + (r.versionBefore() == null ? "" : " (from " + r.versionBefore() + ")"));
                } else {
                    out.println("schema: at version " + r.versionAfter() + ", nothing to migrate");
                }
                out.println(r.privileges() ? "privileges: granted as afterMigrate.sql says"
                        : "privileges: as afterMigrate.sql says already");
                if (r.nothingChanged()) {
                    out.println("nothing changed: " + db + " was set up already");
                }
                return ExitCodes.OK;
            });
        }
    }

    /** {@code lockstep admin add-operator NAME [--supervisor] [--shared-login] [--password-stdin]}. */
    @Command(name = "add-operator", description = {
            "Create an operator's login, a member of lockstep_operators (docs/admin/add-operator.sql); the password "
                    + "is asked for, or read from stdin, and sent only as its SCRAM hash. An operator's login that "
                    + "exists already joins the groups given; its password stays. Run it with a superuser's (or a "
                    + "CREATEROLE role's) --db-url."})
    static final class AddOperator implements Callable<Integer> {
        @ParentCommand
        AdminCommand admin;
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "NAME",
                description = "The login, exactly as written (capitals, spaces and quotes are kept).")
        String name;
        @Option(names = "--supervisor", description = "Also a member of lockstep_supervisors: may break a lock.")
        boolean supervisor;
        @Option(names = "--shared-login", description = "Also a member of lockstep_shared_login: a login several "
                + "people share at one machine, whose client names the operator.")
        boolean sharedLogin;
        @Option(names = "--password-stdin", description = "Read the password from stdin's first line instead of "
                + "asking for it (never give a password on the command line).")
        boolean passwordStdin;

        @Override
        public Integer call() {
            return run(spec, () -> {
                CommandSupport.requireUtf8(spec, name);
                ServerLogin login = admin.login();
                Set<OperatorLogins.Group> groups = EnumSet.noneOf(OperatorLogins.Group.class);
                if (supervisor) {
                    groups.add(OperatorLogins.Group.SUPERVISORS);
                }
                if (sharedLogin) {
                    groups.add(OperatorLogins.Group.SHARED_LOGIN);
                }
                OperatorLogins.Outcome outcome;
                try (Connection c = login.connect()) {
                    outcome = OperatorLogins.add(c, name, groups, this::password);
                }
                PrintWriter out = spec.commandLine().getOut();
                if (outcome instanceof OperatorLogins.Created created) {
                    out.println("created the login " + created.name() + ", a member of lockstep_operators"
                            + also(created.groups()));
                    return ExitCodes.OK;
                }
                if (outcome instanceof OperatorLogins.Joined joined) {
                    out.println(joined.joined().isEmpty()
                            ? joined.name() + " is an operator already" + also(joined.groups()) + "; nothing changed"
                            : joined.name() + " is an operator already; now a member of " + roles(joined.joined())
                                    + " too (its password is unchanged)");
                    return ExitCodes.OK;
                }
                spec.commandLine().getErr().println("lockstep: conflict: a role named " + outcome.name()
                        + " exists and is not an operator's login (another login, a group or the owner);"
                        + " nothing changed: choose another name");
                return ExitCodes.CONFLICT;
            });
        }

        private static String also(Set<OperatorLogins.Group> groups) {
            return groups.isEmpty() ? "" : " and of " + roles(groups);
        }

        private static String roles(Set<OperatorLogins.Group> groups) {
            return groups.stream().map(OperatorLogins.Group::role).collect(Collectors.joining(" and "));
        }

        /** The new login's password: stdin's first line, or asked twice on the terminal. */
        private char[] password() {
            if (passwordStdin) {
                try {
                    String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                            .readLine();
                    return requirePassword(line == null ? new char[0] : line.toCharArray());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            Console console = System.console();
            if (console == null) {
                throw new CommandSupport.UsageException("no terminal to ask for " + name
                        + "'s password: give it on stdin with --password-stdin");
            }
            char[] first = console.readPassword("Password for %s: ", name);
            char[] again = console.readPassword("Again: ");
            if (first == null || again == null || !Arrays.equals(first, again)) {
                throw new CommandSupport.UsageException("the passwords typed differ; nothing changed");
            }
            Arrays.fill(again, '\0');
            return requirePassword(first);
        }

        private static char[] requirePassword(char[] password) {
            if (password.length == 0) {
                throw new CommandSupport.UsageException("an empty password; nothing changed");
            }
            return password;
        }
    }

    /** {@code lockstep admin check [--json]}. */
    @Command(name = "check", description = {
            "List every privilege an operator (or PUBLIC) holds in Lockstep's database that it should not: writes "
                    + "on the audit tables, lockstep_lease_end, lockstep_lease_break for non-supervisors, CREATE "
                    + "in the schema, role attributes beyond LOGIN, the owner's role. Exit 1 when anything is "
                    + "found, 0 when clean. Changes nothing."})
    static final class Check implements Callable<Integer> {
        @ParentCommand
        AdminCommand admin;
        @Spec
        CommandSpec spec;
        @Option(names = "--json", description = "Print a JSON array, one object per finding (kind, role, object, "
                + "logins, message).")
        boolean json;

        @Override
        public Integer call() {
            return run(spec, () -> {
                ServerLogin login = admin.login();
                List<PrivilegeCheck.Finding> found;
                try (Connection c = login.connect()) {
                    found = PrivilegeCheck.findings(c);
                }
                PrintWriter out = spec.commandLine().getOut();
                if (json) {
                    ArrayNode array = Json.mapper().createArrayNode();
                    for (PrivilegeCheck.Finding f : found) {
                        array.addObject().put("kind", f.kind()).put("role", f.role()).put("object", f.object())
                                .put("logins", f.logins()).put("message", f.message());
                    }
                    out.println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(array));
                } else if (found.isEmpty()) {
                    out.println("clean: no operator holds more than Lockstep grants");
                } else {
                    found.forEach(f -> out.println(f.message()));
                }
                return found.isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
            });
        }
    }
}
