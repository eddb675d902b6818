package io.dynarestore.core.webhooks;

import io.dynarestore.contracts.webhooks.WebhookTargets;
import io.dynarestore.core.threads.DaemonThreads;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link WebhookTargets} applied to what a host resolves to: at intake, so that a request naming
 * a receiver inside the network is refused at once; and when the notifier connects, where the
 * addresses returned here are the only ones it may connect to (so that a name that resolves
 * elsewhere the second time, DNS rebinding, changes nothing).
 */
public final class WebhookAddresses {

    /** Looks a host up; the system resolver, or a fixed table in tests. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** A host whose addresses may not be connected to, and why. */
    public static final class RefusedTarget extends UnknownHostException {
        public RefusedTarget(String message) {
            super(message);
        }
    }

    /** At most 8 lookups at once; one more is not waited for (delivery checks again). */
    private static final ExecutorService LOOKUPS = new ThreadPoolExecutor(
            0, 8, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), DaemonThreads.named("webhook-dns"));

    private final WebhookTargets rule;
    private final Resolver resolver;
    private final Duration timeout;

    public WebhookAddresses(WebhookTargets rule, Resolver resolver, Duration timeout) {
        this.rule = rule;
        this.resolver = resolver;
        this.timeout = timeout;
    }

    /** The rule with the system's resolver, waiting at most 2 s for an answer. */
    public static WebhookAddresses system(WebhookTargets rule) {
        return new WebhookAddresses(rule, InetAddress::getAllByName, Duration.ofSeconds(2));
    }

    public WebhookTargets rule() {
        return rule;
    }

    /**
     * Why {@code url} may not receive webhooks, or {@code null}: the URL's own rule, then every
     * address its host resolves to. A host that does not resolve is refused; a lookup that takes
     * longer than the timeout is left to the check made when delivering.
     */
    public String refusal(String url) {
        String refused = rule.refusal(url);
        if (refused != null) {
            return refused;
        }
        String bracketed = URI.create(url).getHost();
        String host = bracketed.startsWith("[") ? bracketed.substring(1, bracketed.length() - 1) : bracketed;
        try {
            LOOKUPS.submit(() -> resolve(host)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (TimeoutException | RejectedExecutionException e) {
            return null;
        } catch (ExecutionException e) {
            return e.getCause() instanceof RefusedTarget r
                    ? r.getMessage()
                    : "names host " + host + ", which does not resolve; check the receiver's host name";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The addresses of {@code host} a webhook may be sent to; refused when any of them is inside a network. */
    public InetAddress[] resolve(String host) throws UnknownHostException {
        return check(host, resolver.resolve(host));
    }

    private InetAddress[] check(String host, InetAddress[] addresses) throws RefusedTarget {
        if (addresses == null || addresses.length == 0) {
            throw new RefusedTarget("names host " + host + ", which has no address");
        }
        for (InetAddress a : addresses) {
            String refused = rule.refusal(host, a);
            if (refused != null) {
                throw new RefusedTarget("names host " + host + ", which " + refused);
            }
        }
        return addresses;
    }
}
