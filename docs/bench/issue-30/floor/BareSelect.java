import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The floor under a Lockstep command's start (issue 30, phase 2): one JDBC connection (SCRAM, as Lockstep's
 * application role connects) to a Lockstep data directory's running embedded server, {@code SELECT 1}, exit. Run:
 * {@code java -jar bare-select.jar DATA_DIR}.
 */
public final class BareSelect {

    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[args.length - 1]);
        String port = Files.readString(data.resolve("port")).strip();
        String password = Files.readString(data.resolve("app-password")).strip();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/lockstep",
                "lockstep_app", password); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            rs.next();
            System.out.println(rs.getInt(1));
        }
    }
}
