package io.ferry.stack;

import io.ferry.dev.DevKeys;
import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.dev.OwnerOnlyFiles;
import io.ferry.dev.PostgresServer;
import io.ferry.dev.testca.DevGridPki;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The whole of Ferry on one machine: PostgreSQL (embedded unless {@code FERRY_DB_URL} names a server), one
 * database per service, a dev key pair, and the four packaged services as processes. Used by {@code ./ferry up}
 * and by the integration tests. Each service connects as its own database role, which owns its database and
 * nothing else; the admin's credentials ({@link #postgres()}) stay with the harness.
 */
public final class LocalStack implements AutoCloseable {

    /**
     * How to run the stack; {@code ports} maps each service to its HTTP port, {@code schedulerHttpsPort} is where the
     * scheduler serves its API over HTTPS with client certificates beside plain HTTP (0: a free port).
     */
    public record Options(Path projectRoot, Path stateDirectory, Map<ServiceSpec, Integer> ports, String externalDbUrl,
                          int embeddedDbPort, Map<String, String> extraEnvironment, int schedulerHttpsPort) {

        /** FTS3's port, which FTS3 clients assume. */
        public static final int FTS3_HTTPS_PORT = 8446;

        public Options(Path projectRoot, Path stateDirectory, Map<ServiceSpec, Integer> ports, String externalDbUrl,
                       int embeddedDbPort, Map<String, String> extraEnvironment) {
            this(projectRoot, stateDirectory, ports, externalDbUrl, embeddedDbPort, extraEnvironment, 0);
        }

        public static Options defaults(Path projectRoot) {
            Map<ServiceSpec, Integer> ports = new LinkedHashMap<>();
            ServiceSpec.ALL.forEach(s -> ports.put(s, s.defaultPort()));
            String dbUrl = System.getenv("FERRY_DB_URL");
            int pgPort = Integer.parseInt(System.getenv().getOrDefault("FERRY_EMBEDDED_DB_PORT", "55432"));
            return new Options(projectRoot, projectRoot.resolve(".ferry"), ports,
                    dbUrl == null || dbUrl.isBlank() ? null : dbUrl, pgPort, Map.of(), FTS3_HTTPS_PORT);
        }
    }

    /**
     * The dev VOs: each gets a VOMS signer in the dev PKI, and the scheduler lets its members ({@code /vo}) read its
     * jobs and its production role ({@code /vo/Role=production}) submit. {@code ./ferry proxy} issues for them.
     */
    public static final List<String> DEV_VOS = List.of("atlas", "cms", "dteam");

    private final Options options;
    private final List<ServiceProcess> services = new ArrayList<>();
    private final Map<ServiceSpec, PostgresServer.Credentials> databaseCredentials = new LinkedHashMap<>();
    private PostgresServer postgres;
    private DevKeys keys;
    /** The key the scheduler seals the storage tokens of files with (FERRY_SCHEDULER_STORAGE_TOKENS_KEY). */
    private String storageTokensKey;
    private DevGridPki pki;
    private String delegationKey;
    private int schedulerHttpsPort;

    public LocalStack(Options options) {
        this.options = options;
    }

    /** Ports that are already taken, described for the user; empty when the stack can start. */
    public List<String> busyPorts() {
        List<String> busy = new ArrayList<>();
        options.ports().forEach((spec, port) -> {
            if (!FreePort.isFree(port)) {
                busy.add("port " + port + " (" + spec.name() + ") is already in use");
            }
        });
        if (options.ports().containsKey(ServiceSpec.SCHEDULER) && options.schedulerHttpsPort() > 0
                && !FreePort.isFree(options.schedulerHttpsPort())) {
            busy.add("port " + options.schedulerHttpsPort() + " (transfer-scheduler over HTTPS) is already in use");
        }
        if (options.externalDbUrl() == null && !FreePort.isFree(options.embeddedDbPort())) {
            busy.add("port " + options.embeddedDbPort() + " (embedded PostgreSQL) is already in use;"
                    + " set FERRY_EMBEDDED_DB_PORT or FERRY_DB_URL");
        }
        return busy;
    }

