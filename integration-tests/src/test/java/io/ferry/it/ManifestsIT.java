package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.ferry.stack.LocalStack;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deployment artefacts: the Helm chart lints strictly and renders with the default and production values,
 * the kustomize overlays build, and every object is valid against the Kubernetes schemas (a broken manifest
 * proves the validator fails).
 */
class ManifestsIT {

    static final Path ROOT = LocalStack.projectRoot();
    static final Path CHART = ROOT.resolve("charts/ferry");
    static final Path VALIDATOR = ROOT.resolve("integration-tests/manifest-validator");
    static final Path OUT = ROOT.resolve("integration-tests/target/manifests");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @BeforeAll
    static void prepare() throws Exception {
        Files.createDirectories(OUT);
        if (!Files.isDirectory(VALIDATOR.resolve("node_modules/kubernetes-models"))) {
            assertEquals(0, run(VALIDATOR, "npm", "ci", "--no-audit", "--no-fund").exit(), "npm ci in " + VALIDATOR);
        }
    }

    @Test
    void chartLintsStrictly() {
        LintResult lint = new Helm(CHART).lint().strict().call();
        assertFalse(lint.isFailed(), String.join("\n", lint.getMessages()));
    }

    @Test
    void chartRendersValidManifestsForEvaluationAndProduction() throws Exception {
        String evaluation = template().call();
        String production = template()
                .withValuesFile(CHART.resolve("values-production.yaml")).call();
        Path evalFile = Files.writeString(OUT.resolve("helm-default.yaml"), evaluation);
        Path prodFile = Files.writeString(OUT.resolve("helm-production.yaml"), production);
        assertValid(evalFile, prodFile);

        List<JsonNode> eval = documents(evaluation);
        List<JsonNode> prod = documents(production);
        assertEquals(4, count(eval, "Deployment"));
        assertEquals(1, count(eval, "StatefulSet"), "evaluation brings its own PostgreSQL");
        assertEquals(0, count(prod, "StatefulSet"), "production uses an external database");
        assertEquals(3, count(prod, "HorizontalPodAutoscaler"));
        assertEquals(4, count(prod, "PodDisruptionBudget"));
        assertEquals(5, count(eval, "NetworkPolicy"));
        for (JsonNode d : prod) {
            if (!d.path("kind").asText().equals("Deployment")) {
                continue;
            }
            String name = d.at("/metadata/name").asText();
            JsonNode pod = d.at("/spec/template/spec");
            JsonNode c = pod.at("/containers/0");
            assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean(), name);
            assertTrue(c.at("/securityContext/readOnlyRootFilesystem").asBoolean(), name);
            assertEquals("ALL", c.at("/securityContext/capabilities/drop/0").asText(), name);
            assertEquals("/q/health/ready", c.at("/readinessProbe/httpGet/path").asText(), name);
            assertEquals("/q/health/live", c.at("/livenessProbe/httpGet/path").asText(), name);
            assertEquals("/q/health/started", c.at("/startupProbe/httpGet/path").asText(), name);
            assertTrue(c.at("/image").asText().endsWith("-native"), name + " defaults to the native image");
            // a native image's heap and direct memory are bounded by the executable's arguments, not JAVA_OPTS
            assertEquals(name.equals("ferry-transfer-scheduler") ? "[\"-Xmx320m\",\"-XX:MaxDirectMemorySize=192m\"]" : "",
                    c.path("args").isMissingNode() ? "" : c.path("args").toString(), name);
            assertFalse(c.at("/resources/limits/memory").isMissingNode(), name);
        }
        // rate-aggregator is called by the other three and calls nobody.
        JsonNode aggregatorPolicy = eval.stream().filter(d -> d.path("kind").asText().equals("NetworkPolicy")
                && d.at("/metadata/name").asText().equals("ferry-rate-aggregator")).findFirst().orElseThrow();
        assertEquals(3, aggregatorPolicy.at("/spec/ingress/0/from").size());
    }

    @Test
    void jvmImagesAreOneSwitchAway() {
        String jvm = template().set("image.variant", "jvm").call();
        assertTrue(jvm.contains("ferry/transfer-scheduler:0.1.0-jvm"));
        assertTrue(jvm.contains("JAVA_OPTS_APPEND"));
        assertFalse(jvm.contains("-Xmx320m"), "native options stay off the jvm image");
        // the scheduler's copies hold their data off the heap: its heap is smaller and its direct memory bounded
        assertTrue(jvm.contains("\"-XX:MaxRAMPercentage=50 -XX:MaxDirectMemorySize=192m -Djava.io.tmpdir=/tmp\""), jvm);
        assertEquals(3, jvm.split("\"-XX:MaxRAMPercentage=75 -Djava.io.tmpdir=/tmp\"", -1).length - 1);
    }

    @Test
    void theSchedulerGetsTheGridCasAndItsClientCertificateWhenGiven() throws IOException {
        List<JsonNode> docs = documents(template().set("services.transferScheduler.tls.caConfigMap", "grid-cas")
                .set("services.transferScheduler.tls.clientSecret", "ferry-host-cert").call());
        for (JsonNode d : docs) {
            if (!d.path("kind").asText().equals("Deployment")) {
                continue;
            }
            String yaml = d.toString();
            boolean scheduler = d.at("/metadata/name").asText().equals("ferry-transfer-scheduler");
            assertEquals(scheduler, yaml.contains("FERRY_SCHEDULER_ENGINE_TLS_CA_CERTIFICATES"), yaml);
            assertEquals(scheduler, yaml.contains("\"secretName\":\"ferry-host-cert\""), yaml);
            if (scheduler) {
                JsonNode c = d.at("/spec/template/spec/containers/0");
                assertTrue(c.toString().contains("\"mountPath\":\"/etc/grid-security/certificates\""), c.toString());
                assertTrue(c.toString().contains("/etc/grid-security/ferry/tls.key"), c.toString());
            }
        }
    }

    @Test
    void badValuesAreRefusedByTheSchemaOrTheTemplates() {
        Exception variant = assertThrows(Exception.class,
                () -> template().set("image.variant", "arm64").call());
        assertTrue(variant.getMessage().contains("variant"), variant.getMessage());
        Exception password = assertThrows(Exception.class,
                () -> template().set("database.password", "secret").call());
        assertTrue(password.getMessage().toLowerCase().contains("password") || password.getMessage().contains("not"), password.getMessage());
        Exception noCidr = assertThrows(Exception.class, () -> template()
                .set("postgresql.enabled", "false").set("database.host", "db.example").call());
        assertTrue(noCidr.getMessage().contains("database.cidr"), noCidr.getMessage());
    }

    @Test
    void kustomizeOverlaysBuildValidManifests() throws Exception {
        List<Path> files = new ArrayList<>();
        for (String overlay : List.of("dev", "prod")) {
            Result r = run(ROOT, "kubectl", "kustomize", "k8s/overlays/" + overlay);
            assertEquals(0, r.exit(), r.output());
            files.add(Files.writeString(OUT.resolve("kustomize-" + overlay + ".yaml"), r.output()));
            List<JsonNode> docs = documents(r.output());
            assertEquals(4, count(docs, "Deployment"), overlay);
            assertEquals(overlay.equals("dev") ? 1 : 0, count(docs, "StatefulSet"), overlay);
            // the scheduler's heap and direct memory are bounded: native arguments in prod, JAVA_OPTS_APPEND for dev's JVM images
            JsonNode scheduler = docs.stream().filter(d -> d.path("kind").asText().equals("Deployment")
                    && d.at("/metadata/name").asText().equals("transfer-scheduler")).findFirst().orElseThrow().at("/spec/template/spec/containers/0");
            if (overlay.equals("prod")) {
                assertEquals("[\"-Xmx320m\",\"-XX:MaxDirectMemorySize=192m\"]", scheduler.path("args").toString());
            } else {
                assertTrue(scheduler.path("args").isMissingNode(), scheduler.toString());
                assertTrue(scheduler.path("env").toString().contains("-XX:MaxDirectMemorySize=192m"), scheduler.toString());
            }
        }
        assertValid(files.toArray(Path[]::new));
    }

    @Test
    void theValidatorRejectsABrokenManifest() throws Exception {
        Path broken = Files.writeString(OUT.resolve("broken.yaml"), """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: broken}
                spec:
                  replicas: three
                  template:
                    spec:
                      containers:
                        - {name: x, image: y, ports: [{containerPort: http}]}
                """);
        Result r = run(VALIDATOR, "node", "validate.mjs", broken.toString());
        assertNotEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("replicas must be integer"), r.output());
    }

    private static com.marcnuri.helm.TemplateCommand template() {
        return new Helm(CHART).template().withName("ferry").withNamespace("ferry").withKubeVersion("1.30.0");
    }

    private static void assertValid(Path... files) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("node", "validate.mjs"));
        for (Path f : files) {
            cmd.add(f.toString());
        }
        Result r = run(VALIDATOR, cmd.toArray(String[]::new));
        assertEquals(0, r.exit(), r.output());
    }

    private static long count(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> d.path("kind").asText().equals(kind)).count();
    }

    private static List<JsonNode> documents(String yaml) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(yaml)) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && !n.isNull() && n.isObject()) {
                    out.add(n);
                }
            }
        }
        return out;
    }

    record Result(int exit, String output) {
    }

    private static Result run(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + String.join(" ", cmd));
        }
        return new Result(p.exitValue(), output);
    }
}
