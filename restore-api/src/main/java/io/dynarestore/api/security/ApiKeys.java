package io.dynarestore.api.security;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.contracts.access.Role;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * The static API keys, kept only as SHA-256 digests. A presented key is compared with every
 * configured digest in constant time, so that neither the comparison nor the number of keys
 * tried tells an attacker how close a guess was.
 */
final class ApiKeys {

    record Holder(String name, List<SimpleGrantedAuthority> authorities) {}

    private record Entry(byte[] digest, Holder holder) {}

    private final List<Entry> entries;

    ApiKeys(List<ApiProperties.ApiKey> keys) {
        this.entries = keys.stream()
                .map(k -> new Entry(
                        k.key() != null && !k.key().isBlank()
                                ? sha256(k.key())
                                : HexFormat.of().parseHex(k.keySha256()),
                        new Holder(
                                k.name(),
                                k.roles().stream()
                                        .map(r -> new SimpleGrantedAuthority(Role.of(r, "api key '" + k.name() + "'")
                                                .id()))
                                        .toList())))
                .toList();
    }

    /** The holder of {@code presented}, if it is one of the keys. */
    Optional<Holder> holderOf(String presented) {
        byte[] digest = sha256(presented);
        Holder found = null;
        for (Entry e : entries) { // no early exit: every key is compared
            if (MessageDigest.isEqual(e.digest(), digest)) {
                found = e.holder();
            }
        }
        return Optional.ofNullable(found);
    }

    static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