    public void start(Duration readyTimeout) throws Exception {
        OwnerOnlyFiles.directory(options.stateDirectory()); // keys, database passwords and data: the user's alone
        keys = DevKeys.loadOrCreate(options.stateDirectory().resolve("keys"));
        storageTokensKey = DevKeys.loadOrCreateSecretKey(options.stateDirectory().resolve("keys/storage-tokens.key"));
        delegationKey = delegationKey(options.stateDirectory().resolve("keys").resolve("delegation.key"));
        pki = gridPki(options.stateDirectory());
        pki.host();
        for (String vo : DEV_VOS) {
            pki.signer(vo); // its .lsc in the vomsdir before the services read it
        }
        schedulerHttpsPort = options.schedulerHttpsPort() > 0 ? options.schedulerHttpsPort() : FreePort.find();
        postgres = options.externalDbUrl() != null
                ? PostgresServer.external(options.externalDbUrl())
                : PostgresServer.embedded(options.stateDirectory().resolve("pgdata"), options.embeddedDbPort(), true);
        for (ServiceSpec spec : options.ports().keySet()) {
            databaseCredentials.put(spec, postgres.ensureDatabase(spec.database(), false));
        }
        for (Map.Entry<ServiceSpec, Integer> e : options.ports().entrySet()) {
            services.add(process(e.getKey(), e.getValue(), e.getKey().name()));
        }
        for (ServiceProcess s : services) {
            s.start();
        }
        ExecutorService waiters = Executors.newFixedThreadPool(services.size());
        try {
            List<Future<?>> waits = new ArrayList<>();
            for (ServiceProcess s : services) {
                waits.add(waiters.submit(() -> {
                    s.awaitReady(readyTimeout);
                    return null;
                }));
            }
            for (Future<?> w : waits) {
                w.get();
            }
        } finally {
            waiters.shutdownNow();
        }
    }

    private static Path nativeExecutable(Path serviceDir, String name) {
        try {
            return ServiceProcess.nativeExecutable(serviceDir, name);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One process of {@code spec} on {@code port}, its output in {@code logs/<logName>.log}; not started yet. */
    private ServiceProcess process(ServiceSpec spec, int port, String logName) {
        Map<String, String> env = new HashMap<>(commonEnvironment());
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("FERRY_DB_NAME", spec.database());
        env.put("FERRY_DB_USER", databaseCredentials.get(spec).user());
        env.put("FERRY_DB_PASSWORD", databaseCredentials.get(spec).password());
        env.put(spec.serviceTokenVariable(), new DevTokens(keys).mint(new DevTokens.Claims("service:" + spec.name(), null, null,
                spec.serviceScopes(), Duration.ofDays(30), DevTokens.ISSUER, DevTokens.AUDIENCE)));
        if (spec.equals(ServiceSpec.SCHEDULER)) {
            env.put("FERRY_SCHEDULER_STORAGE_TOKENS_KEY", storageTokensKey);
        }
        Map<String, String> properties = spec.equals(ServiceSpec.SCHEDULER)
                ? https(logName.equals(spec.name()) ? schedulerHttpsPort : FreePort.find()) : Map.of();
        if (spec.equals(ServiceSpec.SCHEDULER)) {
            env.put("FERRY_SCHEDULER_DELEGATION_KEY", delegationKey);
        }
        if (spec.equals(ServiceSpec.RESOLVER)) {
            // The native protocol's server key (HS_SITE carries its public half), made on the first start, shared by replicas.
            env.put("FERRY_RESOLVER_NATIVE_SERVER_KEY_FILE", options.stateDirectory().resolve("native-server-key.pem").toString());
            env.put("FERRY_RESOLVER_NATIVE_GENERATE_SERVER_KEY", "true");
        }
        if (spec.equals(ServiceSpec.RESOLVER) && !logName.equals(spec.name())) {
            // A second resolver (a replica) cannot share the first one's native Handle protocol port.
            env.put("FERRY_RESOLVER_NATIVE_PORT", Integer.toString(FreePort.find()));
        }
        env.putAll(options.extraEnvironment());
        Path serviceDir = options.projectRoot().resolve("services").resolve(spec.name());
        Path jar = ServiceProcess.nativeRequested(spec.name()) ? nativeExecutable(serviceDir, spec.name())
                : serviceDir.resolve("target/quarkus-app/quarkus-run.jar");
        Path log = options.stateDirectory().resolve("logs").resolve(logName + ".log");
        return new ServiceProcess(spec, port, jar, log, env, properties);
    }

    /**
     * Starts one more replica of a running service (same database, same settings, a free port of its own) and waits
     * until it is ready; {@link #close} stops it with the others, {@link #service} still answers the first.
     */
    public ServiceProcess startReplica(ServiceSpec spec, Duration readyTimeout) throws Exception {
        long running = services.stream().filter(s -> s.spec().equals(spec)).count();
        ServiceProcess replica = process(spec, FreePort.find(), spec.name() + "-" + (running + 1));
        services.add(replica);
        replica.start();
        replica.awaitReady(readyTimeout);
        return replica;
    }

    private Map<String, String> commonEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put("FERRY_DB_HOST", postgres.host());
        env.put("FERRY_DB_PORT", Integer.toString(postgres.port()));
        // Four JVMs starting at once on a busy machine can miss the 3 s acquisition timeout of Flyway's first
        // connection; retrying it beats failing the whole stack's start.
        env.put("QUARKUS_FLYWAY_CONNECT_RETRIES", "5");
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", keys.publicKeyFile().toUri().toString());
        env.put("MP_JWT_VERIFY_ISSUER", DevTokens.ISSUER);
        env.put("MP_JWT_VERIFY_AUDIENCES", DevTokens.AUDIENCE);
        // ./ferry token --wlcg: the dev issuer's WLCG-profile tokens may be for any service, as IAM's often are
        env.put("FERRY_IDENTITY_ISSUERS_FERRY_ACCEPT_ANY_AUDIENCE", "true");
        options.ports().forEach((spec, port) ->
                env.put("FERRY_CLIENTS_" + spec.configPrefix().toUpperCase() + "_URL", "http://localhost:" + port));
        return env;
    }

    /**
     * HTTPS with client certificates (X.509 proxies with VOMS attributes from the dev PKI) on {@code port}, as system
     * properties: the key store's map key ({@code pem.0}) has no unambiguous environment-variable spelling.
     */
    private Map<String, String> https(int port) {
        Map<String, String> p = new HashMap<>();
        p.put("quarkus.http.ssl-port", Integer.toString(port));
        p.put("quarkus.tls.key-store.pem.0.cert", pki.hostCertificateFile().toString());
        p.put("quarkus.tls.key-store.pem.0.key", pki.hostKeyFile().toString());
        p.put("ferry.identity.x509.enabled", "true");
        p.put("ferry.identity.x509.trust-anchors", pki.certificates().toString());
        p.put("ferry.identity.x509.vomsdir", pki.vomsdir().toString());
        for (String vo : DEV_VOS) {
            String rule = "ferry.identity.grants." + vo;
            p.put(rule + "-members.fqan", "/" + vo);
            p.put(rule + "-members.group", "/" + vo);
            p.put(rule + "-members.roles", "transfer:read");
            p.put(rule + "-production.fqan", "/" + vo + "/Role=production");
            p.put(rule + "-production.group", "/" + vo + "/production");
            p.put(rule + "-production.roles", "transfer:submit");
        }
        // WLCG tokens (./ferry token --wlcg): the scope Rucio asks IAM for reads and submits, as in grid-identity's example
        p.put("ferry.identity.grants.wlcg-fts.scope", "fts");
        p.put("ferry.identity.grants.wlcg-fts.roles", "transfer:read,transfer:submit");
        return p;
    }

    /**
     * The AES key that encrypts delegated proxies in the scheduler's database (base64 of 32 random bytes), made once
     * per stack and kept beside its other keys, so delegations outlive a restart; every replica gets the same.
     */
    private static String delegationKey(Path file) throws java.io.IOException {
        if (!Files.exists(file)) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            OwnerOnlyFiles.write(file, Base64.getEncoder().encodeToString(key));
        }
        return Files.readString(file).trim();
    }

