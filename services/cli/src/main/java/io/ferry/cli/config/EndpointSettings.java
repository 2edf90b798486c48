package io.ferry.cli.config;

import io.ferry.cli.auth.Environment;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where each service is, first found wins: the command's flag, the environment ({@code FERRY_SCHEDULER_URL},
 * {@code FERRY_SCHEDULER_HTTPS_URL}, {@code FERRY_RESOLVER_URL}, {@code FERRY_AGGREGATOR_URL},
 * {@code FERRY_PROFILES_URL}), the {@code [endpoints]} table of the config file ({@code $FERRY_CONFIG}, else
 * {@code $XDG_CONFIG_HOME/ferry/config.toml}, else {@code ~/.config/ferry/config.toml}), the local stack of
 * {@code ./ferry up} (its {@code .ferry/stack.properties}, when run from the checkout), then the dev ports on localhost.
 */
public final class EndpointSettings {

    /** A service: its config key, environment variable, name in the local stack's state file, and dev default. */
    enum Service {
        SCHEDULER("scheduler", "FERRY_SCHEDULER_URL", "transfer-scheduler", "http://localhost:8081"),
        SCHEDULER_HTTPS("scheduler_https", "FERRY_SCHEDULER_HTTPS_URL", "transfer-scheduler-https", "https://localhost:8446"),
        RESOLVER("resolver", "FERRY_RESOLVER_URL", "handle-resolver", "http://localhost:8083"),
        AGGREGATOR("aggregator", "FERRY_AGGREGATOR_URL", "rate-aggregator", "http://localhost:8084"),
        PROFILES("profiles", "FERRY_PROFILES_URL", "tcp-profiles", "http://localhost:8082");

        final String key;
        final String variable;
        final String stackName;
        final String fallback;

        Service(String key, String variable, String stackName, String fallback) {
            this.key = key;
            this.variable = variable;
            this.stackName = stackName;
            this.fallback = fallback;
        }
    }

    private final Environment env;
    private final Map<String, String> file;
    private final Properties stack;

    public EndpointSettings(Environment env, Map<String, String> file, Properties stack) {
        this.env = env;
        this.file = file;
        this.stack = stack;
    }

    /** Settings from the real environment, config file and local stack (the checkout of {@code -Dferry.root}). */
    public static EndpointSettings load(Environment env) {
        return new EndpointSettings(env, configFile(env).map(EndpointSettings::readToml).orElse(Map.of()), localStack());
    }

    /** {@code flags} by config key (scheduler, scheduler_https, resolver, aggregator, profiles); null values are unset. */
    public Endpoints resolve(Map<String, String> flags) {
        Map<Service, String> urls = new HashMap<>();
        for (Service s : Service.values()) {
            String flag = flags.get(s.key);
            urls.put(s, flag != null && !flag.isBlank() ? flag
                    : env.get(s.variable).or(() -> Optional.ofNullable(file.get("endpoints." + s.key)))
                    .or(() -> Optional.ofNullable(stack.getProperty(s.stackName))).orElse(s.fallback));
        }
        return new Endpoints(urls.get(Service.SCHEDULER), urls.get(Service.SCHEDULER_HTTPS), urls.get(Service.RESOLVER),
                urls.get(Service.AGGREGATOR), urls.get(Service.PROFILES));
    }

    /** A setting of the config file outside {@code [endpoints]}, e.g. {@code auth.capath}. */
    public Optional<String> setting(String key) {
        return Optional.ofNullable(file.get(key));
    }

    static Optional<Path> configFile(Environment env) {
        Path p = env.get("FERRY_CONFIG").map(Path::of)
                .orElseGet(() -> env.get("XDG_CONFIG_HOME").map(Path::of)
                        .orElseGet(() -> Path.of(System.getProperty("user.home"), ".config")).resolve("ferry/config.toml"));
        return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    }

    private static Map<String, String> readToml(Path p) {
        try {
            return TomlSubset.parse(Files.readString(p));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + p + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(p + ", " + e.getMessage());
        }
    }

    private static Properties localStack() {
        Properties p = new Properties();
        String root = System.getProperty("ferry.root");
        if (root == null) {
            return p;
        }
        Path state = Path.of(root, ".ferry", "stack.properties");
        if (Files.isRegularFile(state)) {
            try (Reader r = Files.newBufferedReader(state)) {
                p.load(r);
            } catch (IOException e) {
                // a stack stopping as we read: the defaults stand
            }
        }
        return p;
    }
}
