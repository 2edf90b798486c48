package io.ferry.resolver.model;

/**
 * Handle.net's 12 HS_ADMIN permissions. In JSON they are a string of {@code 0}/{@code 1} written as CNRI's
 * {@code GsonUtility} writes them: the last character is the first permission, so read from the right they are add
 * handle, delete handle, add derived prefix, delete derived prefix, modify value, remove value, add value, modify
 * admin, remove admin, add admin, read value, list handles ({@code 011111110011} is hdl-admintool's default: all but
 * list handles and the derived-prefix rights).
 */
public enum AdminPermissions {
    ADD_HANDLE, DELETE_HANDLE, ADD_DERIVED_PREFIX, DELETE_DERIVED_PREFIX, MODIFY_VALUE, REMOVE_VALUE, ADD_VALUE,
    MODIFY_ADMIN, REMOVE_ADMIN, ADD_ADMIN, READ_VALUE, LIST_HANDLES;

    public static final String ALL = "111111111111";

    public static boolean valid(String bits) {
        return bits != null && bits.matches("[01]{12}");
    }

    /**
     * The 12-character form of what a client sent: CNRI accepts {@code *} (everything) and shorter strings, whose
     * missing leading characters are the last permissions, not granted; null when it is neither.
     */
    public static String normalized(String bits) {
        if ("*".equals(bits)) {
            return ALL;
        }
        if (bits == null || !bits.matches("[01]{1,12}")) {
            return null;
        }
        return "0".repeat(12 - bits.length()) + bits;
    }

    public boolean grantedBy(String bits) {
        return valid(bits) && bits.charAt(bits.length() - 1 - ordinal()) == '1';
    }
}
