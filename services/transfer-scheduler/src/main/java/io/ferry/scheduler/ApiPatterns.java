package io.ferry.scheduler;

import io.ferry.problem.ControlCharacterParameters;

/**
 * Patterns the OpenAPI document gives parameters and fields, so that it accepts exactly what the resources do. A
 * parameter's own pattern replaces the global one that refuses control characters, so each parameter pattern here
 * refuses them too. A JSON Schema pattern matches anywhere: the whole-value ones are anchored.
 */
public final class ApiPatterns {

    /** What String.isBlank counts as white space, minus the control characters that parameters cannot hold anyway. */
    private static final String BLANK = " \\u1680\\u2000-\\u2006\\u2008-\\u200A\\u205F\\u3000";

    private static final String CONTROL = ControlCharacterParameters.CHARACTERS;

    private static final String JOB_STATE = "([Ff][Ii][Nn][Ii][Ss][Hh][Ee][Dd][Dd][Ii][Rr][Tt][Yy]|[Ss][Uu][Bb][Mm][Ii][Tt][Tt][Ee][Dd]|[Ff][Ii][Nn][Ii][Ss][Hh][Ee][Dd]|[Cc][Aa][Nn][Cc][Ee][Ll][Ee][Dd]|[Ss][Tt][Aa][Gg][Ii][Nn][Gg]|[Aa][Cc][Tt][Ii][Vv][Ee]|[Ff][Aa][Ii][Ll][Ee][Dd])";

    /** A parameter that must not be blank: one character at least that is neither white space nor a control character. */
    public static final String NOT_BLANK_PARAM = "^[^" + CONTROL + "]*[^" + CONTROL + BLANK + "][^" + CONTROL + "]*$";

    /** A body field that must not be blank (String.isBlank false): one character that is not Java white space. */
    public static final String NOT_BLANK = "[^\\t\\n\\u000B\\f\\r\\u001C-\\u001F" + BLANK + "\\u2028\\u2029]";

    /** Text PostgreSQL can store: no NUL character. */
    public static final String STORABLE_TEXT = "^[^\\u0000]*$";

    /** LookBack's window: 1 to 9999 minutes, 1 to 720 hours or 1 to 30 days, spaces around it trimmed; empty takes the default. */
    public static final String WINDOW = "^$|^ *(((0{0,3}[1-9]|0{0,2}[1-9][0-9]|0?[1-9][0-9]{2}|[1-9][0-9]{3})m)"
            + "|((0{0,3}[1-9]|0{0,2}[1-9][0-9]|0?[1-6][0-9]{2}|0?7[01][0-9]|0?720)h)"
            + "|((0{0,3}[1-9]|0{0,2}[12][0-9]|0{0,2}30)d)) *$";

    /** A VO name as the share and activity calls take it. */
    public static final String VO_LOWER = "^[a-z0-9][a-z0-9._-]{0,99}$";

    /** A VO name as the probes and storage access rules take it. */
    public static final String VO = "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$";

    /** GET /jobs' state_in: blank, or job states (any case) separated by commas; trailing commas are dropped. */
    public static final String STATE_IN = "^([" + BLANK + "]*|,+|( *" + JOB_STATE + " *,)* *" + JOB_STATE + " *,*)$";

    /** GET /jobs' time_window: hours, optionally :minutes, or blank. */
    public static final String TIME_WINDOW = "^([" + BLANK + "]*| *[0-9]{1,6}(:[0-9]{1,4})? *)$";

    /** File ids separated by commas, as Long.parseLong reads each (ASCII digits here). */
    public static final String FILE_IDS = "^( *[+-]?[0-9]{1,18} *,)* *[+-]?[0-9]{1,18} *,*$";

    private ApiPatterns() {
    }
}
