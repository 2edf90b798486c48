package io.ferry.resolver.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminPermissionsTest {

    @Test
    void theStringIsReadFromTheRightAsCnriWritesIt() {
        // hdl-admintool's default: everything but list handles and the derived-prefix rights
        String admintool = "011111110011";
        assertTrue(AdminPermissions.ADD_HANDLE.grantedBy(admintool));
        assertTrue(AdminPermissions.DELETE_HANDLE.grantedBy(admintool));
        assertFalse(AdminPermissions.ADD_DERIVED_PREFIX.grantedBy(admintool));
        assertFalse(AdminPermissions.DELETE_DERIVED_PREFIX.grantedBy(admintool));
        assertTrue(AdminPermissions.READ_VALUE.grantedBy(admintool));
        assertFalse(AdminPermissions.LIST_HANDLES.grantedBy(admintool));
        assertTrue(AdminPermissions.ADD_VALUE.grantedBy("000001000000"));
        assertFalse(AdminPermissions.REMOVE_VALUE.grantedBy("000001000000"));
    }

    @Test
    void shortStringsAndStarAreCompletedAsCnriReadsThem() {
        assertEquals(AdminPermissions.ALL, AdminPermissions.normalized("*"));
        assertEquals("000000000011", AdminPermissions.normalized("11"));
        assertNull(AdminPermissions.normalized("12"));
        assertNull(AdminPermissions.normalized("1111111111111"));
        assertNull(AdminPermissions.normalized(""));
    }
}
