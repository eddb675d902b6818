package io.dynarestore.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/** Free local ports, and waiting for a server to accept connections. */
public final class Ports {

    private Ports() {}

    /**
     * A port free now, below Linux's ephemeral range (32768 and up), so that outgoing connections
     * made before a server binds it cannot take it first.
     */
    public static int free() {
        var random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 20_000 + random.nextInt(12_000);
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new UncheckedIOException(new IOException("no free port found between 20000 and 32000"));
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
                throw new IllegalStateException(
                        what + " did not start listening on port " + port + " within " + timeout.toSeconds() + " s");
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
