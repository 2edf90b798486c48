package io.ferry.profiles.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Renders a host's effective profile for the tools that apply it: an {@code /etc/sysctl.d} file (flattened,
 * since sysctl files cannot include one another), a TuneD {@code tuned.conf} (which can: the parent stays a
 * separate {@code ferry-<name>} profile), and an OpenShift Node Tuning Operator {@code Tuned} resource whose
 * {@code recommend[]} carries the rule's selector as node-label matches.
 */
public final class ProfileRenderer {

    /** One profile of an include chain: its own settings, before inheritance. */
    public record Layer(String name, int version, String summary, String include, ProfileSettings own) {
    }

    /** What is rendered: the chain (the chosen profile first), the merged settings, and who chose it. */
    public record Subject(String host, List<Layer> chain, ProfileSettings effective, String ruleName, int rulePriority,
                          JsonNode ruleSelector) {
        Layer top() {
            return chain.get(0);
        }
    }

    public static final String TUNED_NAMESPACE = "openshift-cluster-node-tuning-operator";
    /** The stock TuneD profile a Ferry profile without a parent builds on. */
    static final String TUNED_BASE = "network-throughput";
    static final String OPENSHIFT_BASE = "openshift-node";

    private ProfileRenderer() {
    }

    public static String sysctl(Subject s) {
        StringBuilder out = new StringBuilder();
        out.append("# Ferry TCP profile '").append(line(s.top().name())).append("' version ").append(s.top().version())
                .append(" for host ").append(line(s.host())).append('\n');
        out.append("# chosen by rule '").append(line(s.ruleName())).append("' (priority ").append(s.rulePriority()).append(")");
        if (s.chain().size() > 1) {
            out.append("; includes ").append(line(String.join(" <- ", s.chain().stream().skip(1).map(Layer::name).toList())));
        }
        out.append('\n');
        if (s.top().summary() != null) {
            out.append("# ").append(line(s.top().summary())).append('\n');
        }
        out.append("# install as /etc/sysctl.d/60-ferry.conf, then: sysctl --system\n");
        settings(s.effective(), out, " = ");
        if (!s.effective().interfaceSettings().isEmpty()) {
            out.append("# interface settings (not sysctls; apply with ip link):\n");
            s.effective().interfaceSettings().forEach((k, v) -> {
                if (SysctlCatalog.INTERFACE_KEYS.contains(k) && v != null) {
                    out.append("#   ip link set dev <data interface> ").append(k.equals("txqueuelen") ? "txqueuelen " : "mtu ")
                            .append(v).append('\n');
                }
            });
        }
        return out.toString();
    }

    public static String tuned(Subject s) {
        return tunedConf(s.top(), TUNED_BASE);
    }

    static String tunedConf(Layer layer, String base) {
        StringBuilder out = new StringBuilder();
        out.append("# Ferry TCP profile '").append(line(layer.name())).append("' version ").append(layer.version()).append('\n');
        out.append("[main]\n");
        // TuneD expands ${...} in option values (${f:exec:...} runs a program): a summary is text, never an expansion.
        out.append("summary=").append(line(layer.summary() == null ? "Ferry TCP profile " + layer.name() : layer.summary())
                .replace("${", "$ {")).append('\n');
        out.append("include=").append(layer.include() == null ? base : "ferry-" + line(layer.include())).append('\n');
        if (!layer.own().sysctls().isEmpty()) {
            out.append("\n[sysctl]\n");
            settings(layer.own(), out, "=");
        }
        if (!layer.own().interfaceSettings().isEmpty()) {
            out.append("\n[net]\n");
            layer.own().interfaceSettings().forEach((k, v) -> {
                if (SysctlCatalog.INTERFACE_KEYS.contains(k) && v != null) {
                    out.append(k).append('=').append(v).append('\n');
                }
            });
        }
        return out.toString();
    }

