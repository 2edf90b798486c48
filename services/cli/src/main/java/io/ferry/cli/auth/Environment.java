package io.ferry.cli.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** The process's environment variables and user id, replaceable in tests. */
public record Environment(Map<String, String> variables, long uid) {

    public static Environment current() {
        return new Environment(System.getenv(), currentUid());
    }

    public Optional<String> get(String name) {
        String v = variables.get(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v);
    }

    /**
     * The real user id, as WLCG token discovery ({@code bt_u$UID}) and {@code voms-proxy-init} ({@code x509up_u$UID})
     * name their files: the owner of {@code /proc/self} on Linux, else {@code id -u}.
     */
    static long currentUid() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            try {
                Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes()).trim();
                p.waitFor();
                return Long.parseLong(out);
            } catch (IOException | NumberFormatException ex) {
                return -1;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }
    }
}
