package org.lockstep.testing.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy in front of the test server that leaves one request's connection half open: armed with a marker, it
 * forwards the request containing it to the server except its final Sync message, then closes the connection on the
 * client's side only. The client sees its connection lost at once; the server has run the request's statements in
 * an implicit transaction that ends only at Sync (PostgreSQL docs, 55.2.4 "Pipelining"), so it holds the row locks
 * the request took, and neither commits nor rolls back, as long as the proxy keeps its side open: a write stalled
 * between its statements and its commit — as by a frozen backend, a commit waiting on a slow disk, or a network
 * that delivered part of a request. {@link #commitStalled()} delivers the Sync: the server commits.
 */
public final class HalfOpenProxy extends TestServerProxy {

    /** A Sync message: type 'S', length 4. */
    private static final byte[] SYNC = {'S', 0, 0, 0, 4};

    private final AtomicReference<byte[]> marker = new AtomicReference<>();
    private final CountDownLatch stalled = new CountDownLatch(1);
    private volatile OutputStream stalledServer;

    /** A proxy in front of the test server ({@link TestDatabases#server()}). */
    public static HalfOpenProxy inFrontOfTestServer() {
        HalfOpenProxy proxy = new HalfOpenProxy();
        proxy.startAccepting("half-open-proxy");
        return proxy;
    }

    private HalfOpenProxy() {
    }

    /** Stalls the next request whose bytes contain {@code text} (UTF-8) before its Sync; once. */
    public void stallCommitOf(String text) {
        marker.set(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Sends the stalled request's Sync to the server, which then commits (or ends) its implicit transaction.
     *
     * @throws IllegalStateException when no request was stalled within 10 s
     */
    public void commitStalled() throws IOException, InterruptedException {
        if (!stalled.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no request was stalled");
        }
        stalledServer.write(SYNC);
        stalledServer.flush();
    }

    @Override
    void relay(Socket client, Socket server) {
        daemon(() -> pumpRequests(client, server), "half-open-requests");
        daemon(() -> pumpReplies(server, client), "half-open-replies");
    }

    private void pumpRequests(Socket client, Socket server) {
        boolean armed = false;
        try (InputStream in = client.getInputStream()) {
            OutputStream out = server.getOutputStream();
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) > 0;) {
                byte[] m = marker.get();
                if (!armed && m != null && contains(buf, n, m) && marker.compareAndSet(m, null)) {
                    armed = true;
                }
                if (armed && endsWithSync(buf, n)) {
                    out.write(buf, 0, n - SYNC.length);
                    out.flush();
                    stalledServer = out;
                    client.close(); // the client's side only: the server's stays open, mid-transaction
                    stalled.countDown();
                    return;
                }
                out.write(buf, 0, n);
                out.flush();
            }
            server.close();
        } catch (IOException e) {
            // a side closed
        }
    }

    private static void pumpReplies(Socket server, Socket client) {
        try (InputStream in = server.getInputStream()) {
            OutputStream out = client.getOutputStream();
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) > 0;) {
                if (client.isClosed()) {
                    continue; // a half-open connection's replies go nowhere
                }
                try {
                    out.write(buf, 0, n);
                    out.flush();
                } catch (IOException clientGone) {
                    // keep draining the server's side
                }
            }
        } catch (IOException e) {
            // a side closed
        }
    }

    private static boolean endsWithSync(byte[] buf, int n) {
        return n >= SYNC.length && Arrays.equals(buf, n - SYNC.length, n, SYNC, 0, SYNC.length);
    }
}
