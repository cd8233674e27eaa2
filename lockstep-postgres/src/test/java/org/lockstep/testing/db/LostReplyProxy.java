package org.lockstep.testing.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy in front of the test server that loses the reply to one request, for real: armed with a marker (a
 * value only the request under test carries), it forwards the client's request containing it to the server, and when
 * the server's first reply bytes come back — after the server ran and committed the request, since PostgreSQL sends
 * a request's replies together once it reached the Sync message — it closes both connections instead of forwarding
 * them. The client sees a connection lost right after commit, the fault a retry must survive.
 *
 * <p>The marker is searched for in the raw protocol bytes, so a parameter value (sent as text in the Bind message)
 * or SQL text works. Everything else passes through untouched.
 */
public final class LostReplyProxy extends TestServerProxy {

    private final AtomicReference<byte[]> marker = new AtomicReference<>();
    private final AtomicInteger lostReplies = new AtomicInteger();

    /** A proxy in front of the test server ({@link TestDatabases#server()}). */
    public static LostReplyProxy inFrontOfTestServer() {
        LostReplyProxy proxy = new LostReplyProxy();
        proxy.startAccepting("lost-reply-proxy");
        return proxy;
    }

    private LostReplyProxy() {
    }

    /**
     * Loses the reply to the next request whose bytes contain {@code text} (UTF-8); once, then disarms itself.
     */
    public void loseReplyTo(String text) {
        marker.set(text.getBytes(StandardCharsets.UTF_8));
    }

    /** How many replies were lost so far. */
    public int lostReplies() {
        return lostReplies.get();
    }

    @Override
    void relay(Socket client, Socket server) {
        Link link = new Link(client, server);
        daemon(link::pumpRequests, "proxy-requests");
        daemon(link::pumpReplies, "proxy-replies");
    }

    /** One client connection and its server connection. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        private volatile boolean loseNextReply;
        /** The tail of the request stream, so that a marker split across two reads is still found. */
        private byte[] tail = new byte[0];

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void pumpRequests() {
            try (InputStream in = client.getInputStream(); OutputStream out = server.getOutputStream()) {
                byte[] buf = new byte[16 * 1024];
                for (int n; (n = in.read(buf)) > 0;) {
                    byte[] m = marker.get();
                    byte[] seen = concat(tail, buf, n);
                    if (m != null && contains(seen, seen.length, m) && marker.compareAndSet(m, null)) {
                        loseNextReply = true;
                    }
                    tail = lastBytes(seen, 256);
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side closed
            } finally {
                closeBoth();
            }
        }

        void pumpReplies() {
            try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
                byte[] buf = new byte[16 * 1024];
                for (int n; (n = in.read(buf)) > 0;) {
                    if (loseNextReply) {
                        lostReplies.incrementAndGet();
                        return; // the reply is lost with the connection
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side closed
            } finally {
                closeBoth();
            }
        }

        private void closeBoth() {
            try {
                client.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                server.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private static byte[] concat(byte[] a, byte[] b, int bLength) {
        byte[] all = new byte[a.length + bLength];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, bLength);
        return all;
    }

    private static byte[] lastBytes(byte[] a, int max) {
        int from = Math.max(0, a.length - max);
        byte[] tail = new byte[a.length - from];
        System.arraycopy(a, from, tail, 0, tail.length);
        return tail;
    }
}
