package io.ferry.resolver.model;

/**
 * Handle.net's four value permission flags, one character each in this order: admin read, admin write, public read,
 * public write. {@value #DEFAULT} (Handle.net's default) lets anyone read and the handle's admins write. A value
 * without public read is shown only to the handle's admins (and only if it has admin read) and to
 * {@code handles:admin}. Public write is stored and returned as given; Ferry never lets anonymous callers write.
 */
public final class ValuePermissions {

    public static final String DEFAULT = "1110";

    private ValuePermissions() {
    }

    public static boolean valid(String flags) {
        if (flags == null || flags.length() != 4) {
            return false;
        }
        for (int i = 0; i < 4; i++) {
            if (flags.charAt(i) != '0' && flags.charAt(i) != '1') {
                return false;
            }
        }
        return true;
    }

    /** The flags a value carries: its own, or the default when it gives none. */
    public static String of(HandleValue v) {
        return v.permissions() == null ? DEFAULT : v.permissions();
    }

    public static boolean adminRead(HandleValue v) {
        return of(v).charAt(0) == '1';
    }

    public static boolean publicRead(HandleValue v) {
        return of(v).charAt(2) == '1';
    }

    public static String fromColumns(boolean adminRead, boolean adminWrite, boolean publicRead, boolean publicWrite) {
        return (adminRead ? "1" : "0") + (adminWrite ? "1" : "0") + (publicRead ? "1" : "0") + (publicWrite ? "1" : "0");
    }
}
