package io.ferry.cli.transfer;

import java.util.Locale;

/** Checksums as {@code ALGORITHM:hex}; the scheduler verifies ADLER32, so other algorithms are refused here already. */
public final class Checksums {

    private Checksums() {
    }

    public static String normalise(String text) {
        String[] parts = text.split(":", 2);
        if (parts.length != 2 || !parts[0].equalsIgnoreCase("adler32") || !parts[1].matches("[0-9a-fA-F]{1,8}")) {
            throw new IllegalArgumentException("'" + text + "' is no checksum: expected adler32:xxxxxxxx");
        }
        return "ADLER32:" + parts[1].toLowerCase(Locale.ROOT);
    }
}
