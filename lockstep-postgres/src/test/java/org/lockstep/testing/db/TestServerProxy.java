package org.lockstep.testing.db;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on 127.0.0.1 in front of the test server ({@link TestDatabases#server()}), for tests that need the
 * network to fail in one precise way: each subclass decides, per accepted connection, how bytes pass between the
 * client and the server ({@link #relay}). {@link #close()} closes the listener and every socket and waits for the
 * proxy's threads to have ended, so that a test closing its proxy leaves none of them running (issue 27).
 */
abstract class TestServerProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    TestServerProxy() {
        TestDatabases.Server s = TestDatabases.server();
        target = new InetSocketAddress(s.host(), s.port());
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start the proxy: " + e.getMessage(), e);
        }
    }

    /**
     * Starts accepting connections; called by the subclass's factory once the subclass is fully built, so that no
     * connection reaches {@link #relay} before its fields are set.
     *
     * @param name the accepting thread's name
     */
    final void startAccepting(String name) {
        daemon(this::accept, name);
    }

    /** Relays one connection: starts the threads that move bytes between {@code client} and {@code server}. */
    abstract void relay(Socket client, Socket server);

    /** The JDBC URL of {@code database} through this proxy (credentials from the test server). */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + listener.getLocalPort() + "/" + database;
    }

    /** As {@link #url}, with the test server's credentials as parameters, for {@code --db-url}. */
    public String urlWithCredentials(String database) {
        TestDatabases.Server s = TestDatabases.server();
        return url(database) + "?user=" + s.user() + (s.password() == null ? "" : "&password=" + s.password());
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
        // Every thread blocks in accept or a read on one of those sockets, and so ends now.
        try {
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(5));
                if (t.isAlive()) {
                    throw new IllegalStateException("The proxy's thread " + t.getName() + " did not end");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort());
                sockets.add(client);
                sockets.add(server);
                relay(client, server);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** Runs {@code r} on a daemon thread named {@code name}, which {@link #close()} waits for. */
    final void daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** Whether the first {@code length} bytes of {@code haystack} contain {@code needle}. */
    static boolean contains(byte[] haystack, int length, byte[] needle) {
        outer : for (int i = 0; i + needle.length <= length; i++) {
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
