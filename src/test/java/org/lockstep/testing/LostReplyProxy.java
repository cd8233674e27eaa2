package org.lockstep.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
public final class LostReplyProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final AtomicReference<byte[]> marker = new AtomicReference<>();
    private final AtomicInteger lostReplies = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    private LostReplyProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "lost-reply-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy in front of the test server ({@link TestDatabases#server()}). */
    public static LostReplyProxy inFrontOfTestServer() {
        TestDatabases.Server s = TestDatabases.server();
        try {
            return new LostReplyProxy(new InetSocketAddress(s.host(), s.port()));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start the proxy: " + e.getMessage(), e);
        }
    }

    /** The JDBC URL of {@code database} through this proxy (credentials from the test server). */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + listener.getLocalPort() + "/" + database;
    }

    /** As {@link #url}, with the test server's credentials as parameters, for {@code --db-url}. */
    public String urlWithCredentials(String database) {
        TestDatabases.Server s = TestDatabases.server();
        return url(database) + "?user=" + s.user() + (s.password() == null ? "" : "&password=" + s.password());
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
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort());
                sockets.add(client);
                sockets.add(server);
                Link link = new Link(client, server);
                start(() -> link.pumpRequests(), "proxy-requests");
                start(() -> link.pumpReplies(), "proxy-replies");
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
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
                    if (m != null && contains(concat(tail, buf, n), m) && marker.compareAndSet(m, null)) {
                        loseNextReply = true;
                    }
                    tail = lastBytes(concat(tail, buf, n), 256);
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

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer : for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
