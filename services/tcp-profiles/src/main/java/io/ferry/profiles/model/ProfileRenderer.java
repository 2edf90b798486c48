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
        out.append("# Ferry TCP profile '").append(s.top().name()).append("' version ").append(s.top().version())
                .append(" for host ").append(s.host()).append('\n');
        out.append("# chosen by rule '").append(s.ruleName()).append("' (priority ").append(s.rulePriority()).append(")");
        if (s.chain().size() > 1) {
            out.append("; includes ").append(String.join(" <- ", s.chain().stream().skip(1).map(Layer::name).toList()));
        }
        out.append('\n');
        if (s.top().summary() != null) {
            out.append("# ").append(s.top().summary().replace('\n', ' ')).append('\n');
        }
        out.append("# install as /etc/sysctl.d/60-ferry.conf, then: sysctl --system\n");
        s.effective().sysctls().forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
        if (!s.effective().interfaceSettings().isEmpty()) {
            out.append("# interface settings (not sysctls; apply with ip link):\n");
            s.effective().interfaceSettings().forEach((k, v) -> out.append("#   ip link set dev <data interface> ")
                    .append(k.equals("txqueuelen") ? "txqueuelen " : "mtu ").append(v).append('\n'));
        }
        return out.toString();
    }

    public static String tuned(Subject s) {
        return tunedConf(s.top(), TUNED_BASE);
    }

    static String tunedConf(Layer layer, String base) {
        StringBuilder out = new StringBuilder();
        out.append("# Ferry TCP profile '").append(layer.name()).append("' version ").append(layer.version()).append('\n');
        out.append("[main]\n");
        out.append("summary=").append(layer.summary() == null ? "Ferry TCP profile " + layer.name() : layer.summary().replace('\n', ' ')).append('\n');
        out.append("include=").append(layer.include() == null ? base : "ferry-" + layer.include()).append('\n');
        if (!layer.own().sysctls().isEmpty()) {
            out.append("\n[sysctl]\n");
            layer.own().sysctls().forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        }
        if (!layer.own().interfaceSettings().isEmpty()) {
            out.append("\n[net]\n");
            layer.own().interfaceSettings().forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        }
        return out.toString();
    }

    public static String tunedCr(Subject s) {
        StringBuilder out = new StringBuilder();
        out.append("apiVersion: tuned.openshift.io/v1\n");
        out.append("kind: Tuned\n");
        out.append("metadata:\n");
        out.append("  name: ferry-").append(s.top().name()).append('\n');
        out.append("  namespace: ").append(TUNED_NAMESPACE).append('\n');
        out.append("  labels:\n");
        out.append("    app.kubernetes.io/managed-by: ferry-tcp-profiles\n");
        out.append("spec:\n");
        out.append("  profile:\n");
        for (Layer layer : s.chain()) {
            out.append("    - name: ferry-").append(layer.name()).append('\n');
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
        out.append("      profile: ferry-").append(s.top().name()).append('\n');
        List<String> match = new ArrayList<>();
        nodeMatch(s.ruleSelector(), match, "        ");
        if (!match.isEmpty()) {
            out.append("      match:\n");
            match.forEach(l -> out.append(l).append('\n'));
        }
        return out.toString();
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
            out.add(indent + "- label: " + label);
            if (!v.equals("*")) {
                out.add(indent + "  value: " + quoteIfNeeded(v));
            }
            if (i + 1 < entries.size()) {
                out.add(indent + "  match:");
                chain(entries, i + 1, out, indent + "    ");
            }
        }
    }

    private static String quoteIfNeeded(String v) {
        return v.matches("[A-Za-z][A-Za-z0-9._/-]*") && !v.matches("(?i)true|false|yes|no|on|off|null")
                ? v : "\"" + v.replace("\"", "\\\"") + "\"";
    }
}
