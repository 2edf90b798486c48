package io.ferry.scheduler.fts3.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One storage's entry of FTS3's {@code POST /config/se} body, {@code {"se_info": {...}, "operations": {vo: {op: n}}}},
 * read as FTS3 reads it (its column types; numeric strings are cast; null values are left as they are). The fields
 * Ferry acts on are {@code site}, {@code inbound_max_active}, {@code outbound_max_active} and {@code tpc_support}
 * (NONE: no third-party copy); the others are kept as given in {@code extras}.
 *
 * @param operations per VO, per operation, the concurrency limit; 0 or less removes the limit (as FTS3)
 */
public record Fts3SeConfig(String site, Integer inboundMaxActive, Integer outboundMaxActive, Boolean thirdPartyCopy,
                           Map<String, Object> extras, Map<String, Map<String, Integer>> operations) {

    /** FTS3's t_se columns as se_info names them, with the type FTS3 checks each against. */
    static final Map<String, Class<?>> COLUMNS = columns();
    static final Set<String> TPC_SUPPORT = Set.of("FULL", "PULL", "PUSH", "NONE");
    static final String SITE = "[A-Za-z0-9][A-Za-z0-9_.-]{0,99}";

    /** Reads {@code cfg}, the value of key {@code storage}; each problem goes to {@code errors} under its field. */
    public static Fts3SeConfig parse(String storage, JsonNode cfg, List<Problem.FieldError> errors) {
        String at = storage + ".";
        if (cfg == null || !cfg.isObject()) {
            errors.add(new Problem.FieldError(storage, "Malformed configuration: expected {\"se_info\": {...}, \"operations\": {...}}"));
            return null;
        }
        String site = null;
        Integer inbound = null;
        Integer outbound = null;
        Boolean tpc = null;
        Map<String, Object> extras = new TreeMap<>();
        JsonNode info = cfg.get("se_info");
        if (info != null && !info.isNull()) {
            if (!info.isObject()) {
                errors.add(new Problem.FieldError(at + "se_info", "Malformed configuration: expected an object"));
            } else {
                for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) info::fields) {
                    String field = at + "se_info." + e.getKey();
                    Class<?> type = COLUMNS.get(e.getKey());
                    if (type == null) {
                        errors.add(new Problem.FieldError(field, "Field " + e.getKey() + " unknown"));
                        continue;
                    }
                    if (e.getValue().isNull()) {
                        continue;
                    }
                    Object value = typed(e.getValue(), type);
                    if (value == null) {
                        errors.add(new Problem.FieldError(field, "Field " + e.getKey() + " is expected to be " + typeName(type)));
                        continue;
                    }
                    switch (e.getKey()) {
                        case "site" -> {
                            if (((String) value).matches(SITE)) {
                                site = (String) value;
                            } else {
                                errors.add(new Problem.FieldError(field, "must be a site name such as RAL-LCG2"));
                            }
                        }
                        case "inbound_max_active", "outbound_max_active" -> {
                            long n = (Long) value;
                            if (n < 1 || n > 10_000) {
                                errors.add(new Problem.FieldError(field, "between 1 and 10000"));
                            } else if (e.getKey().startsWith("in")) {
                                inbound = (int) n;
                            } else {
                                outbound = (int) n;
                            }
                        }
                        case "tpc_support" -> {
                            if (TPC_SUPPORT.contains(value)) {
                                tpc = !value.equals("NONE");
                                extras.put("tpc_support", value);
                            } else {
                                errors.add(new Problem.FieldError(field, "Field tpc_support is expected to be one of the following: FULL, PULL, PUSH, NONE"));
                            }
                        }
                        default -> extras.put(e.getKey(), value);
                    }
                }
            }
        }
        Map<String, Map<String, Integer>> operations = new TreeMap<>();
        JsonNode ops = cfg.get("operations");
        if (ops != null && !ops.isNull()) {
            if (!ops.isObject()) {
                errors.add(new Problem.FieldError(at + "operations", "Malformed configuration: expected {vo: {operation: limit}}"));
            } else {
                for (Map.Entry<String, JsonNode> vo : (Iterable<Map.Entry<String, JsonNode>>) ops::fields) {
                    String field = at + "operations." + vo.getKey();
                    if (vo.getKey().isBlank() || vo.getKey().length() > 255 || !vo.getValue().isObject()) {
                        errors.add(new Problem.FieldError(field, "Malformed configuration: expected {operation: limit}"));
                        continue;
                    }
                    Map<String, Integer> limits = new TreeMap<>();
                    for (Map.Entry<String, JsonNode> op : (Iterable<Map.Entry<String, JsonNode>>) vo.getValue()::fields) {
                        Object n = typed(op.getValue(), Long.class);
                        if (op.getKey().isBlank() || op.getKey().length() > 150 || n == null || Math.abs((Long) n) > Integer.MAX_VALUE) {
                            errors.add(new Problem.FieldError(field + "." + op.getKey(), "Field concurrent_ops is expected to be int"));
                        } else {
                            limits.put(op.getKey(), ((Long) n).intValue());
                        }
                    }
                    operations.put(vo.getKey(), limits);
                }
            }
        }
        return new Fts3SeConfig(site, inbound, outbound, tpc, extras, operations);
    }

    /** The value as FTS3's validate_type would accept it for a column of {@code type}, or null if it would not. */
    static Object typed(JsonNode v, Class<?> type) {
        if (type == Long.class) {
            if (v.isBoolean()) {
                return v.asBoolean() ? 1L : 0L; // a Python bool is an int
            }
            if (v.isIntegralNumber() && v.canConvertToLong()) {
                return v.asLong();
            }
            if (v.isTextual() && v.asText().trim().matches("[-+]?\\d{1,18}")) {
                return Long.parseLong(v.asText().trim());
            }
            return null;
        }
        if (type == Double.class) {
            if (v.isNumber()) {
                return v.asDouble();
            }
            if (v.isTextual()) {
                try {
                    return new BigDecimal(v.asText().trim()).doubleValue();
                } catch (NumberFormatException e) {
                    return null;
                }
            }
            return null;
        }
        return v.isTextual() && v.asText().length() <= 255 ? v.asText() : null;
    }

    private static String typeName(Class<?> type) {
        return type == Long.class ? "int" : type == Double.class ? "Number" : "str";
    }

    private static Map<String, Class<?>> columns() {
        Map<String, Class<?>> m = new LinkedHashMap<>();
        for (String f : List.of("inbound_max_active", "outbound_max_active", "ipv6", "udt", "debug_level", "eviction", "skip_eviction",
                "overwrite_disk_enabled")) {
            m.put(f, Long.class);
        }
        m.put("inbound_max_throughput", Double.class);
        m.put("outbound_max_throughput", Double.class);
        for (String f : List.of("site", "se_metadata", "tpc_support")) {
            m.put(f, String.class);
        }
        return Map.copyOf(m);
    }
}
