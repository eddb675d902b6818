package io.dynarestore.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;

/** Free local ports, and waiting for a server to accept connections. */
public final class Ports {

    private Ports() {
    }

    public static int free() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static boolean accepting(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static void awaitAccepting(int port, Duration timeout, String what) {
        Instant deadline = Instant.now().plus(timeout);
        while (!accepting(port)) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(what + " did not start listening on port " + port + " within "
                        + timeout.toSeconds() + " s");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
