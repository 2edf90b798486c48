package io.ferry.cli.transfer;

import java.util.Locale;

/** Checksums as {@code ALGORITHM:hex}, of the algorithms the scheduler verifies (ADLER32, MD5): others are refused here already. */
public final class Checksums {

    private Checksums() {
    }

    public static String normalise(String text) {
        String[] parts = text.split(":", 2);
        boolean adler32 = parts.length == 2 && parts[0].equalsIgnoreCase("adler32") && parts[1].matches("[0-9a-fA-F]{1,8}");
        boolean md5 = parts.length == 2 && parts[0].equalsIgnoreCase("md5") && parts[1].matches("[0-9a-fA-F]{32}");
        if (!adler32 && !md5) {
            throw new IllegalArgumentException("'" + text + "' is no checksum: expected adler32:xxxxxxxx or md5:<32 hex digits>");
        }
        return parts[0].toUpperCase(Locale.ROOT) + ":" + parts[1].toLowerCase(Locale.ROOT);
    }
}