    /**
     * The settings the allow-list admits, one line each. Settings were checked when they were stored; a stored one
     * that does not pass now (a value from before a check existed, or a row changed behind the service) is named in
     * a comment and not set.
     */
    private static void settings(ProfileSettings settings, StringBuilder out, String separator) {
        settings.sysctls().forEach((k, v) -> {
            if (SysctlCatalog.problem(k, v) == null) {
                out.append(k).append(separator).append(SysctlCatalog.normalized(v)).append('\n');
            } else {
                out.append("# not set: a stored value of ").append(line(k)).append(" that the allow-list refuses\n");
            }
        });
    }

    /** Stored text inside a comment or value line: kept to that one line. */
    private static String line(String text) {
        return ConfigText.singleLine(text);
    }

    public static String tunedCr(Subject s) {
        StringBuilder out = new StringBuilder();
        out.append("apiVersion: tuned.openshift.io/v1\n");
        out.append("kind: Tuned\n");
        out.append("metadata:\n");
        out.append("  name: ").append(yaml("ferry-" + s.top().name())).append('\n');
        out.append("  namespace: ").append(TUNED_NAMESPACE).append('\n');
        out.append("  labels:\n");
        out.append("    app.kubernetes.io/managed-by: ferry-tcp-profiles\n");
        out.append("spec:\n");
        out.append("  profile:\n");
        for (Layer layer : s.chain()) {
            out.append("    - name: ").append(yaml("ferry-" + layer.name())).append('\n');
            // A literal block: tunedConf writes single lines only, so no line can leave the block or the indentation.
            out.append("      data: |\n");
            for (String line : tunedConf(layer, OPENSHIFT_BASE).split("\n", -1)) {
                if (!line.isEmpty()) {
                    out.append("        ").append(line);
                }
                out.append('\n');
            }
            // the split keeps a trailing empty element: drop the blank line it produced
            out.setLength(out.length() - 1);
        }
        out.append("  recommend:\n");
        out.append("    - priority: ").append(s.rulePriority()).append('\n');
        out.append("      profile: ").append(yaml("ferry-" + s.top().name())).append('\n');
        List<String> match = new ArrayList<>();
        nodeMatch(s.ruleSelector(), match, "        ");
        if (!match.isEmpty()) {
            out.append("      match:\n");
            match.forEach(l -> out.append(l).append('\n'));
        }
        return out.toString();
    }

    private static String yaml(String scalar) {
        return ConfigText.yamlScalar(scalar);
    }

    /**
     * NTO's match list is OR and a nested {@code match} is AND, the same semantics as Ferry selectors:
     * an object becomes a chain of nested matches, a list becomes sibling entries.
     */
    static void nodeMatch(JsonNode selector, List<String> out, String indent) {
        if (selector == null || selector.isNull()) {
            return;
        }
        if (selector.isArray()) {
            for (JsonNode alternative : selector) {
                nodeMatch(alternative, out, indent);
            }
            return;
        }
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = selector.fields();
        it.forEachRemaining(entries::add);
        chain(entries, 0, out, indent);
    }

    private static void chain(List<Map.Entry<String, JsonNode>> entries, int i, List<String> out, String indent) {
        if (i >= entries.size()) {
            return;
        }
        Map.Entry<String, JsonNode> e = entries.get(i);
        List<String> values = new ArrayList<>();
        if (e.getValue().isArray()) {
            e.getValue().forEach(v -> values.add(v.asText()));
        } else {
            values.add(e.getValue().asText());
        }
        String label = switch (e.getKey()) {
            case "site", "storage_element", "name" -> "ferry.io/" + e.getKey().replace('_', '-');
            default -> e.getKey();
        };
        for (String v : values) {
            out.add(indent + "- label: " + yaml(label));
            if (!v.equals("*")) {
                out.add(indent + "  value: " + yaml(v));
            }
            if (i + 1 < entries.size()) {
                out.add(indent + "  match:");
                chain(entries, i + 1, out, indent + "    ");
            }
        }
    }
}
