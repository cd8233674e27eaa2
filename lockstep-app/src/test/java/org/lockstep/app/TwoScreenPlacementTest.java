package org.lockstep.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.demo.DemoLayout;
import org.lockstep.ui.demo.DemoScreens;
import org.lockstep.testing.db.TestDatabases;

/**
 * The demo on two real screens. The test JVM runs Monocle (one screen), so the demo runs in a child JVM under a real
 * X server with two RandR outputs — Xorg with the dummy video driver, whose outputs {@code DUMMY0} and
 * {@code DUMMY1} xrandr turns on side by side, 1600×900 each — and JavaFX's GTK glass, which lists them as two
 * screens. Xvfb could not do this: its one RandR output leaves GTK one screen, and monitors added with
 * {@code xrandr --setmonitor} have no output, which GTK skips (docs/decisions/0008-trainer-demo.md). The child prints
 * where its windows went ({@link DemoScreens#REPORT_PROPERTY}); the real window geometry is read back from the X
 * server with {@code xwininfo}. Then DUMMY1 is switched off, as a monitor unplugged, and the windows must come back to
 * the one-screen layout. Skipped, saying why, where Xorg, its dummy driver, xrandr or xwininfo are missing; .ci/run
 * installs them.
 */
@DatabaseTest
@Tag(WindowTest.TAG) // its windows open in a child JVM, on a real X server: no toolkit starts in this one
class TwoScreenPlacementTest {

    private static final Path XORG = Path.of("/usr/lib/xorg/Xorg");
    private static final Path DUMMY_DRIVER = Path.of("/usr/lib/xorg/modules/drivers/dummy_drv.so");
    private static final Pattern PLACEMENT = Pattern.compile(
            "demo-placement screens=(\\d+) alice=(\\S+) bob=(\\S+) trainer=(\\S+)");
    private static final Duration WAIT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    private Process xorg;
    private Process demo;

