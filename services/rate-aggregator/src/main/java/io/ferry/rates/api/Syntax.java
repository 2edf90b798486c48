package io.ferry.rates.api;

import io.ferry.problem.ControlCharacterParameters;

/**
 * The texts the API takes, as anchored regular expressions for its OpenAPI document (JSON Schema searches a
 * {@code pattern} anywhere in a value unless it is anchored). Where a parser is more lenient (upper case, leading
 * zeros, larger counts of a smaller unit) a pattern describes the usual spellings of the values it accepts, never one
 * it refuses.
 */
public final class Syntax {

    /** No C0 or C1 control character, no Unicode line or paragraph separator: refused in every path and query value. */
    static final String NO_CONTROL = ControlCharacterParameters.CHARACTERS;

    /** A single line: no control character. */
    public static final String SINGLE_LINE = "^[^" + NO_CONTROL + "]*$";

    /** Lines of text: tabs and line breaks, no other control character. */
    public static final String TEXT = "^[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F\\u2028\\u2029]*$";

    /** A value that is not blank. */
    public static final String NOT_BLANK = "^[^" + NO_CONTROL + "]*[^\\s" + NO_CONTROL + "][^" + NO_CONTROL + "]*$";

    /** An SE or site name ({@link io.ferry.rates.model.Names#isName}). */
    public static final String NAME = "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$";

    /** Comma-separated SE names, at most 50 (a cost matrix has at most 2,500 cells). */
    public static final String NAMES = "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}(,[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}){0,49}$";

    /** A site group's name. */
    public static final String GROUP = "^[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}$";

    /** A VO. */
    public static final String VO = "^[a-z0-9][a-z0-9._-]{0,99}$";

    /** A time span of at most 366 days (the reads' default bound), or nothing for the default. */
    public static final String WINDOW = "^(|[1-9][0-9]{0,6}s|[1-9][0-9]{0,4}(m|min)|([1-9][0-9]{0,2}|[1-7][0-9]{3})h"
            + "|([1-9][0-9]?|[12][0-9]{2}|3[0-5][0-9]|36[0-6])d|([1-9]|[1-4][0-9]|5[0-2])w|([1-9]|1[0-2])mo|1y)$";

    /** A time span of at most 30 days (probe series), or nothing for the default. */
    public static final String PROBE_WINDOW = "^(|[1-9][0-9]{0,5}s|[1-9][0-9]{0,3}(m|min)"
            + "|([1-9][0-9]?|[1-6][0-9]{2}|7[01][0-9]|720)h|([1-9]|[12][0-9]|30)d|[1-4]w|1mo)$";

    /** A multiple of 5 minutes of at most 10 years, or nothing for the default. */
    public static final String BIN = "^(|(5|[1-9][0-9]{0,4}[05])(m|min)|[1-9][0-9]{0,3}h|[1-9][0-9]{0,2}d|[1-9][0-9]?w"
            + "|[1-9][0-9]?mo|([1-9]|10)y)$";

    /** A size: bytes, or a number with a decimal (k, M, G...) or binary (Ki, Mi, Gi...) prefix: 11MB, 1.5GiB. */
    public static final String SIZE = "^[0-9]{1,12}(\\.[0-9]{1,6})? ?([KkMmGgTtPp][Ii]?[Bb]?|[Bb])?$";

    /** What follows the year in an ISO-8601 time with an offset. */
    static final String AFTER_YEAR = "-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])"
            + "T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9])$";

    /** An ISO-8601 time with an offset in the years 1970 to 9999, e.g. 2026-11-01T12:00:00Z. */
    public static final String TIME = "^(19[7-9][0-9]|[2-9][0-9]{3})" + AFTER_YEAR;

    /** A time of the years 1971 to 2025, in UTC as at its offset: after 1970 and never in the future. */
    public static final String PAST_TIME = "^(197[1-9]|19[89][0-9]|20[01][0-9]|202[0-5])" + AFTER_YEAR;

    private Syntax() {
    }
}
