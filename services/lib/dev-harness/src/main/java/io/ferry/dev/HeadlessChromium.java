package io.ferry.dev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's headless Chromium for page tests, in two ways: {@link #run} for one-shot command-line uses
 * ({@code --dump-dom}, {@code --screenshot}), and {@link #open} for a browser driven over the DevTools protocol, which
 * can sign in, wait for a page to change while a test moves data, read the DOM, collect console errors (script
 * errors, failed loads, policy violations) and take screenshots.
 */
public final class HeadlessChromium implements AutoCloseable {

    /** Flags for a quiet, reproducible browser: no network of its own, no GPU, no sandbox (tests run in containers). */
    public static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars");

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final String session;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> consoleErrors = new CopyOnWriteArrayList<>();

    public static String binary() {
        return new File("/usr/bin/chromium").canExecute() ? "/usr/bin/chromium" : "chromium";
    }

    /** Runs Chromium once with {@link #FLAGS} and {@code args}; answers its standard output. */
    public static String run(Path profile, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary(), "--user-data-dir=" + profile));
        cmd.addAll(FLAGS);
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not finish");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("chromium failed with " + p.exitValue() + " (is Debian's chromium installed? ./ferry test installs it)");
        }
        return out;
    }

    /** Starts a browser with one blank page, window {@code width}×{@code height}. */
    public static HeadlessChromium open(int width, int height) throws Exception {
        Path profile = Files.createTempDirectory("chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(binary(), "--user-data-dir=" + profile, "--remote-debugging-port=0",
                "--remote-debugging-address=127.0.0.1", "--window-size=" + width + "," + height));
        cmd.addAll(FLAGS);
        cmd.add("about:blank");
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            return new HeadlessChromium(p, profile, devToolsUrl(p));
        } catch (Exception e) {
            p.destroyForcibly();
            DirectoryTrees.delete(profile);
            throw e;
        }
    }

    private static String devToolsUrl(Process p) throws IOException {
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = err.readLine()) != null; ) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                // keep draining stderr, or a chatty browser blocks on a full pipe
                Thread drain = new Thread(() -> err.lines().forEach(l -> { }), "chromium-stderr");
                drain.setDaemon(true);
                drain.start();
                return m.group(1);
            }
            seen.append(line).append('\n');
        }
        throw new IOException("chromium ended before it listened for DevTools: " + seen);
    }

    private HeadlessChromium(Process process, Path profile, String browserUrl) throws Exception {
        this.process = process;
        this.profile = profile;
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(browserUrl), new Listener()).get(10, TimeUnit.SECONDS);
        String target = call(null, "Target.createTarget", Map.of("url", "about:blank")).path("targetId").asText();
        this.session = call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true)).path("sessionId").asText();
        call("Runtime.enable", Map.of());
        call("Log.enable", Map.of());
        call("Page.enable", Map.of());
    }

    /** Console errors, uncaught exceptions and browser-logged errors (failed loads, CSP violations) so far. */
    public List<String> consoleErrors() {
        return List.copyOf(consoleErrors);
    }

    /** Loads {@code url} and waits until its document has loaded. */
    public void navigate(String url) throws Exception {
        call("Page.navigate", Map.of("url", url));
        waitFor("document.readyState === 'complete' && location.href === " + JSON.writeValueAsString(url), Duration.ofSeconds(30));
    }

    /** The value of a JavaScript expression in the page (promises are awaited). */
    public JsonNode evaluate(String expression) throws Exception {
        JsonNode answer = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (answer.has("exceptionDetails")) {
            throw new IllegalStateException("the page threw: " + answer.path("exceptionDetails"));
        }
        return answer.path("result").path("value");
    }

    /** Waits until {@code expression} is true in the page; fails with what it was last if it stays false. */
    public void waitFor(String expression, Duration within) throws Exception {
        waitUntil(expression, JsonNode::asBoolean, within);
    }

    /** Waits until the expression's value passes {@code test}; answers that value. */
    public JsonNode waitUntil(String expression, Predicate<JsonNode> test, Duration within) throws Exception {
        Instant end = Instant.now().plus(within);
        JsonNode last = null;
        while (Instant.now().isBefore(end)) {
            last = evaluate(expression);
            if (test.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("within " + within + " the page never had " + expression + "; last: " + last
                + "; console errors: " + consoleErrors);
    }

    /** Saves a PNG of the page, all of it, to {@code file}. */
    public void screenshot(Path file) throws Exception {
        JsonNode shot = call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(shot.path("data").asText()));
    }

    private JsonNode call(String method, Map<String, ?> params) throws Exception {
        return call(session, method, params);
    }

    private JsonNode call(String sessionId, String method, Map<String, ?> params) throws Exception {
        long id = ids.incrementAndGet();
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", JSON.valueToTree(params));
        if (sessionId != null) {
            message.put("sessionId", sessionId);
        }
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        synchronized (socket) {
            socket.sendText(JSON.writeValueAsString(message), true).get(10, TimeUnit.SECONDS);
        }
        JsonNode reply = answer.get(60, TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new IllegalStateException(method + " failed: " + reply.path("error"));
        }
        return reply.path("result");
    }

    private void received(JsonNode message) {
        if (message.has("id")) {
            CompletableFuture<JsonNode> answer = pending.remove(message.path("id").asLong());
            if (answer != null) {
                answer.complete(message);
            }
            return;
        }
        JsonNode p = message.path("params");
        switch (message.path("method").asText()) {
            case "Runtime.consoleAPICalled" -> {
                if (p.path("type").asText().equals("error") || p.path("type").asText().equals("assert")) {
                    consoleErrors.add("console." + p.path("type").asText() + ": " + p.path("args"));
                }
            }
            case "Runtime.exceptionThrown" -> consoleErrors.add("uncaught: " + p.path("exceptionDetails"));
            case "Log.entryAdded" -> {
                if (p.path("entry").path("level").asText().equals("error")) {
                    consoleErrors.add(p.path("entry").path("source").asText() + ": " + p.path("entry").path("text").asText()
                            + " " + p.path("entry").path("url").asText());
                }
            }
            default -> {
            }
        }
    }

    /** Collects text frames (a message may come in several) and hands each whole one on. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    received(JSON.readTree(text));
                } catch (IOException e) {
                    consoleErrors.add("unreadable DevTools message: " + e.getMessage());
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            socket.abort();
        } finally {
            List<ProcessHandle> helpers = process.descendants().toList();
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            // renderers and the zygote end with the browser; any left behind are this browser's own
            helpers.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            DirectoryTrees.delete(profile);
        }
    }
}
