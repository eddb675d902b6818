package io.dynarestore.contracts.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where webhooks may be posted: the one rule restore-api and the planner apply when they take a
 * request and the notifier applies again to every address it connects to. A target is an
 * absolute {@code https} URL (also {@code http} where {@code allowHttp}, the local profile) with a
 * host and no user info, whose host is not, and does not resolve to, an address inside a network:
 * loopback, unspecified, link-local (169.254.0.0/16, fe80::/10, where cloud metadata lives),
 * private (RFC 1918, fc00::/7), carrier-grade NAT (100.64.0.0/10), multicast, broadcast or
 * reserved. Hosts, addresses and CIDR ranges on the operator's {@code allow} list are exempt.
 */
public final class WebhookTargets {

    /** The longest webhook URL taken. */
    public static final int MAX_LENGTH = 2048;

    private final boolean allowHttp;
    private final List<String> allowedHosts = new ArrayList<>();
    private final List<Cidr> allowedRanges = new ArrayList<>();

    /**
     * @param allowHttp whether plain {@code http} URLs are taken (the local profile only)
     * @param allow     host names ({@code hooks.example.com}, or {@code *.example.com} for its
     *                  subdomains), addresses or CIDR ranges ({@code 10.1.0.0/16}) that may be
     *                  posted to although they are inside a network
     */
    public WebhookTargets(boolean allowHttp, List<String> allow) {
        this.allowHttp = allowHttp;
        for (String entry : allow == null ? List.<String>of() : allow) {
            String e = entry.trim().toLowerCase(Locale.ROOT);
            if (e.isEmpty()) {
                continue;
            }
            Cidr range = Cidr.parse(e);
            if (range != null) {
                allowedRanges.add(range);
            } else {
                allowedHosts.add(e);
            }
        }
    }

    /** No plain http, nothing allowed inside a network: production's rule. */
    public static WebhookTargets strict() {
        return new WebhookTargets(false, List.of());
    }

    /**
     * Why {@code url} may not be a webhook target, judged on the URL alone (its host's addresses
     * are checked with {@link #refusal(String, InetAddress)} once resolved); {@code null} when it may.
     */
    public String refusal(String url) {
        if (url == null || url.isBlank()) {
            return "is empty; give an https:// URL";
        }
        if (url.length() > MAX_LENGTH) {
            return "is longer than " + MAX_LENGTH + " characters";
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return "is not a valid URL (" + e.getReason() + " at index " + e.getIndex()
                    + "); encode spaces and other special characters, as in https://hooks.example.com/restores";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(scheme.equals("http") && allowHttp)) {
            return scheme.equals("http")
                    ? "uses http; webhooks carry restore details and must use https:// (plain "
                            + "http is taken only in the local profile)"
                    : "is not an https:// URL";
        }
        if (uri.getRawUserInfo() != null) {
            return "carries user info before its host; put credentials in the receiver's configuration, not in the "
                    + "URL, and check deliveries with the webhook-signature header instead";
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            return "has no host name the URL syntax allows (letters, digits, '-' and '.')";
        }
        if (uri.getPort() == 0) {
            return "names port 0";
        }
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        String name = bare.toLowerCase(Locale.ROOT);
        if (hostAllowed(name)) {
            return null;
        }
        if (name.equals("localhost")
                || name.endsWith(".localhost")
                || name.endsWith(".local")
                || name.endsWith(".internal")
                || name.endsWith(".localdomain")) {
            return "names " + host + ", a host inside the network; webhooks go to receivers on the internet (an "
                    + "operator may allow internal hosts in the webhooks allow list)";
        }
        if (oddNumericHost(name)) {
            return "names " + host + ", an IP address in an unusual notation; write a receiver's host name";
        }
        InetAddress literal = literal(name);
        return literal == null ? null : refusal(host, literal);
    }

    /** Why {@code address}, which {@code host} resolved to, may not be connected to; {@code null} when it may. */
    public String refusal(String host, InetAddress address) {
        if (hostAllowed(host.toLowerCase(Locale.ROOT)) || allowedRanges.stream().anyMatch(r -> r.contains(address))) {
            return null;
        }
        String kind = insideKind(address);
        if (kind == null) {
            return null;
        }
        return "resolves to " + address.getHostAddress() + ", " + kind + " address inside a network; webhooks go to "
                + "receivers on the internet (an operator may allow it in the webhooks allow list)";
    }

