package io.ferry.resolver.rest;

import io.ferry.problem.ControlCharacterParameters;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What the OpenAPI annotations of several resources share: the patterns of handle parameters (as {@code HandleName}
 * and the JAX-RS templates accept them). Every pattern also refuses the
 * control and line-separator characters no service takes in a path or query value.
 */
final class ApiDocs {

    static final String NO_CONTROL = ControlCharacterParameters.CHARACTERS;
    /** A handle prefix: dot-separated letters and digits. */
    static final String PREFIX = "^[0-9A-Za-z]+(\\.[0-9A-Za-z]+)*$";
    static final String SUFFIX = "^[^" + NO_CONTROL + "]+$";
    /** A whole handle, sent as one path segment (its slash escaped) or as a query value. */
    static final String HANDLE = "^[0-9A-Za-z]+(\\.[0-9A-Za-z]+)*/[^" + NO_CONTROL + "]+$";
    /** A prefix as GET /api/handles lists it: bare or as its prefix handle 0.NA/prefix. */
    static final String LISTED_PREFIX = "^(0\\.[Nn][Aa]/)?[0-9A-Za-z]+(\\.[0-9A-Za-z]+)*$";
    /** PUT /api/handles/{prefix}: a prefix (to mint under) or a whole handle, its slash escaped. */
    static final String PREFIX_OR_HANDLE = "^[0-9A-Za-z]+(\\.[0-9A-Za-z]+)*(/[^" + NO_CONTROL + "]+)?$";
    /** The proxy's paths take only prefixes that start with a digit (so that they miss the service's other paths). */
    static final String PROXY_PREFIX = "^[0-9][0-9A-Za-z]*(\\.[0-9A-Za-z]+)*$";
    static final String PROXY_HANDLE = "^[0-9][0-9A-Za-z]*(\\.[0-9A-Za-z]+)*/[^" + NO_CONTROL + "]+$";

    /** RedirectTarget.checkAppend: no space, control character or backslash. */
    static final String URL_APPEND = "^[^\\u0000-\\u0020\\u007F-\\u009F\\u2028\\u2029\\\\]*$";

    private ApiDocs() {
    }

    /** A PUT's {@code ?index}: a value's index (positive, as every value's), or {@code various} alone (every value of the body). */
    @Schema(type = SchemaType.STRING, pattern = "^([1-9][0-9]{0,8}|various)$")
    static final class ValueIndex {
        private ValueIndex() {
        }
    }
}
