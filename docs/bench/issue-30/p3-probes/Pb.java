import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.lang.management.ManagementFactory;
public class Pb {
  public static void main(String[] a) throws Exception {
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (int i = 0; i < 5; i++) {
      long c0 = bean.getCurrentThreadCpuTime();
      // What pgjdbc's SCRAM (com.ongres.scram) does: PBKDF2WithHmacSHA256, 4096 iterations
      SecretKeyFactory f = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
      f.generateSecret(new PBEKeySpec("a-32-byte-random-password-here!!".toCharArray(), new byte[16], 4096, 256)).getEncoded();
      System.out.printf("derivation %d: %.1f CPU-ms%n", i + 1, (bean.getCurrentThreadCpuTime() - c0) / 1e6);
    }
  }
}
