package io.ferry.stack;

import io.ferry.dev.DevKeys;
import io.ferry.dev.DevTokens;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./ferry up | status | down | token | proxy}: runs the local stack in the foreground (Ctrl-C stops it), tells
 * whether it is up, stops a stack started elsewhere, mints dev tokens signed by the stack's key, and writes X.509
 * proxies with VOMS attributes from the stack's dev CA ({@code ./ferry test} is the bash script's own). Every other
 * command, and {@code status JOB}, is the user's {@code ferry} command ({@link io.ferry.cli.Main}), which finds the
 * running stack's endpoints through {@code -Dferry.root}.
 */
public final class FerryCli {

    private static final PrintStream OUT = System.out;
    private static final PrintStream ERR = System.err;

    private static final String USAGE = "local stack: ferry up [--native] | status | down"
            + " | token --vo VO --scope \"SCOPES\" [--site SITE] [--sub NAME] [--hours N]"
            + " | token --wlcg --vo VO [--group G] [--scope \"SCOPES\"] [--aud AUDIENCE]"
            + " | proxy --vo VO [--fqan FQAN] [--hours N] [--out FILE] | test [maven arguments]";

    private FerryCli() {
    }

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "help" : args[0];
        List<String> rest = List.of(args).subList(Math.min(1, args.length), args.length);
        Path root = LocalStack.projectRoot();
        int code = switch (command) {
            case "up" -> {
                if (rest.contains("--native")) {
                    System.setProperty(ServiceProcess.NATIVE, "true");
                }
                yield up(root);
            }
            // `status JOB` (and `status --help`) is a job's status; `status` alone is the stack's
            case "status" -> rest.isEmpty() ? status(root) : io.ferry.cli.Main.run(args);
            case "down" -> down(root);
            case "token" -> token(root, rest);
            case "proxy" -> proxy(root, rest);
            case "help" -> {
                OUT.println(USAGE);
                OUT.println();
                io.ferry.cli.Main.run("--help");
                yield 0;
            }
            default -> io.ferry.cli.Main.run(args);
        };
        System.exit(code);
    }

    /** Where the scheduler of {@code ./ferry up} may read and write file:// SEs unless the environment says otherwise. */
    static final String FILE_ROOTS_VARIABLE = "FERRY_SCHEDULER_ENGINE_FILE_ROOTS";

    static int up(Path root) throws Exception {
        LocalStack.Options defaults = LocalStack.Options.defaults(root);
        // file:// SEs are the storage a newcomer has without installing a server (the README's walkthrough
        // registers two); the engine copies only below its file roots, and has none unless told.
        String fileRoots = System.getenv(FILE_ROOTS_VARIABLE);
        Map<String, String> extra = new HashMap<>(defaults.extraEnvironment());
        if (fileRoots == null || fileRoots.isBlank()) {
            fileRoots = defaults.stateDirectory().resolve("storage").toString();
            extra.put(FILE_ROOTS_VARIABLE, fileRoots);
        }
        LocalStack.Options options = new LocalStack.Options(defaults.projectRoot(), defaults.stateDirectory(), defaults.ports(),
                defaults.externalDbUrl(), defaults.embeddedDbPort(), Map.copyOf(extra), defaults.schedulerHttpsPort());
        Path state = options.stateDirectory().resolve("stack.properties");
        Optional<ProcessHandle> running = runningStack(state);
        if (running.isPresent()) {
            ERR.println("ferry: a stack is already running (pid " + running.get().pid() + "); `./ferry down` stops it");
            return 2;
        }
        LocalStack stack = new LocalStack(options);
        List<String> busy = stack.busyPorts();
        if (!busy.isEmpty()) {
            busy.forEach(b -> ERR.println("ferry: " + b));
            ERR.println("ferry: free the port(s) or stop what holds them, then run ./ferry up again");
            return 2;
        }
        Files.createDirectories(state.getParent());
        writeState(state, Map.of("pid", Long.toString(ProcessHandle.current().pid())));
        if (extra.containsKey(FILE_ROOTS_VARIABLE)) {
            io.ferry.dev.OwnerOnlyFiles.directory(Path.of(fileRoots));
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            OUT.println("\nferry: stopping services and database ...");
            try {
                stack.close();
                Files.deleteIfExists(state);
            } catch (Exception e) {
                ERR.println("ferry: while stopping: " + LocalStack.describe(e));
            }
            OUT.println("ferry: stopped");
            stopped.countDown();
        }));
        OUT.println("ferry: starting " + (options.externalDbUrl() == null
                ? "embedded PostgreSQL on 127.0.0.1:" + options.embeddedDbPort() + " (data in " + options.stateDirectory().resolve("pgdata")
                        + ", passwords in " + options.stateDirectory().resolve(io.ferry.dev.PostgresServer.PASSWORDS_FILE) + ")"
                : "on PostgreSQL at " + options.externalDbUrl().replaceAll("//[^@/]*@", "//***@")) + " and four services ...");
        try {
            stack.start(Duration.ofMinutes(3));
        } catch (Exception e) {
            ERR.println("ferry: start failed: " + LocalStack.describe(e));
            return 1; // the shutdown hook stops what did start and removes the state file
        }
        Map<String, String> urls = new HashMap<>();
        urls.put("pid", Long.toString(ProcessHandle.current().pid()));
        stack.services().forEach(s -> urls.put(s.spec().name(), s.url()));
        urls.put(ServiceSpec.SCHEDULER.name() + "-https", stack.schedulerHttpsUrl()); // where `ferry` goes with a proxy
        writeState(state, urls);
        OUT.println();
        OUT.println("Ferry is up:");
        for (ServiceProcess s : stack.services()) {
            OUT.printf("  %-20s %s   (ready: %s/q/health/ready, log: %s)%n", s.spec().name(), s.url(), s.url(), root.relativize(s.log()));
        }
        String token = stack.tokens().mint(DevTokens.Claims.of("dev-user", "atlas",
                "transfer:read transfer:submit transfer:admin profiles:write profiles:admin handles:write handles:admin rates:write").withSite("RAL-LCG2"));
        OUT.println();
        OUT.println("Dev token (vo atlas, site RAL-LCG2, every scope; `./ferry token` mints narrower ones):");
        OUT.println("  export FERRY_TOKEN=" + token);
        OUT.println("  curl -H \"Authorization: Bearer $FERRY_TOKEN\" " + stack.service(ServiceSpec.SCHEDULER).url() + "/whoami");
        OUT.println("  export BEARER_TOKEN=$FERRY_TOKEN; ./ferry whoami     # the ferry command finds tokens as WLCG tools do");
        OUT.println();
        OUT.println("The scheduler also speaks HTTPS with client certificates (VOMS proxies from the dev CA, `./ferry proxy`):");
        OUT.println("  ./ferry proxy --vo atlas --fqan /atlas/Role=production");
        OUT.println("  curl --capath " + root.relativize(stack.gridPki().certificates()) + " --cert .ferry/x509up --key .ferry/x509up "
                + stack.schedulerHttpsUrl() + "/whoami");
        OUT.println();
        OUT.println("file:// SEs may live below " + fileRoots + " (" + FILE_ROOTS_VARIABLE + ")");
        OUT.println();
        OUT.println("Ctrl-C (or ./ferry down) stops everything.");
        stopped.await();
        return 0;
    }

    static int status(Path root) throws IOException {
        Path state = root.resolve(".ferry/stack.properties");
        Optional<ProcessHandle> running = runningStack(state);
        if (running.isEmpty()) {
            OUT.println("ferry: not running");
            return 3;
        }
        Properties props = load(state);
        OUT.println("ferry: stack running (pid " + running.get().pid() + ")");
        if (ServiceSpec.ALL.stream().noneMatch(spec -> props.getProperty(spec.name()) != null)) {
            OUT.println("  starting: the services are not all ready yet"); // up writes their URLs once they are
            return 1;
        }
        boolean allReady = true;
        for (ServiceSpec spec : ServiceSpec.ALL) {
            String url = props.getProperty(spec.name());
            if (url == null) {
                continue;
            }
            int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
            ServiceProcess probe = new ServiceProcess(spec, port, null, null, Map.of());
            int ready = probe.readiness();
            allReady &= ready == 200;
            OUT.printf("  %-20s %-24s %s%n", spec.name(), url, ready == 200 ? "READY" : ready < 0 ? "NOT ANSWERING" : "NOT READY (" + ready + ")");
        }
        return allReady ? 0 : 1;
    }

    static int down(Path root) throws Exception {
        Path state = root.resolve(".ferry/stack.properties");
        Optional<ProcessHandle> running = runningStack(state);
        if (running.isEmpty()) {
            OUT.println("ferry: not running");
            Files.deleteIfExists(state);
            return 0;
        }
        ProcessHandle stack = running.get();
        OUT.println("ferry: stopping the stack (pid " + stack.pid() + ") ...");
        stack.destroy();
        try {
            stack.onExit().get(90, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            ERR.println("ferry: the stack did not stop within 90 s; killing it");
            stack.descendants().forEach(ProcessHandle::destroyForcibly);
            stack.destroyForcibly();
        }
        Files.deleteIfExists(state);
        OUT.println("ferry: stopped");
        return 0;
    }

    /**
     * {@code ./ferry token --vo VO --scope "SCOPES" ...}: a token in Ferry's own claims; with {@code --wlcg}, a WLCG
     * Common JWT Profile token instead (its VO as the group {@code /VO}, more with {@code --group}, WLCG scopes,
     * {@code aud} WLCG's any-audience unless {@code --aud} names one), which the stack accepts from the same issuer.
     */
    static int token(Path root, List<String> args) throws IOException {
        Map<String, String> opts = new HashMap<>();
        List<String> groups = new ArrayList<>();
        boolean wlcg = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--wlcg")) {
                wlcg = true;
                continue;
            }
            if (!a.startsWith("--") || i + 1 >= args.size()) {
                ERR.println("ferry token: expected --vo VO --scope \"SCOPES\" [--site SITE] [--sub NAME] [--hours N]"
                        + " or --wlcg --vo VO [--group /VO/GROUP] [--scope \"SCOPES\"] [--aud AUDIENCE] [--sub NAME] [--hours N], got '" + a + "'");
                return 2;
            }
            String value = args.get(++i);
            if (a.equals("--group")) {
                groups.add(value);
            } else {
                opts.put(a.substring(2), value);
            }
        }
        List<String> unknown = new ArrayList<>(opts.keySet());
        unknown.removeAll(wlcg ? List.of("vo", "scope", "aud", "sub", "hours") : List.of("vo", "scope", "site", "sub", "hours"));
        if (wlcg && (!unknown.isEmpty() || !opts.containsKey("vo"))) {
            ERR.println("ferry token --wlcg: --vo is required; known options are --vo --group (repeatable) --scope --aud --sub --hours");
            return 2;
        }
        if (!wlcg && (!unknown.isEmpty() || !groups.isEmpty() || !opts.containsKey("scope"))) {
            ERR.println("ferry token: --scope is required; known options are --vo --scope --site --sub --hours (and --wlcg)");
            return 2;
        }
        long hours;
        try {
            hours = Long.parseLong(opts.getOrDefault("hours", "12"));
        } catch (NumberFormatException e) {
            ERR.println("ferry token: --hours takes a whole number");
            return 2;
        }
        DevTokens tokens = new DevTokens(DevKeys.loadOrCreate(root.resolve(".ferry/keys")));
        if (wlcg) {
            List<String> allGroups = new ArrayList<>(List.of("/" + opts.get("vo")));
            groups.stream().filter(g -> !allGroups.contains(g)).forEach(allGroups::add);
            OUT.println(tokens.mintWlcg(new DevTokens.WlcgClaims(opts.getOrDefault("sub", "dev-user"), allGroups,
                    opts.getOrDefault("scope", DevTokens.WlcgClaims.DEFAULT_SCOPE),
                    opts.getOrDefault("aud", DevTokens.WlcgClaims.ANY_AUDIENCE), Duration.ofHours(hours))));
            return 0;
        }
        DevTokens.Claims claims = new DevTokens.Claims(opts.getOrDefault("sub", "dev-user"), opts.get("vo"), opts.get("site"),
                opts.get("scope"), Duration.ofHours(hours), DevTokens.ISSUER, DevTokens.AUDIENCE);
        OUT.println(tokens.mint(claims));
        return 0;
    }

    /** {@code ./ferry proxy --vo VO [--fqan FQAN] [--hours N] [--out FILE]}: an RFC 3820 proxy of the dev user. */
    static int proxy(Path root, List<String> args) throws IOException {
        Map<String, String> opts = new HashMap<>();
        List<String> fqans = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--") || i + 1 >= args.size()) {
                ERR.println("ferry proxy: expected --vo VO [--fqan FQAN] [--hours N] [--out FILE], got '" + a + "'");
                return 2;
            }
            String value = args.get(++i);
            if (a.equals("--fqan")) {
                fqans.add(value);
            } else {
                opts.put(a.substring(2), value);
            }
        }
        List<String> unknown = new ArrayList<>(opts.keySet());
        unknown.removeAll(List.of("vo", "hours", "out"));
        if (!unknown.isEmpty() || !opts.containsKey("vo")) {
            ERR.println("ferry proxy: --vo is required; known options are --vo --fqan (repeatable) --hours --out");
            return 2;
        }
        long hours;
        try {
            hours = Long.parseLong(opts.getOrDefault("hours", "12"));
        } catch (NumberFormatException e) {
            ERR.println("ferry proxy: --hours takes a whole number");
            return 2;
        }
        Path out = Path.of(opts.getOrDefault("out", root.resolve(".ferry/x509up").toString()));
        try {
            io.ferry.dev.OwnerOnlyFiles.directory(root.resolve(".ferry")); // the dev CA's key lives below it
            LocalStack.gridPki(root.resolve(".ferry")).writeProxy(opts.get("vo"), fqans, Duration.ofHours(hours), out);
        } catch (IllegalArgumentException e) {
            ERR.println("ferry proxy: " + e.getMessage());
            return 2;
        }
        if (!LocalStack.DEV_VOS.contains(opts.get("vo"))) {
            ERR.println("ferry proxy: note: the running stack grants roles to " + LocalStack.DEV_VOS + " only; restart it to trust " + opts.get("vo"));
        }
        OUT.println(out);
        return 0;
    }

    private static void writeState(Path state, Map<String, String> values) throws IOException {
        Properties props = new Properties();
        props.putAll(values);
        try (var w = Files.newBufferedWriter(state)) {
            props.store(w, "the running local stack");
        }
    }

    private static Optional<ProcessHandle> runningStack(Path state) throws IOException {
        if (!Files.exists(state)) {
            return Optional.empty();
        }
        String pid = load(state).getProperty("pid");
        return pid == null ? Optional.empty() : ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive);
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        return p;
    }
}
