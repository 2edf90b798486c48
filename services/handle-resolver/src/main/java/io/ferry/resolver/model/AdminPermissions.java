package io.ferry.resolver.model;

/**
 * Handle.net's 12-bit HS_ADMIN permission string, one character per right in this order: add handle, delete
 * handle, add derived prefix, delete derived prefix, modify value, remove value, add value, modify admin,
 * remove admin, add admin, read value, list handles ({@code 111111111111} grants all).
 */
public enum AdminPermissions {
    ADD_HANDLE, DELETE_HANDLE, ADD_DERIVED_PREFIX, DELETE_DERIVED_PREFIX, MODIFY_VALUE, REMOVE_VALUE, ADD_VALUE,
    MODIFY_ADMIN, REMOVE_ADMIN, ADD_ADMIN, READ_VALUE, LIST_HANDLES;

    public static final String ALL = "111111111111";

    public static boolean valid(String bits) {
        return bits != null && bits.matches("[01]{12}");
    }

    public boolean grantedBy(String bits) {
        return valid(bits) && bits.charAt(ordinal()) == '1';
    }
}
