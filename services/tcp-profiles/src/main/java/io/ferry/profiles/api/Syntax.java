package io.ferry.profiles.api;

import io.ferry.problem.ControlCharacterParameters;

/**
 * The texts the API takes, as anchored regular expressions for its OpenAPI document (JSON Schema searches a
 * {@code pattern} anywhere in a value unless it is anchored). Where the service's parser is more lenient (other
 * spellings of a unit, more digits) the pattern describes the usual spellings of the values it accepts, never one it
 * refuses.
 */
public final class Syntax {

    /** No C0 or C1 control character, no Unicode line or paragraph separator: refused in every path and query value. */
    public static final String NO_CONTROL = ControlCharacterParameters.CHARACTERS;

    /** Profile and rule names. */
    public static final String NAME = "^[a-z0-9][a-z0-9._-]{0,99}$";

    /** A value that is not blank. */
    public static final String NOT_BLANK = "^[^" + NO_CONTROL + "]*[^\\s" + NO_CONTROL + "][^" + NO_CONTROL + "]*$";

    /** 1 Mbit/s to 1.6 Tbit/s: 10G, 25GbE, 0.1G, 1000M, 1000 (Mbit/s). */
    public static final String NIC_SPEED = "^(([1-9][0-9]{0,5}|1[0-5][0-9]{5}|1600000) ?(M|m|Mbit/s|Mbps)?"
            + "|(([1-9][0-9]{0,2}|1[0-5][0-9]{2})(\\.[0-9]{1,3})?|1600|0\\.[0-9]{0,2}[1-9]) ?(G|g|GbE|Gbit/s|Gbps))$";

    /** Above 0 and at most 10 s, in milliseconds or seconds: 150ms, 0.15s, 150 (ms). */
    static final String RTT_ITEM = "([1-9][0-9]{0,3}(\\.[0-9]{1,3})?|10000|0\\.[0-9]{0,2}[1-9])(ms)?"
            + "|([1-9](\\.[0-9]{1,3})?|10|0\\.[0-9]{0,2}[1-9])s";

    public static final String RTT = "^(" + RTT_ITEM + ")$";

    /** {@code host:rtt,...}, e.g. cmsstor.fnal.example:110ms. */
    public static final String PEERS = "^[^," + NO_CONTROL + "]+:(" + RTT_ITEM + ")(,[^," + NO_CONTROL + "]+:(" + RTT_ITEM + "))*$";

    /** An ISO-8601 time with an offset, e.g. 2026-11-01T12:00:00Z. */
    public static final String TIME = "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]"
            + "(:[0-5][0-9](\\.[0-9]{1,9})?)?(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9])";

    /** A change: a time, or a profile version written {@code name@version}. */
    public static final String CHANGE = "^(" + TIME + "|[^" + NO_CONTROL + "]+@[0-9]{1,9})$";

    /** A host label selector {@code key=value}. */
    public static final String LABEL_SELECTOR = "^[^=" + NO_CONTROL + "][^" + NO_CONTROL + "]*=[^" + NO_CONTROL + "]*$";

    private Syntax() {
    }
}
