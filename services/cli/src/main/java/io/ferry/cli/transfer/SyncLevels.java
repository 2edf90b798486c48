package io.ferry.cli.transfer;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Locale;

/**
 * {@code ferry submit --sync LEVEL}: the scheduler's {@code params.sync_level} (exists, size, mtime or checksum, or
 * Globus's 0 to 3): destinations that already match at that level are not copied again, the others are replaced.
 */
public final class SyncLevels {

    private static final List<String> LEVELS = List.of("exists", "size", "mtime", "checksum");

    private SyncLevels() {
    }

    /** The level's name, from a name or Globus's number; anything else is refused before a request goes out. */
    public static String parse(String level) {
        String l = level.trim().toLowerCase(Locale.ROOT);
        if (l.matches("[0-3]")) {
            return LEVELS.get(Integer.parseInt(l));
        }
        if (!LEVELS.contains(l)) {
            throw new IllegalArgumentException("--sync " + level + ": expected exists, size, mtime or checksum (or 0 to 3)");
        }
        return l;
    }

    /** Sets {@code level} (null: none) in every body's params. */
    public static void apply(List<ObjectNode> bodies, String level) {
        if (level != null) {
            bodies.forEach(b -> ((ObjectNode) b.get("params")).put("sync_level", level));
        }
    }
}