    @AfterEach
    void stop() {
        for (Process p : new Process[]{demo, xorg}) {
            if (p != null) {
                p.destroy();
                try {
                    if (!p.waitFor(20, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    void aliceAndBobEachFillAScreenTheTrainerSharesItsScreenAndAnUnplugBringsBackTheOneScreenLayout()
            throws Exception {
        assumeTrue(Files.isExecutable(XORG) || Files.isExecutable(Path.of("/usr/bin/Xorg")),
                "no Xorg here (package xserver-xorg-core; .ci/run installs it)");
        assumeTrue(Files.exists(DUMMY_DRIVER), "no dummy video driver here (package xserver-xorg-video-dummy)");
        assumeTrue(onPath("xrandr"), "no xrandr here (package x11-xserver-utils)");
        // Xorg takes a -config from outside /etc/X11 only from root (Xorg.wrap); .ci/run runs as root.
        assumeTrue("root".equals(System.getProperty("user.name")), "Xorg with a config of its own needs root");
        assumeTrue(onPath("xwininfo"), "no xwininfo here (package x11-utils)");

        String display = startXorg();
        run(display, "xrandr", "--addmode", "DUMMY1", "1600x900");
        run(display, "xrandr", "--output", "DUMMY0", "--mode", "1600x900", "--pos", "0x0", "--primary", "--output",
                "DUMMY1", "--mode", "1600x900", "--pos", "1600x0");

        String monitors = run(display, "xrandr", "--listmonitors");
        assertThat(monitors).as("the X server's monitors").contains("Monitors: 2");
        String url = TestDatabases.freshUrlWithCredentials();
        TestDatabases.createDemoDatabaseBeside(url); // the demo keeps its customers in a database of its own
        BlockingQueue<String> lines = startDemo(display, url);
        Matcher two = awaitPlacement(lines, 2);
        // Alice fills screen 1, Bob screen 2 above the Trainer panel, which takes the bottom of screen 2
        // (--trainer-screen 2), as DemoLayout places them: 30 % of a screen under 1000 pixels high.
        assertThat(two.group(2)).isEqualTo("0,0,1600,900");
        assertThat(two.group(3)).isEqualTo("1600,0,1600,630");
        assertThat(two.group(4)).isEqualTo("1600,630,1600,270");
        // And where the X server has them: the windows themselves, not only what JavaFX was told.
        assertGeometry(display, "Alice — Lockstep demo", "0,0,1600,900");
        assertGeometry(display, "Bob — Lockstep demo", "1600,0,1600,630");
        assertGeometry(display, "Trainer — Lockstep demo", "1600,630,1600,270");

        run(display, "xrandr", "--output", "DUMMY1", "--off");
        Matcher one = awaitPlacement(lines, 1);
        DemoLayout.Placement expected = DemoLayout.place(List.of(new DemoLayout.Bounds(0, 0, 1600, 900)), 0, 2);
        assertThat(one.group(2)).isEqualTo(text(expected.alice())).isEqualTo("0,0,800,630");
        assertThat(one.group(3)).isEqualTo(text(expected.bob())).isEqualTo("800,0,800,630");
        assertThat(one.group(4)).isEqualTo(text(expected.trainer())).isEqualTo("0,630,1600,270");
        assertGeometry(display, "Alice — Lockstep demo", "0,0,800,630");
        assertGeometry(display, "Bob — Lockstep demo", "800,0,800,630");
        assertGeometry(display, "Trainer — Lockstep demo", "0,630,1600,270");
    }

    /** Starts Xorg on a free display (it picks one and writes its number: -displayfd) and answers it, e.g. ":3". */
    private String startXorg() throws IOException, InterruptedException {
        Path conf = dir.resolve("dummy.conf");
        Files.writeString(conf, """
                Section "Device"
                    Identifier "dummy"
                    Driver "dummy"
                    VideoRam 256000
                EndSection
                Section "Monitor"
                    Identifier "monitor"
                    HorizSync 5.0-1000.0
                    VertRefresh 5.0-200.0
                EndSection
                Section "Screen"
                    Identifier "screen"
                    Device "dummy"
                    Monitor "monitor"
                    DefaultDepth 24
                    SubSection "Display"
                        Depth 24
                        Virtual 3200 900
                    EndSubSection
                EndSection
                """);
        Path number = dir.resolve("display");
        // -config under a directory of the test's own needs root, as in CI; Xorg picks a free display itself.
        xorg = new ProcessBuilder("sh", "-c", "exec Xorg -noreset -nolisten tcp -displayfd 3 -config " + conf
                + " -logfile " + dir.resolve("xorg.log") + " 3>" + number)
                .redirectErrorStream(true).redirectOutput(dir.resolve("xorg.out").toFile()).start();
        Instant until = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(until)) {
            String n = Files.exists(number) ? Files.readString(number).trim() : "";
            if (!n.isEmpty()) {
                return ":" + n;
            }
            if (!xorg.isAlive()) {
                break;
            }
            xorg.waitFor(200, TimeUnit.MILLISECONDS); // Xorg writes its display number once it accepts clients
        }
        throw new AssertionError("Xorg did not start: " + Files.readString(dir.resolve("xorg.out")));
    }

    /** Starts {@code lockstep demo --trainer-screen 2} in a child JVM on {@code display}; its output lines. */
    private BlockingQueue<String> startDemo(String display, String dbUrl) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Dglass.platform=gtk", "-Dprism.order=sw", "-Djavafx.verbose=true",
                "-D" + DemoScreens.REPORT_PROPERTY + "=true",
                // Preferences of its own: the account's may hold a language chosen in the app (pt-BR, left by a
                // session by hand), which titled the windows "Alice — Demonstração…" and no window had the name.
                "-Duser.language=en", "-Duser.country=US", "-Djava.util.prefs.userRoot=" + dir.resolve("prefs"),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "--data-dir",
                dir.resolve("data").toString(), "--db-url", dbUrl, "demo", "--trainer-screen", "2"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("DISPLAY", display);
        pb.environment().remove("LOCKSTEP_DATA_DIR");
        demo = pb.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(demo.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("read failed: " + e);
            }
        }, "demo-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    /** The first placement line on {@code screens} screens, skipping earlier ones; all output so far if none came. */
    private Matcher awaitPlacement(BlockingQueue<String> lines, int screens) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        Instant until = Instant.now().plus(WAIT);
        while (Instant.now().isBefore(until)) {
            String line = lines.poll(1, TimeUnit.SECONDS);
            if (line == null) {
                if (!demo.isAlive() && lines.isEmpty()) {
                    break;
                }
                continue;
            }
            seen.add(line);
            Matcher m = PLACEMENT.matcher(line);
            if (m.find() && Integer.parseInt(m.group(1)) == screens) {
                return m;
            }
        }
        throw new AssertionError("no placement on " + screens + " screen(s); the demo printed:\n"
                + String.join("\n", seen) + "\nits log file:\n" + logTail());
    }

    /** The demo's own log (stderr has one line a failure, the log its causes): its last 200 lines. */
    private String logTail() {
        Path log = dir.resolve("data").resolve("logs").resolve("lockstep.log");
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - 200), all.size()));
        } catch (IOException e) {
            return "(none: " + e + ")";
        }
    }

    /** Waits until the X server has the window where JavaFX says it is: a move and a resize arrive one by one. */
    private static void assertGeometry(String display, String title, String expected) {
        Awaitility.await(title).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(geometry(display, title)).as(title).isEqualTo(expected));
    }

    /** The window's position and size in the X server, as "x,y,width,height" ({@code xwininfo -name}). */
    private static String geometry(String display, String title) throws IOException, InterruptedException {
        String info = run(display, "xwininfo", "-name", title);
        return value(info, "Absolute upper-left X") + "," + value(info, "Absolute upper-left Y") + ","
                + value(info, "Width") + "," + value(info, "Height");
    }

    private static String value(String info, String key) {
        Matcher m = Pattern.compile(Pattern.quote(key) + ":\\s+(-?\\d+)").matcher(info);
        if (!m.find()) {
            throw new AssertionError("no " + key + " in\n" + info);
        }
        return m.group(1);
    }

    private static String text(DemoLayout.Bounds b) {
        return Math.round(b.x()) + "," + Math.round(b.y()) + "," + Math.round(b.width()) + ","
                + Math.round(b.height());
    }

    private static String run(String display, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("DISPLAY", display);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed:\n" + out);
        }
        return out;
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }
}