    /** The dev CA, VOMS signers and user of a stack kept in {@code stateDirectory} ({@code ./ferry proxy} uses it too). */
    public static DevGridPki gridPki(Path stateDirectory) throws java.io.IOException {
        return DevGridPki.loadOrCreate(stateDirectory.resolve("grid"));
    }

    public DevGridPki gridPki() {
        return pki;
    }

    /** Where the stack keeps its state: database, keys, the grid PKI ({@code grid/}), logs. */
    public Path stateDirectory() {
        return options.stateDirectory();
    }

    /** The scheduler's HTTPS address (client certificates accepted). */
    public String schedulerHttpsUrl() {
        return "https://localhost:" + schedulerHttpsPort;
    }

    public List<ServiceProcess> services() {
        return List.copyOf(services);
    }

    public ServiceProcess service(ServiceSpec spec) {
        return services.stream().filter(s -> s.spec().equals(spec)).findFirst().orElseThrow();
    }

    /** The database server; its {@link PostgresServer#user() user} is the admin, not what the services use. */
    public PostgresServer postgres() {
        return postgres;
    }

    /** What {@code spec}'s service connects to its database as (its own role, unless the admin may not create roles). */
    public PostgresServer.Credentials databaseCredentials(ServiceSpec spec) {
        PostgresServer.Credentials credentials = databaseCredentials.get(spec);
        if (credentials == null) {
            throw new IllegalStateException(spec.name() + " has no database in this stack (not started?)");
        }
        return credentials;
    }

    public DevTokens tokens() {
        return new DevTokens(keys);
    }

    /** Stops the services (in parallel, gracefully), then the embedded database. */
    @Override
    public void close() throws Exception {
        List<Thread> stoppers = new ArrayList<>();
        for (ServiceProcess s : services) {
            Thread t = new Thread(() -> {
                try {
                    s.stop(Duration.ofSeconds(20));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            stoppers.add(t);
        }
        for (Thread t : stoppers) {
            t.join();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    /** Where the project's services live, for callers that only know the current directory. */
    public static Path projectRoot() {
        String configured = System.getProperty("ferry.root", System.getenv("FERRY_ROOT"));
        return Path.of(configured == null ? "." : configured).toAbsolutePath().normalize();
    }

    public Options options() {
        return options;
    }

    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && (root instanceof java.util.concurrent.ExecutionException)) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
