package io.ferry.cli.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * WLCG bearer token discovery (WLCG Bearer Token Discovery, version 1.0), in its order: {@code --token}, then
 * {@code $BEARER_TOKEN}, then the file {@code $BEARER_TOKEN_FILE}, then {@code $XDG_RUNTIME_DIR/bt_u$UID}, then
 * {@code /tmp/bt_u$UID}. A token's surrounding whitespace is dropped; a file named by {@code BEARER_TOKEN_FILE} that
 * cannot be read is an error rather than a silent fall-through to the next place.
 */
public final class TokenDiscovery {

    private final Environment env;
    private final Path tmp;

    public TokenDiscovery(Environment env) {
        this(env, Path.of("/tmp"));
    }

    /** {@code tmp} stands for {@code /tmp} (tests). */
    public TokenDiscovery(Environment env, Path tmp) {
        this.env = env;
        this.tmp = tmp;
    }

    /** The token and where it came from, or empty when none of the places has one. */
    public Optional<Credential> find(String flag) {
        if (flag != null && !flag.isBlank()) {
            return Optional.of(Credential.token(flag.strip(), "--token"));
        }
        Optional<String> inline = env.get("BEARER_TOKEN");
        if (inline.isPresent()) {
            return Optional.of(Credential.token(inline.get().strip(), "$BEARER_TOKEN"));
        }
        Optional<String> named = env.get("BEARER_TOKEN_FILE");
        if (named.isPresent()) {
            return Optional.of(Credential.token(read(Path.of(named.get()))
                    .orElseThrow(() -> new IllegalArgumentException("BEARER_TOKEN_FILE names " + named.get() + ", which cannot be read or is empty")),
                    "$BEARER_TOKEN_FILE (" + named.get() + ")"));
        }
        String file = "bt_u" + env.uid();
        Optional<String> runtimeDir = env.get("XDG_RUNTIME_DIR");
        if (runtimeDir.isPresent()) {
            Path p = Path.of(runtimeDir.get(), file);
            Optional<String> t = read(p);
            if (t.isPresent()) {
                return Optional.of(Credential.token(t.get(), p.toString()));
            }
        }
        Path p = tmp.resolve(file);
        return read(p).map(t -> Credential.token(t, p.toString()));
    }

    private static Optional<String> read(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            String t = Files.readString(file).strip();
            return t.isEmpty() ? Optional.empty() : Optional.of(t);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
