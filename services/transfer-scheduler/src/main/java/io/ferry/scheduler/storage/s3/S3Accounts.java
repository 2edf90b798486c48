package io.ferry.scheduler.storage.s3;

import io.ferry.movers.S3Keys;
import io.ferry.scheduler.config.S3AccountsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which S3 account a copy signs with toward an SE: the VO's own on that SE, else the SE's, else none (unsigned
 * requests, for public buckets). Read once at start, files included, so that a key that cannot be read stops the
 * scheduler instead of failing copies later.
 */
@ApplicationScoped
public class S3Accounts {

    private final Map<String, S3Keys> bySe = new HashMap<>();
    private final Map<String, S3Keys> bySeAndVo = new HashMap<>();

    @Inject
    S3Accounts(S3AccountsConfig config) {
        config.endpoints().forEach((se, endpoint) -> {
            keys(se, endpoint, endpoint, "").ifPresent(k -> bySe.put(se, k));
            endpoint.vos().forEach((vo, keys) -> keys(se, endpoint, keys, ".vos." + vo).ifPresent(k -> bySeAndVo.put(se + "\n" + vo, k)));
        });
    }

    /** Whether the URL is spoken as S3 (s3://, s3s://), whose requests are signed with an account. */
    public static boolean speaksS3(java.net.URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        return scheme.equals("s3") || scheme.equals("s3s");
    }

    /** The account {@code vo}'s copies use toward {@code se}; empty: unsigned. */
    public Optional<S3Keys> forCopy(String se, String vo) {
        S3Keys own = bySeAndVo.get(se + "\n" + vo);
        return Optional.ofNullable(own != null ? own : bySe.get(se));
    }

    private static Optional<S3Keys> keys(String se, S3AccountsConfig.Endpoint endpoint, S3AccountsConfig.Keys keys, String where) {
        String prefix = "ferry.scheduler.s3.\"" + se + "\"" + where;
        Optional<String> id = value(keys.accessKey(), keys.accessKeyFile(), prefix + ".access-key");
        Optional<String> secret = value(keys.secretKey(), keys.secretKeyFile(), prefix + ".secret-key");
        if (id.isEmpty() && secret.isEmpty()) {
            return Optional.empty();
        }
        if (id.isEmpty() || secret.isEmpty()) {
            throw new IllegalStateException(prefix + ": an S3 account needs both an access key and a secret key");
        }
        return Optional.of(new S3Keys(id.get(), secret.get(), endpoint.region(), endpoint.virtualHost()));
    }

    private static Optional<String> value(Optional<String> given, Optional<String> file, String name) {
        if (given.isPresent() && file.isPresent()) {
            throw new IllegalStateException(name + " and " + name + "-file are both set: give one");
        }
        if (file.isEmpty()) {
            return given.map(String::trim).filter(v -> !v.isEmpty());
        }
        try {
            return Optional.of(Files.readString(Path.of(file.get()), StandardCharsets.UTF_8).trim()).filter(v -> !v.isEmpty());
        } catch (IOException e) {
            throw new IllegalStateException(name + "-file " + file.get() + " cannot be read: " + e.getMessage(), e);
        }
    }
}
