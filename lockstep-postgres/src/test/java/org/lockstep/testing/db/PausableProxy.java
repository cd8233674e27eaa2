package org.lockstep.testing.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on 127.0.0.1 in front of a server, that can be paused: while paused it keeps every socket open and
 * goes on accepting connections, but forwards no byte in either direction. That is what a frozen server looks like
 * from a client (a stopped postmaster, a hung VM, a middlebox that silently drops traffic): no reset, no FIN, just
 * silence, which only a timeout can notice. Resuming delivers what was held back, in order.
 *
 * <p>Each connection gets two daemon threads, one per direction; {@link #close()} closes every socket.
 */
public final class PausableProxy implements AutoCloseable {

    private static final int BUFFER_BYTES = 16 * 1024;

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private boolean paused;
    private volatile boolean closed;

    private PausableProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::acceptLoop, "pausable-proxy-accept-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Starts a proxy forwarding to {@code targetHost:targetPort}.
     *
     * @throws IOException when no local port can be bound
     */
    public static PausableProxy to(String targetHost, int targetPort) throws IOException {
        return new PausableProxy(targetHost, targetPort);
    }

    /** The local port clients connect to. */
    public int port() {
        return listener.getLocalPort();
    }

    /** Stops forwarding bytes, keeping every connection open: the server seems frozen. */
    public void pause() {
        synchronized (gate) {
            paused = true;
        }
    }

    /** Forwards again, starting with whatever was held back while paused. */
    public void resume() {
        synchronized (gate) {
            paused = false;
            gate.notifyAll();
        }
    }

    /** Closes the listening socket and every connection. */
    @Override
    public void close() {
        closed = true;
        resume();
        closeQuietly(listener);
        sockets.forEach(PausableProxy::closeQuietly);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            sockets.add(client);
            Socket server = new Socket();
            sockets.add(server);
            Thread connect = new Thread(() -> {
                try {
                    server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                } catch (IOException e) {
                    closeQuietly(client);
                    closeQuietly(server);
                    return;
                }
                pump(client, server, "up");
                pump(server, client, "down");
            }, "pausable-proxy-connect");
            connect.setDaemon(true);
            connect.start();
        }
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[BUFFER_BYTES];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    awaitForwarding();
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the other side went away, or the proxy closed: end both
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "pausable-proxy-" + direction + "-" + from.getPort());
        t.setDaemon(true);
        t.start();
    }

    /** Holds the bytes just read for as long as the proxy is paused. */
    private void awaitForwarding() throws InterruptedException {
        synchronized (gate) {
            while (paused && !closed) {
                gate.wait();
            }
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
