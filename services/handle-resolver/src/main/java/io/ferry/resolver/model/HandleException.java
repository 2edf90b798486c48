package io.ferry.resolver.model;

/** A failure answered the way Handle.net answers it: a Handle response code and its HTTP status. */
public class HandleException extends RuntimeException {

    private final int responseCode;
    private final int httpStatus;
    private final String handle;

    public HandleException(int responseCode, int httpStatus, String handle, String message) {
        super(message, null, false, false);
        this.responseCode = responseCode;
        this.httpStatus = httpStatus;
        this.handle = handle;
    }

    public int responseCode() {
        return responseCode;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String handle() {
        return handle;
    }

    public static HandleException notFound(String handle) {
        return new HandleException(100, 404, handle, "Handle Not Found");
    }

    /** 301, answered with 400 as CNRI's REST API answers it. */
    public static HandleException notResponsible(String handle) {
        return new HandleException(301, 400, handle, "Server Not Responsible For Handle: its prefix is not homed here");
    }

    /** 200 outside a resolution (removing a value that is not there): 400, as CNRI's REST API answers it. */
    public static HandleException valuesNotFound(String handle, java.util.List<Integer> indices) {
        return new HandleException(200, 400, handle, "Values Not Found at indices " + indices);
    }

    public static HandleException invalidHandle(String handle) {
        return new HandleException(102, 400, handle, "Invalid Handle");
    }

    public static HandleException invalidValue(String handle, String message) {
        return new HandleException(202, 400, handle, "Invalid Value: " + message);
    }

    public static HandleException alreadyExists(String handle) {
        return new HandleException(101, 409, handle, "Handle Already Exists");
    }

    public static HandleException valueExists(String handle, int index) {
        return new HandleException(201, 409, handle, "Value Already Exists at index " + index);
    }

    public static HandleException authenticationNeeded(String handle) {
        return new HandleException(402, 401, handle, "Authentication Needed");
    }

    public static HandleException authenticationFailed(String handle) {
        return new HandleException(401, 403, handle, "Authentication Failed");
    }

    public static HandleException notPermitted(String handle, String what) {
        return new HandleException(400, 403, handle, "Insufficient Permissions: " + what);
    }
}
