package io.ferry.rates.alto;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.altopids.PidNames;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A filtered cost map request (RFC 7285 §11.3.2.3, {@code ReqFilteredCostMap}), read field by field so that each
 * fault is reported with the code and field §8.5.2 asks for. Fields the RFC does not define are ignored (§8.3.7).
 * Empty {@code srcs} or {@code dsts} mean every PID; PIDs listed twice count once.
 */
public record CostFilter(AltoMetric metric, Set<String> srcs, Set<String> dsts, List<Constraint> constraints) {

    /** §11.3.2.3: "gt", "lt", "ge", "le" or "eq" and a cost value; several constraints all apply. */
    public record Constraint(String operator, double value) {

        boolean admits(double cost) {
            return switch (operator) {
                case "gt" -> cost > value;
                case "lt" -> cost < value;
                case "ge" -> cost >= value;
                case "le" -> cost <= value;
                default -> cost == value;
            };
        }

        static Constraint parse(String text) {
            String[] parts = text.trim().split("\\s+");
            if (parts.length != 2 || !Set.of("gt", "lt", "ge", "le", "eq").contains(parts[0])) {
                throw AltoException.invalid("constraints", text);
            }
            if (!JSON_NUMBER.matcher(parts[1]).matches() || !Double.isFinite(Double.parseDouble(parts[1]))) {
                throw AltoException.invalid("constraints", text);
            }
            return new Constraint(parts[0], Double.parseDouble(parts[1]));
        }
    }

    /** A cost value is written as a JSON number. */
    static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    boolean admits(double cost) {
        return constraints.stream().allMatch(c -> c.admits(cost));
    }

    static CostFilter parse(ObjectMapper mapper, byte[] body) {
        JsonNode root;
        try {
            root = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(body);
        } catch (JsonProcessingException e) {
            throw AltoException.syntax("not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw AltoException.syntax("unreadable body");
        }
        if (root == null || root.isMissingNode()) {
            throw AltoException.syntax("the body is empty");
        }
        if (!root.isObject()) {
            throw AltoException.syntax("the body must be a JSON object (ReqFilteredCostMap)");
        }
        JsonNode costType = required(root, "cost-type", "cost-type");
        if (!costType.isObject()) {
            throw AltoException.wrongType("cost-type");
        }
        String mode = text(required(costType, "cost-mode", "cost-type/cost-mode"), "cost-type/cost-mode");
        String metricName = text(required(costType, "cost-metric", "cost-type/cost-metric"), "cost-type/cost-metric");
        AltoMetric metric = AltoMetric.byMetric(metricName);
        if (metric == null) {
            throw AltoException.invalid("cost-type/cost-metric", metricName);
        }
        if (!AltoMetric.MODE.equals(mode)) {
            throw AltoException.invalid("cost-type/cost-mode", mode);
        }
        List<Constraint> constraints = new ArrayList<>();
        JsonNode cs = root.get("constraints");
        if (cs != null) {
            if (!cs.isArray()) {
                throw AltoException.wrongType("constraints");
            }
            for (JsonNode c : cs) {
                constraints.add(Constraint.parse(text(c, "constraints")));
            }
        }
        Set<String> srcs = Set.of();
        Set<String> dsts = Set.of();
        JsonNode pids = root.get("pids");
        if (pids != null) {
            if (!pids.isObject()) {
                throw AltoException.wrongType("pids");
            }
            srcs = pidList(required(pids, "srcs", "pids/srcs"), "pids/srcs");
            dsts = pidList(required(pids, "dsts", "pids/dsts"), "pids/dsts");
        }
        return new CostFilter(metric, srcs, dsts, constraints);
    }

    private static Set<String> pidList(JsonNode list, String field) {
        if (!list.isArray()) {
            throw AltoException.wrongType(field);
        }
        Set<String> out = new LinkedHashSet<>();
        for (JsonNode p : list) {
            String pid = text(p, field);
            if (!PidNames.isPidName(pid)) {
                // §8.5.2: E_SYNTAX covers malformed identifiers; a well-formed PID the map lacks is simply left out.
                throw AltoException.syntax(field + ": not a PID name: \"" + pid + "\" (at most 64 of A-Z a-z 0-9 - : @ _ .)");
            }
            out.add(pid);
        }
        return out;
    }

    private static JsonNode required(JsonNode parent, String name, String field) {
        JsonNode n = parent.get(name);
        if (n == null || n.isNull()) {
            throw AltoException.missing(field);
        }
        return n;
    }

    private static String text(JsonNode n, String field) {
        if (!n.isTextual()) {
            throw AltoException.wrongType(field);
        }
        return n.textValue();
    }
}
