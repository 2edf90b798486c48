package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.PostgresServer;
import io.ferry.stack.LocalStack;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
    void eachServiceConnectsAsItsOwnDatabaseRoleAndNoneAsTheSuperuser() throws Exception {
        List<JsonNode> eval = documents(template().call());
        Set<String> userKeys = new HashSet<>();
        for (JsonNode d : kind(eval, "Deployment")) {
            String service = d.at("/metadata/labels").path("app.kubernetes.io/name").asText();
            JsonNode env = d.at("/spec/template/spec/containers/0/env");
            assertEquals("ferry-db", secretRef(env, "FERRY_DB_USER").path("name").asText(), service);
            assertEquals(service + "-username", secretRef(env, "FERRY_DB_USER").path("key").asText(), service);
            assertEquals(service + "-password", secretRef(env, "FERRY_DB_PASSWORD").path("key").asText(), service);
            assertFalse(d.toString().contains("postgres-password"), service + " never sees the superuser's password");
            userKeys.add(secretRef(env, "FERRY_DB_USER").path("key").asText());
        }
        assertEquals(4, userKeys.size(), "four services, four roles");

        // with secrets.generate off every Secret is the operator's: none is rendered, nothing secret comes from values
        assertEquals(0, kind(eval, "Secret").size(), "secrets are the operator's, never rendered from values");
        String template = Files.readString(CHART.resolve("templates/secrets.yaml"));
        assertTrue(template.contains("lookup \"v1\" \"Secret\"") && template.contains("helm.sh/resource-policy: keep"),
                "generated Secrets keep their data across upgrades and stay on uninstall");

        JsonNode postgres = kind(eval, "StatefulSet").get(0).at("/spec/template/spec/containers/0/env");
        assertEquals("postgres-password", secretRef(postgres, "POSTGRES_PASSWORD").path("key").asText());
        assertTrue(secretRef(postgres, "POSTGRES_USER").isMissingNode(), "the superuser keeps its own name, postgres");

        // the Secret's name is the operator's, and production (external database) never names a superuser
        List<JsonNode> own = documents(template().set("database.existingSecret", "site-db").call());
        for (JsonNode d : kind(own, "Deployment")) {
            assertEquals("site-db", secretRef(d.at("/spec/template/spec/containers/0/env"), "FERRY_DB_PASSWORD").path("name").asText());
        }
        String production = template().withValuesFile(CHART.resolve("values-production.yaml")).call();
        assertFalse(production.contains("postgres-password"), production);
    }

    @Test
    void theInClusterInitScriptCreatesRolesThatAreNeitherSuperusersNorGuestsElsewhere() throws Exception {
        assumeTrue(run(ROOT, "sh", "-c", "command -v psql").exit() == 0, "psql is not installed");
        List<JsonNode> eval = documents(template().call());
        String script = kind(eval, "ConfigMap").stream().filter(d -> d.at("/metadata/name").asText().equals("ferry-postgresql-init"))
                .findFirst().orElseThrow().at("/data/create-databases.sh").asText();
        Path dir = Files.createTempDirectory("ferry-init-script");
        try (PostgresServer pg = PostgresServer.embedded(dir.resolve("pgdata"), 0, false)) {
            Map<String, String> env = new HashMap<>(Map.of("PGHOST", "127.0.0.1", "PGPORT", Integer.toString(pg.port()),
                    "PGPASSWORD", pg.password()));
            Map<String, String> passwords = new HashMap<>();
            for (String[] s : new String[][] {{"TRANSFER_SCHEDULER", "ferry_scheduler"}, {"TCP_PROFILES", "ferry_profiles"},
                    {"HANDLE_RESOLVER", "ferry_resolver"}, {"RATE_AGGREGATOR", "ferry_rates"}}) {
                env.put(s[0] + "_DB_USER", s[1]);
                env.put(s[0] + "_DB_PASSWORD", "pw-" + s[1]);
                passwords.put(s[1], "pw-" + s[1]);
            }
            // the image's entrypoint sources *.sh files from /docker-entrypoint-initdb.d
            ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            try (Connection c = DriverManager.getConnection(pg.jdbcUrl("postgres"), pg.user(), pg.password());
                 Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT r.rolname, r.rolsuper OR r.rolcreatedb OR r.rolcreaterole,"
                         + " (SELECT string_agg(d.datname, ',' ORDER BY d.datname) FROM pg_database d"
                         + "  WHERE d.datallowconn AND has_database_privilege(r.rolname, d.datname, 'CONNECT')),"
                         + " (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = r.rolname)"
                         + " FROM pg_roles r WHERE r.rolname LIKE 'ferry\\_%'")) {
                int roles = 0;
                while (rs.next()) {
                    roles++;
                    String role = rs.getString(1);
                    assertFalse(rs.getBoolean(2), role + " may not be superuser, create databases or roles");
                    assertEquals(role, rs.getString(3), role + " may connect to its own database only");
                    assertEquals(role, rs.getString(4), role + " owns its database");
                }
                assertEquals(4, roles);
            }
            try (Connection c = DriverManager.getConnection(pg.jdbcUrl("ferry_scheduler"), "ferry_scheduler", passwords.get("ferry_scheduler"));
                 Statement st = c.createStatement()) {
                st.execute("CREATE TABLE flyway_probe (id int)"); // its migrations can run
                SQLException e = assertThrows(SQLException.class, () -> st.execute("COPY (SELECT 1) TO PROGRAM 'true'"));
                assertEquals("42501", e.getSQLState(), e.getMessage());
            }
        } finally {
            DirectoryTrees.delete(dir);
        }
    }

    @Test
    void theSchedulerNeverReachesLinkLocalAddressesUnlessTheOperatorSaysSo() throws Exception {
        JsonNode scheduler = policy(documents(template().call()), "ferry-transfer-scheduler");
        assertLinkLocalExcluded(scheduler);
        JsonNode open = policy(documents(template().set("networkPolicy.denyLinkLocalEgress", "false").call()), "ferry-transfer-scheduler");
        assertFalse(open.toString().contains("169.254.0.0/16"), open.toString());

        assertEquals(5, count(documents(template().call()), "NetworkPolicy"), "no namespace-wide policy unless asked");
        JsonNode deny = policy(documents(template().set("networkPolicy.defaultDenyIngress", "true").call()), "ferry-default-deny-ingress");
        assertEquals(0, deny.at("/spec/podSelector").size());
        assertEquals("[\"Ingress\"]", deny.at("/spec/policyTypes").toString());
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
    void theResolverSignsWithTheServerKeyFromItsSecretAndRefusesReplicasWithoutOne() throws IOException {
        for (JsonNode d : documents(template().call())) {
            assertFalse(d.toString().contains("FERRY_RESOLVER_NATIVE_SERVER_KEY_FILE"), "no key file unless a secret is named");
        }
        List<JsonNode> docs = documents(template().set("services.handleResolver.handleProtocol.serverKeySecret", "hs-site-key")
                .set("services.handleResolver.replicas", "3").call());
        int resolvers = 0;
        for (JsonNode d : docs) {
            if (!d.path("kind").asText().equals("Deployment")) {
                continue;
            }
            String json = d.toString();
            boolean resolver = d.at("/metadata/name").asText().equals("ferry-handle-resolver");
            assertEquals(resolver, json.contains("{\"name\":\"FERRY_RESOLVER_NATIVE_SERVER_KEY_FILE\",\"value\":\"/etc/ferry/handle-server-key/server-key.pem\"}"), json);
            assertEquals(resolver, json.contains("\"secretName\":\"hs-site-key\""), json);
            if (resolver) {
                resolvers++;
                assertTrue(d.at("/spec/template/spec/containers/0").toString().contains("\"mountPath\":\"/etc/ferry/handle-server-key\""), json);
            }
        }
        assertEquals(1, resolvers);
        Exception noKey = assertThrows(Exception.class, () -> template().set("services.handleResolver.replicas", "2").call());
        assertTrue(noKey.getMessage().contains("handleProtocol needs serverKeySecret"), noKey.getMessage());
        Exception noKeyScaled = assertThrows(Exception.class, () -> template().set("services.handleResolver.hpa.enabled", "true").call());
        assertTrue(noKeyScaled.getMessage().contains("handleProtocol needs serverKeySecret"), noKeyScaled.getMessage());
    }

    @Test
    void theSchedulerPublishesFts3MonitoringMessagesOnlyWhenABrokerIsConfigured() throws IOException {
        for (JsonNode d : documents(template().call())) {
            assertFalse(d.toString().contains("FERRY_SCHEDULER_MONITORING_STOMP"), "off by default");
        }
        List<JsonNode> docs = documents(template().set("services.transferScheduler.monitoringStomp.enabled", "true")
                .set("services.transferScheduler.monitoringStomp.host", "mb.example").set("services.transferScheduler.monitoringStomp.port", "61123")
                .set("services.transferScheduler.monitoringStomp.passcodeSecret", "stomp-cred").call());
        boolean egress = false;
        for (JsonNode d : docs) {
            String json = d.toString();
            boolean scheduler = d.at("/metadata/name").asText().equals("ferry-transfer-scheduler");
            if (d.path("kind").asText().equals("Deployment")) {
                assertEquals(scheduler, json.contains("{\"name\":\"FERRY_SCHEDULER_MONITORING_STOMP_HOST\",\"value\":\"mb.example\"}"), json);
                assertEquals(scheduler, json.contains("{\"name\":\"FERRY_SCHEDULER_MONITORING_STOMP_PASSCODE\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"stomp-cred\",\"key\":\"passcode\"}}}"), json);
            }
            if (d.path("kind").asText().equals("NetworkPolicy") && scheduler) {
                egress = json.contains("\"port\":61123");
            }
        }
        assertTrue(egress, "the scheduler may reach the broker");
        Exception noHost = assertThrows(Exception.class, () -> template().set("services.transferScheduler.monitoringStomp.enabled", "true").call());
        assertTrue(noHost.getMessage().contains("monitoringStomp needs host"), noHost.getMessage());
    }

    @Test
    void theSchedulerServesFts3sHttpsPortWithGridTrustWhenEnabled() throws Exception {
        Path values = Files.writeString(OUT.resolve("values-grid-https.yaml"), String.join("\n",
                "services:",
                "  transferScheduler:",
                "    tls: {caConfigMap: grid-cas}",
                "    gridHttps:",
                "      enabled: true",
                "      certificateSecret: fts-host-cert",
                "      vomsdirConfigMap: vomsdir",
                "      vomsdirItems: {\"atlas/voms-atlas-auth.cern.ch.lsc\": atlas-voms-atlas-auth.lsc}",
                "networkPolicy:",
                "  ingressFrom: [{namespaceSelector: {}}]", ""));
        String jvm = template().withValuesFile(values).call();
        String nativeImage = template().withValuesFile(values).set("image.variant", "native").call();
        assertValid(Files.writeString(OUT.resolve("helm-grid-https.yaml"), jvm),
                Files.writeString(OUT.resolve("helm-grid-https-native.yaml"), nativeImage));
        boolean seen = false;
        for (JsonNode d : documents(jvm)) {
            boolean scheduler = d.at("/metadata/name").asText().equals("ferry-transfer-scheduler");
            String yaml = d.toString();
            switch (d.path("kind").asText()) {
                case "Deployment" -> {
                    assertEquals(scheduler, yaml.contains("{\"name\":\"https\",\"containerPort\":8446"), yaml);
                    if (scheduler) {
                        seen = true;
                        String c = d.at("/spec/template/spec/containers/0").toString();
                        assertTrue(c.contains("{\"name\":\"FERRY_IDENTITY_X509_ENABLED\",\"value\":\"true\"}"), c);
                        assertTrue(c.contains("{\"name\":\"QUARKUS_HTTP_SSL_PORT\",\"value\":\"8446\"}"), c);
                        // no trust-anchor ConfigMap of its own: the grid CAs the scheduler already trusts toward SEs
                        assertTrue(c.contains("{\"name\":\"FERRY_IDENTITY_X509_TRUST_ANCHORS\",\"value\":\"/etc/grid-security/certificates\"}"), c);
                        assertTrue(c.contains("-Dquarkus.tls.key-store.pem.0.cert=/etc/grid-security/ferry-https/tls.crt"), c);
                        assertTrue(c.contains("\"mountPath\":\"/etc/grid-security/vomsdir\""), c);
                        assertTrue(yaml.contains("{\"key\":\"atlas-voms-atlas-auth.lsc\",\"path\":\"atlas/voms-atlas-auth.cern.ch.lsc\"}"), yaml);
                        assertTrue(yaml.contains("\"secretName\":\"fts-host-cert\""), yaml);
                    }
                }
                case "Service" -> {
                    assertEquals(scheduler, yaml.contains("8446"), yaml);
                    // Rucio's links to FTS3's web monitor (port 8449) reach the same HTTPS port
                    assertEquals(scheduler, yaml.contains("{\"name\":\"https-monitor\",\"port\":8449,\"targetPort\":\"https\""), yaml);
                }
                case "NetworkPolicy" -> assertEquals(scheduler, yaml.contains("8446"), yaml);
                default -> {
                }
            }
        }
        assertTrue(seen, "the scheduler's Deployment");
        for (JsonNode d : documents(nativeImage)) {
            if (d.path("kind").asText().equals("Deployment") && d.at("/metadata/name").asText().equals("ferry-transfer-scheduler")) {
                String args = d.at("/spec/template/spec/containers/0/args").toString();
                assertTrue(args.contains("-Xmx320m") && args.contains("-Dquarkus.tls.key-store.pem.0.key=/etc/grid-security/ferry-https/tls.key"), args);
            }
        }
        Exception noCertificate = assertThrows(Exception.class, () -> template()
                .set("services.transferScheduler.gridHttps.enabled", "true").set("services.transferScheduler.tls.caConfigMap", "grid-cas").call());
        assertTrue(noCertificate.getMessage().contains("certificateSecret"), noCertificate.getMessage());
        Exception noAnchors = assertThrows(Exception.class, () -> template()
                .set("services.transferScheduler.gridHttps.enabled", "true").set("services.transferScheduler.gridHttps.certificateSecret", "c").call());
        assertTrue(noAnchors.getMessage().contains("trust anchors"), noAnchors.getMessage());
    }

    @Test
    void theSchedulerDrainsWithinItsPodsGracePeriodAndIsNamedAfterItsPod() throws IOException {
        for (JsonNode d : documents(template().call())) {
            if (!d.path("kind").asText().equals("Deployment")) {
                continue;
            }
            boolean scheduler = d.at("/metadata/name").asText().equals("ferry-transfer-scheduler");
            JsonNode pod = d.at("/spec/template/spec");
            String env = pod.at("/containers/0/env").toString();
            assertEquals(scheduler ? 30 : 0, pod.path("terminationGracePeriodSeconds").asInt(), d.at("/metadata/name").asText());
            assertEquals(scheduler, env.contains("{\"name\":\"FERRY_SCHEDULER_ENGINE_DRAIN_GRACE\",\"value\":\"20s\"}"), env);
            assertEquals(scheduler, env.contains("{\"name\":\"FERRY_SCHEDULER_ENGINE_INSTANCE_ID\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\"}}}"), env);
        }
        Exception tooShort = assertThrows(Exception.class, () -> template().set("services.transferScheduler.terminationGracePeriodSeconds", "20").call());
        assertTrue(tooShort.getMessage().contains("must exceed its drainGraceSeconds"), tooShort.getMessage());
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
    void theGridHttpsComponentOpensFts3sPortOnProductionsScheduler() throws Exception {
        Result r = run(ROOT, "kubectl", "kustomize", "k8s/overlays/prod-grid");
        assertEquals(0, r.exit(), r.output());
        assertValid(Files.writeString(OUT.resolve("kustomize-prod-grid.yaml"), r.output()));
        boolean deployment = false;
        for (JsonNode d : documents(r.output())) {
            boolean scheduler = d.at("/metadata/name").asText().startsWith("transfer-scheduler");
            String yaml = d.toString();
            switch (d.path("kind").asText()) {
                case "Deployment" -> {
                    assertEquals(scheduler, yaml.contains("\"containerPort\":8446"), yaml);
                    if (scheduler) {
                        deployment = true;
                        String c = d.at("/spec/template/spec/containers/0").toString();
                        // production's native bounds stay, the host certificate comes after them
                        assertTrue(c.contains("\"args\":[\"-Xmx320m\",\"-XX:MaxDirectMemorySize=192m\",\"-Dquarkus.tls.key-store.pem.0.cert="), c);
                        assertTrue(c.contains("{\"name\":\"FERRY_IDENTITY_X509_ENABLED\",\"value\":\"true\"}"), c);
                        assertTrue(c.contains("\"mountPath\":\"/etc/grid-security/vomsdir\""), c);
                        assertTrue(yaml.contains("\"secretName\":\"fts-host-cert\""), yaml);
                    }
                }
                case "Service" -> assertEquals(scheduler, yaml.contains("8446"), yaml);
                case "NetworkPolicy" -> assertEquals(d.at("/metadata/name").asText().equals("transfer-scheduler-ingress"), yaml.contains("8446"), yaml);
                default -> {
                }
            }
        }
        assertTrue(deployment, "the scheduler's Deployment");
    }

    @Test
    void kustomizeDeniesIngressByDefaultAndAdmitsOnlyTheCallGraph() throws Exception {
        Map<String, Set<String>> callers = Map.of(
                "transfer-scheduler", Set.of("handle-resolver"),
                "tcp-profiles", Set.of("transfer-scheduler"),
                "handle-resolver", Set.of("transfer-scheduler"),
                "rate-aggregator", Set.of("transfer-scheduler", "handle-resolver", "tcp-profiles"));
        for (String overlay : List.of("dev", "prod")) {
            Result r = run(ROOT, "kubectl", "kustomize", "k8s/overlays/" + overlay);
            assertEquals(0, r.exit(), r.output());
            List<JsonNode> docs = documents(r.output());
            JsonNode deny = policy(docs, "default-deny-ingress");
            assertEquals(0, deny.at("/spec/podSelector").size(), overlay + ": every pod of the namespace");
            assertEquals("[\"Ingress\"]", deny.at("/spec/policyTypes").toString());
            assertTrue(deny.at("/spec/ingress").isMissingNode() || deny.at("/spec/ingress").isEmpty(), overlay);

            for (Map.Entry<String, Set<String>> e : callers.entrySet()) {
                JsonNode from = policy(docs, e.getKey() + "-ingress").at("/spec/ingress/0/from");
                Set<String> pods = new HashSet<>();
                boolean ingressController = false;
                for (JsonNode peer : from) {
                    if (peer.has("podSelector")) {
                        pods.add(peer.at("/podSelector/matchLabels").path("app.kubernetes.io/name").asText());
                    } else {
                        ingressController |= peer.toString().contains("ingress-nginx");
                    }
                }
                assertEquals(e.getValue(), pods, overlay + ": who may call " + e.getKey());
                assertTrue(ingressController, overlay + ": clients reach " + e.getKey() + " through the ingress controller");
            }
            JsonNode egress = policy(docs, "transfer-scheduler-egress");
            assertEquals("[\"Egress\"]", egress.at("/spec/policyTypes").toString());
            assertTrue(egress.toString().contains("\"k8s-app\":\"kube-dns\""), overlay + ": DNS");
            assertLinkLocalExcluded(egress);

            for (JsonNode d : kind(docs, "Deployment")) {
                String service = d.at("/metadata/name").asText();
                JsonNode env = d.at("/spec/template/spec/containers/0/env");
                assertEquals(service + "-username", secretRef(env, "FERRY_DB_USER").path("key").asText(), overlay);
                assertEquals(service + "-password", secretRef(env, "FERRY_DB_PASSWORD").path("key").asText(), overlay);
            }
        }
    }

    /** Every "anywhere" block of the policy's egress leaves out the link-local ranges, and there is at least one. */
    private static void assertLinkLocalExcluded(JsonNode policy) {
        int anywhere = 0;
        for (JsonNode rule : policy.at("/spec/egress")) {
            for (JsonNode peer : rule.path("to")) {
                JsonNode block = peer.path("ipBlock");
                String except = block.path("except").toString();
                if (block.path("cidr").asText().equals("0.0.0.0/0")) {
                    anywhere++;
                    assertTrue(except.contains("\"169.254.0.0/16\""), policy.toString());
                } else if (block.path("cidr").asText().equals("::/0")) {
                    anywhere++;
                    assertTrue(except.contains("\"fd00:ec2::254/128\"") && except.contains("\"fe80::/10\""), policy.toString());
                } else if (!block.isMissingNode()) {
                    assertFalse(block.path("cidr").asText().startsWith("169.254."), policy.toString());
                }
            }
        }
        assertTrue(anywhere >= 2, "storage egress in IPv4 and IPv6: " + policy);
    }

    private static JsonNode policy(List<JsonNode> docs, String name) {
        return kind(docs, "NetworkPolicy").stream().filter(d -> d.at("/metadata/name").asText().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no NetworkPolicy " + name));
    }

    private static List<JsonNode> kind(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
    }

    /** The secretKeyRef of environment variable {@code name}, or a missing node. */
    private static JsonNode secretRef(JsonNode env, String name) {
        for (JsonNode e : env) {
            if (e.path("name").asText().equals(name)) {
                return e.at("/valueFrom/secretKeyRef");
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }


    /**
     * The Grafana dashboard and the PrometheusRule are off by default; switched on they render as the sidecar and the
     * Prometheus Operator expect, with the thresholds from values, lint cleanly, and the alerts read only Ferry's
     * metrics (StackIT checks that the services export each).
     */
    @Test
    void theDashboardAndTheAlertRulesAreOffByDefaultAndRenderWithTheirThresholdsWhenOn() throws Exception {
        List<JsonNode> off = documents(template().call());
        assertEquals(0, count(off, "PrometheusRule"));
        assertTrue(kind(off, "ConfigMap").stream().noneMatch(d -> d.at("/metadata/labels").has("grafana_dashboard")));

        Path values = Files.writeString(OUT.resolve("values-monitoring.yaml"), """
                monitoring:
                  grafanaDashboard:
                    enabled: true
                    annotations: {grafana_folder: Ferry}
                  prometheusRule:
                    enabled: true
                    labels: {release: kube-prometheus-stack}
                    thresholds: {linkSuccessRate: 0.9, heartbeatAgeSeconds: 45, outboxBacklog: 5000}
                """);
        // helm lint takes no values: a copy of the chart whose values switch both on
        Path switchedOn = OUT.resolve("chart-with-monitoring");
        DirectoryTrees.delete(switchedOn);
        try (var files = Files.walk(CHART)) {
            for (Path f : files.toList()) {
                Path to = switchedOn.resolve(CHART.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        com.fasterxml.jackson.databind.node.ObjectNode defaults = (com.fasterxml.jackson.databind.node.ObjectNode) YAML.readTree(CHART.resolve("values.yaml").toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) defaults.at("/monitoring/grafanaDashboard")).put("enabled", true);
        ((com.fasterxml.jackson.databind.node.ObjectNode) defaults.at("/monitoring/prometheusRule")).put("enabled", true);
        YAML.writeValue(switchedOn.resolve("values.yaml").toFile(), defaults);
        LintResult lint = new Helm(switchedOn).lint().strict().call();
        assertFalse(lint.isFailed(), String.join("\n", lint.getMessages()));
        String rendered = template().withValuesFile(values).call();
        List<JsonNode> on = documents(rendered);

        List<JsonNode> dashboards = kind(on, "ConfigMap").stream().filter(d -> "1".equals(d.at("/metadata/labels/grafana_dashboard").asText())).toList();
        assertEquals(1, dashboards.size());
        assertEquals("Ferry", dashboards.get(0).at("/metadata/annotations/grafana_folder").asText());
        JsonNode dashboard = new ObjectMapper().readTree(dashboards.get(0).at("/data/ferry.json").asText());
        assertEquals(new ObjectMapper().readTree(Files.readString(CHART.resolve("dashboards/ferry.json"))), dashboard, "the file, as it is");
        assertEquals("ferry-transfers", dashboard.path("uid").asText());
        List<String> queries = MonitoringQueries.dashboardQueries();
        assertTrue(queries.size() >= 20 && queries.stream().noneMatch(String::isBlank), queries.toString());
        Path objects = Files.writeString(OUT.resolve("helm-monitoring-core.yaml"), YAML.writeValueAsString(dashboards.get(0)));
        assertValid(objects);

        List<JsonNode> rules = kind(on, "PrometheusRule");
        assertEquals(1, rules.size());
        JsonNode rule = rules.get(0);
        assertEquals("monitoring.coreos.com/v1", rule.path("apiVersion").asText());
        assertEquals("kube-prometheus-stack", rule.at("/metadata/labels/release").asText());
        Map<String, JsonNode> alerts = new HashMap<>();
        rule.at("/spec/groups/0/rules").forEach(r -> alerts.put(r.path("alert").asText(), r));
        assertEquals(Set.of("FerryLinkSuccessRateLow", "FerryOutboxBacklogGrowing", "FerryFilesExpiringInQueue", "FerrySchedulerReplicaWithoutHeartbeat"),
                alerts.keySet());
        for (JsonNode a : alerts.values()) {
            assertFalse(a.path("expr").asText().isBlank(), a.toString());
            assertTrue(Set.of("warning", "critical").contains(a.at("/labels/severity").asText()), a.toString());
            assertFalse(a.at("/annotations/summary").asText().isBlank(), a.toString());
            assertFalse(a.path("expr").asText().contains("{{"), "no template left unrendered: " + a);
        }
        assertTrue(alerts.get("FerryLinkSuccessRateLow").path("expr").asText().contains(") < 0.9"), alerts.get("FerryLinkSuccessRateLow").toString());
        assertTrue(alerts.get("FerrySchedulerReplicaWithoutHeartbeat").path("expr").asText().contains("> 45"));
        assertTrue(alerts.get("FerryOutboxBacklogGrowing").path("expr").asText().contains("> 5000"));
        // Prometheus's own template in the summary reaches Prometheus as written
        assertTrue(alerts.get("FerryLinkSuccessRateLow").at("/annotations/summary").asText().contains("{{ $labels.source_se }}"));

        Set<String> alertMetrics = MonitoringQueries.metricNames(MonitoringQueries.alertExpressions(on));
        assertEquals(Set.of("ferry_link_attempts_total", "ferry_outbox_pending_records", "ferry_transfer_attempts_total", "ferry_scheduler_replicas",
                "ferry_scheduler_heartbeat_age_seconds"), alertMetrics);
        assertTrue(MonitoringQueries.metricNames(queries).stream().allMatch(n -> n.startsWith("ferry_") || n.startsWith("cache_")),
                MonitoringQueries.metricNames(queries).toString());
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
        // secrets.generate off: helm-java renders with a dry run that asks an API server for `lookup`'s answers, and
        // there is none here (`helm template` answers nothing instead). The generated Secrets are checked on a real
        // cluster by integration-tests/cluster (the install needs none, upgrades keep them).
        return new Helm(CHART).template().withName("ferry").withNamespace("ferry").withKubeVersion("1.30.0")
                .set("secrets.generate", "false");
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
