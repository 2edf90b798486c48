package io.ferry.resolver.model;

import java.util.Locale;

/**
 * What {@code /replicas} is asked about. With a kind in front — {@code handle:10.5072/x}, {@code lfn:/atlas/f},
 * {@code guid:…}, {@code did:scope:name}, as jobs name their sources — only that kind is looked up: a
 * {@code handle:} id is a handle and never a logical name. Without one ({@link Kind#ANY}), an id in handle form is
 * the handle when it exists (or when its prefix is homed here), and otherwise a logical name.
 */
public record Identifier(Kind kind, String text) {

    public enum Kind {
        HANDLE, LFN, GUID, DID, ANY;

        /** The {@code logical_name.kind} this kind looks up; null for any. */
        public String nameKind() {
            return this == LFN ? "lfn" : this == GUID ? "guid" : this == DID ? "did" : null;
        }
    }

    /** DID scopes that read as a kind in front of an id: binding {@code lfn:x} as a DID would make ids ambiguous. */
    public static boolean reservedScope(String scope) {
        return switch (scope.toLowerCase(Locale.ROOT)) {
            case "handle", "lfn", "guid", "did" -> true;
            default -> false;
        };
    }

    public static Identifier parse(String id) {
        int colon = id.indexOf(':');
        if (colon > 0) {
            String rest = id.substring(colon + 1);
            switch (id.substring(0, colon).toLowerCase(Locale.ROOT)) {
                case "handle":
                    return new Identifier(Kind.HANDLE, rest);
                case "lfn":
                    return new Identifier(Kind.LFN, rest);
                case "guid":
                    return new Identifier(Kind.GUID, rest);
                case "did":
                    return new Identifier(Kind.DID, rest);
                default:
                    break;
            }
        }
        return new Identifier(Kind.ANY, id);
    }
}