    private boolean hostAllowed(String host) {
        for (String allowed : allowedHosts) {
            if (allowed.startsWith("*.") ? host.endsWith(allowed.substring(1)) : host.equals(allowed)) {
                return true;
            }
        }
        return false;
    }

    /** The kind of network-internal address {@code a} is, or {@code null} for a public one. */
    static String insideKind(InetAddress a) {
        if (a.isAnyLocalAddress()) {
            return "an unspecified";
        }
        if (a.isLoopbackAddress()) {
            return "a loopback";
        }
        if (a.isLinkLocalAddress()) {
            return "a link-local";
        }
        if (a.isSiteLocalAddress()) {
            return "a private";
        }
        if (a.isMulticastAddress()) {
            return "a multicast";
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            if (first == 100 && (second & 0xc0) == 64) {
                return "a carrier-grade NAT";
            }
            if (first == 0) {
                return "a 'this network'";
            }
            if (first >= 240) {
                return "a reserved or broadcast";
            }
            if (first == 192 && second == 0 && (b[2] & 0xff) == 0 || first == 198 && (second == 18 || second == 19)) {
                return "a reserved";
            }
            return null;
        }
        if (a instanceof Inet6Address) {
            if ((b[0] & 0xfe) == 0xfc) {
                return "a unique-local (private)";
            }
            InetAddress embedded = embeddedV4(b);
            if (embedded != null) {
                String kind = insideKind(embedded);
                return kind == null ? null : kind + " (embedded IPv4)";
            }
        }
        return null;
    }

    /** The IPv4 address inside an IPv4-compatible, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address. */
    private static InetAddress embeddedV4(byte[] b) {
        try {
            boolean zeroPrefix = true;
            for (int i = 0; i < 12; i++) {
                zeroPrefix &= b[i] == 0;
            }
            boolean nat64 = b[0] == 0x00 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b;
            for (int i = 4; nat64 && i < 12; i++) {
                nat64 = b[i] == 0;
            }
            if (zeroPrefix || nat64) {
                return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
            }
            if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
                return InetAddress.getByAddress(new byte[] {b[2], b[3], b[4], b[5]});
            }
            return null;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * {@code host} as an address when it is an IP literal (dotted-quad IPv4, or IPv6), without any
     * DNS lookup; {@code null} for a name.
     */
    static InetAddress literal(String host) {
        if (host.indexOf(':') < 0 && !DOTTED_QUAD.matcher(host).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(host); // a literal: parsed, not looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether {@code host} is an IPv4 address written other than as a.b.c.d (2130706433, 0x7f.1, 127.1). */
    static boolean oddNumericHost(String host) {
        return NUMERIC_LABELS.matcher(host).matches()
                && !DOTTED_QUAD.matcher(host).matches();
    }

    private static final Pattern DOTTED_QUAD = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    private static final Pattern NUMERIC_LABELS = Pattern.compile("(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+))*\\.?");

    /** An address range, {@code a.b.c.d/n} or {@code x::/n}, or a single address. */
    private record Cidr(byte[] network, int bits) {

        static Cidr parse(String entry) {
            int slash = entry.indexOf('/');
            String address = slash < 0 ? entry : entry.substring(0, slash);
            InetAddress a = literal(address.startsWith("[") ? address.substring(1, address.length() - 1) : address);
            if (a == null) {
                if (slash >= 0) {
                    throw new IllegalArgumentException(
                            "webhooks allow list entry '" + entry + "' is not a CIDR range " + "such as 10.1.0.0/16");
                }
                return null;
            }
            int max = a.getAddress().length * 8;
            String prefix = slash < 0 ? String.valueOf(max) : entry.substring(slash + 1);
            int bits = prefix.matches("[0-9]{1,3}") ? Integer.parseInt(prefix) : -1;
            if (bits < 0 || bits > max) {
                throw new IllegalArgumentException(
                        "webhooks allow list entry '" + entry + "' has a prefix length " + "outside 0.." + max);
            }
            return new Cidr(a.getAddress(), bits);
        }

        boolean contains(InetAddress address) {
            byte[] b = address.getAddress();
            if (b.length != network.length) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >> (i % 8);
                if ((b[i / 8] & mask) != (network[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
