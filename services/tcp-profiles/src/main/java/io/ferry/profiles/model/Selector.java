package io.ferry.profiles.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Label selectors of assignment rules. A JSON object matches when every entry matches (AND); a JSON array matches
 * when any element matches (OR), so nesting an object in a list in an object combines both. An entry's value is a
 * string (equal), a list of strings (any of them) or {@code "*"} (the label is present). Besides labels, the keys
 * {@code site}, {@code storage_element} and {@code name} match the host's own fields.
 * Example: {@code {"role": "disk-server", "pool": ["wan-in", "wan-out"]}} or
 * {@code [{"site": "RAL-LCG2", "pool": "wan-in"}, {"name": "gridftp*"}]}.
 */
public final class Selector {

    /** The facts a selector is evaluated against. */
    public record Target(String name, String site, String storageElement, Map<String, String> labels) {
        String value(String key) {
            return switch (key) {
                case "name" -> name;
                case "site" -> site;
                case "storage_element" -> storageElement;
                default -> labels.get(key);
            };
        }
    }

    /** Kubernetes label keys (the Tuned CR matches node labels by them); site, storage_element and name fit too. */
    public static final String KEY_SYNTAX = "^([a-z0-9.-]{1,253}/)?[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$";
    static final Pattern KEY = Pattern.compile(KEY_SYNTAX);

    /**
     * Label values, site, SE and host names, each optionally ending in '*' (a prefix), or '*' alone: nothing that
     * could break out of the rendered Tuned CR.
     */
    public static final String VALUE_SYNTAX = "^[A-Za-z0-9_.:-]{0,253}\\*?$";
    static final Pattern VALUE = Pattern.compile(VALUE_SYNTAX);
    static final String VALUE_RULE = "must be a label value, site, SE or host name (letters, digits, '_', '.', ':', '-'), "
            + "optionally ending in '*'";

    private Selector() {
    }

    public static boolean matches(JsonNode selector, Target target) {
        if (selector == null || selector.isNull()) {
            return true;
        }
        if (selector.isArray()) {
            for (JsonNode alternative : selector) {
                if (matches(alternative, target)) {
                    return true;
                }
            }
            return selector.isEmpty();
        }
        Iterator<Map.Entry<String, JsonNode>> fields = selector.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (!entryMatches(f.getKey(), f.getValue(), target)) {
                return false;
            }
        }
        return true;
    }

    private static boolean entryMatches(String key, JsonNode wanted, Target target) {
        if (wanted.isObject() || (wanted.isArray() && wanted.size() > 0 && wanted.get(0).isContainerNode())) {
            // A nested selector under a key groups conditions; the key itself only names the group.
            return matches(wanted, target);
        }
        String actual = target.value(key);
        if (wanted.isArray()) {
            for (JsonNode w : wanted) {
                if (valueMatches(w.asText(), actual)) {
                    return true;
                }
            }
            return false;
        }
        return valueMatches(wanted.asText(), actual);
    }

    private static boolean valueMatches(String wanted, String actual) {
        if (actual == null) {
            return false;
        }
        if (wanted.equals("*")) {
            return true;
        }
        if (wanted.endsWith("*")) {
            return actual.startsWith(wanted.substring(0, wanted.length() - 1));
        }
        return wanted.equals(actual);
    }

    /** Structural errors of a selector (wrong JSON types), each with its path. */
    public static List<Problem.FieldError> validate(JsonNode selector, String path) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (selector == null || selector.isNull()) {
            errors.add(new Problem.FieldError(path, "a selector is required"));
        } else if (selector.isArray()) {
            for (int i = 0; i < selector.size(); i++) {
                errors.addAll(validate(selector.get(i), path + "[" + i + "]"));
            }
        } else if (selector.isObject()) {
            selector.fields().forEachRemaining(f -> {
                JsonNode v = f.getValue();
                String p = path + "." + f.getKey();
                if (!KEY.matcher(f.getKey()).matches()) {
                    errors.add(new Problem.FieldError(p, "a key must be a label key (e.g. pool, ferry.io/site), site, storage_element or name"));
                    return;
                }
                if (v.isContainerNode() && (v.isObject() || (v.size() > 0 && v.get(0).isContainerNode()))) {
                    errors.addAll(validate(v, p));
                } else if (v.isArray()) {
                    v.forEach(x -> {
                        if (!x.isTextual()) {
                            errors.add(new Problem.FieldError(p, "list values must be strings"));
                        } else if (!VALUE.matcher(x.asText()).matches()) {
                            errors.add(new Problem.FieldError(p, VALUE_RULE));
                        }
                    });
                } else if (!v.isTextual()) {
                    errors.add(new Problem.FieldError(p, "must be a string, a list of strings or a nested selector"));
                } else if (!VALUE.matcher(v.asText()).matches()) {
                    errors.add(new Problem.FieldError(p, VALUE_RULE));
                }
            });
        } else {
            errors.add(new Problem.FieldError(path, "must be an object (AND) or a list (OR)"));
        }
        return errors;
    }
}
