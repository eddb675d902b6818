package io.dynarestore.chaos;

import io.dynarestore.testkit.S3Server;
import java.nio.file.Path;

/**
 * S3Proxy as its own process, so that the chaos suite can freeze it with SIGSTOP as a whole:
 * {@code S3Main <port> <dataDir> <bucket>}. Runs until killed.
 */
public final class S3Main {

    private S3Main() {}

    public static void main(String[] args) throws InterruptedException {
        S3Server.start(Integer.parseInt(args[0]), Path.of(args[1]), args[2], true);
        System.out.println("S3Proxy listening on " + args[0]);
        Thread.currentThread().join();
    }
}
