package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.marcnuri.helm.Helm;
import io.ferry.stack.LocalStack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PromQL the chart ships (the Grafana dashboard's panel queries and the PrometheusRule's alert expressions, as
 * rendered with both switched on) and the metric names it reads, so that tests can hold them against what the
 * services export.
 */
final class MonitoringQueries {

    static final Path CHART = LocalStack.projectRoot().resolve("charts/ferry");
    static final ObjectMapper JSON = new ObjectMapper();
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private MonitoringQueries() {
    }

    /** The chart rendered with the dashboard and the alert rules on. */
    static String renderedWithMonitoring() {
        // secrets.generate off: helm-java's template asks an API server for `lookup`'s answers, and there is none here
        return new Helm(CHART).template().withName("ferry").withNamespace("ferry").withKubeVersion("1.30.0")
                .set("secrets.generate", "false")
                .set("monitoring.grafanaDashboard.enabled", "true").set("monitoring.prometheusRule.enabled", "true").call();
    }

    static List<JsonNode> documents(String yaml) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(yaml)) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && n.isObject()) {
                    out.add(n);
                }
            }
        }
        return out;
    }

    /** Every panel query of the dashboard file. */
    static List<String> dashboardQueries() throws IOException {
        List<String> out = new ArrayList<>();
        JSON.readTree(Files.readString(CHART.resolve("dashboards/ferry.json"))).path("panels")
                .forEach(p -> p.path("targets").forEach(t -> out.add(t.path("expr").asText())));
        return out;
    }

    /** Every alert expression of the rendered PrometheusRule. */
    static List<String> alertExpressions(List<JsonNode> rendered) {
        List<String> out = new ArrayList<>();
        rendered.stream().filter(d -> d.path("kind").asText().equals("PrometheusRule"))
                .forEach(r -> r.at("/spec/groups").forEach(g -> g.path("rules").forEach(rule -> out.add(rule.path("expr").asText()))));
        return out;
    }

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern BRACES = Pattern.compile("\\{[^}]*}");
    private static final Pattern BRACKETS = Pattern.compile("\\[[^\\]]*\\]");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![0-9.])[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan");

    /**
     * The metric names a PromQL expression selects: identifiers outside label matchers, ranges and grouping clauses
     * that are neither functions nor operators.
     */
    static Set<String> metricNames(String expr) {
        String s = STRING.matcher(expr).replaceAll("\"\"");
        s = BRACES.matcher(s).replaceAll(" ");
        s = BRACKETS.matcher(s).replaceAll(" ");
        s = GROUPING.matcher(s).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String rest = s.substring(m.end()).stripLeading();
            if (!rest.startsWith("(") && !KEYWORDS.contains(m.group().toLowerCase())) {
                names.add(m.group());
            }
        }
        return names;
    }

    /** The metric names of all the given expressions. */
    static Set<String> metricNames(List<String> exprs) {
        Set<String> names = new TreeSet<>();
        exprs.forEach(e -> names.addAll(metricNames(e)));
        return names;
    }
}
