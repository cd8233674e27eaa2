import java.lang.management.*;
import java.nio.file.*;
public class CssParseVsBinary {
  public static void main(String[] a) throws Exception {
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    long c0 = t.getCurrentThreadCpuTime(), w0 = System.nanoTime();
    Object s;
    if (a[0].equals("css")) { s = new javafx.css.CssParser().parse(Files.readString(Path.of(a[1]))); }
    else { s = javafx.css.Stylesheet.loadBinary(Path.of(a[1]).toUri().toURL()); }
    long c1 = t.getCurrentThreadCpuTime(), w1 = System.nanoTime();
    System.out.println(a[0] + " cpu ms " + (c1-c0)/1e6 + " wall ms " + (w1-w0)/1e6 + " rules " + ((javafx.css.Stylesheet) s).getRules().size());
  }
}
