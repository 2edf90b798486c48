package io.ferry.scheduler.submission;

import java.util.Locale;
import java.util.Optional;

/** FTS3's checksum modes (params.verify_checksum): which side's checksum is compared with the expected one. */
public enum ChecksumMode {
    NONE,
    SOURCE,
    TARGET,
    BOTH;

    /** How it is stored ({@code job.verify_checksum}) and handed to the movers. */
    public String stored() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** FTS3's spellings: booleans, full names and one-letter forms; empty when it is none of them. */
    public static Optional<ChecksumMode> parse(String fts) {
        return switch (fts.toLowerCase(Locale.ROOT)) {
            case "true", "both", "b" -> Optional.of(BOTH);
            case "false", "none", "n" -> Optional.of(NONE);
            case "source", "s" -> Optional.of(SOURCE);
            case "target", "t", "destination", "d" -> Optional.of(TARGET);
            default -> Optional.empty();
        };
    }
}
