package io.ferry.cli;

import io.ferry.cli.auth.Credential;
import io.ferry.cli.auth.Environment;
import io.ferry.cli.auth.ProxyCredentials;
import io.ferry.cli.auth.TokenDiscovery;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.config.EndpointSettings;
import io.ferry.cli.config.Endpoints;
import io.ferry.cli.output.OutputFormat;
import io.ferry.cli.output.Printer;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The options every command takes (before or after its name): output format, endpoints and credentials; and the
 * clients built from them.
 */
public final class GlobalOptions {

    @Option(names = {"-o", "--output"}, scope = ScopeType.INHERIT, paramLabel = "FORMAT", defaultValue = "table",
            description = "table (default), json, yaml or tsv")
    OutputFormat output = OutputFormat.TABLE;

    @Option(names = "--token", scope = ScopeType.INHERIT, paramLabel = "TOKEN",
            description = "bearer token (else $BEARER_TOKEN, $BEARER_TOKEN_FILE, $XDG_RUNTIME_DIR/bt_u$UID, /tmp/bt_u$UID)")
    String token;

    @Option(names = "--proxy", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "X.509 proxy to use instead of a token (else $X509_USER_PROXY, /tmp/x509up_u$UID when no token is found)")
    String proxy;

    @Option(names = "--capath", scope = ScopeType.INHERIT, paramLabel = "DIR",
            description = "CA certificates for HTTPS with a proxy (else $X509_CERT_DIR, /etc/grid-security/certificates)")
    String capath;

    @Option(names = "--scheduler", scope = ScopeType.INHERIT, paramLabel = "URL", description = "transfer-scheduler (else $FERRY_SCHEDULER_URL)")
    String scheduler;

    @Option(names = "--scheduler-https", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "transfer-scheduler's client-certificate port, used with a proxy (else $FERRY_SCHEDULER_HTTPS_URL)")
    String schedulerHttps;

    @Option(names = "--resolver", scope = ScopeType.INHERIT, paramLabel = "URL", description = "handle-resolver (else $FERRY_RESOLVER_URL)")
    String resolver;

    @Option(names = "--aggregator", scope = ScopeType.INHERIT, paramLabel = "URL", description = "rate-aggregator (else $FERRY_AGGREGATOR_URL)")
    String aggregator;

    private Environment environment = Environment.current();
    private Path tmp = Path.of("/tmp");
    private Credential credential;
    private EndpointSettings settings;

    public Printer printer(PrintStream out) {
        return new Printer(output, out);
    }

    public OutputFormat output() {
        return output;
    }

    /** transfer-scheduler: its HTTPS port when the credential is a proxy, else its HTTP port. */
    public FerryHttp scheduler() {
        Credential c = credential();
        Endpoints e = endpoints();
        return new FerryHttp(c.isProxy() ? e.schedulerHttps() : e.scheduler(), c);
    }

    public FerryHttp resolver() {
        return new FerryHttp(endpoints().resolver(), tokenOnly());
    }

    public FerryHttp aggregator() {
        return new FerryHttp(endpoints().aggregator(), tokenOnly());
    }

    /** The credential, found once: a token by WLCG discovery, else a proxy, else none. */
    public Credential credential() {
        if (credential == null) {
            Optional<Credential> t = proxy == null ? new TokenDiscovery(environment, tmp).find(token) : Optional.empty();
            credential = t.orElseGet(() -> ProxyCredentials.find(proxy, environment, tmp)
                    .map(p -> ProxyCredentials.load(p, ProxyCredentials.caDirectory(
                            capath != null ? capath : settings().setting("auth.capath").orElse(null), environment)))
                    .orElseGet(Credential::none));
        }
        return credential;
    }

    /** The services other than the scheduler take tokens only: a proxy user calls them anonymously. */
    private Credential tokenOnly() {
        Credential c = credential();
        return c.isProxy() ? Credential.none() : c;
    }

    public Endpoints endpoints() {
        Map<String, String> flags = new HashMap<>();
        flags.put("scheduler", scheduler);
        flags.put("scheduler_https", schedulerHttps);
        flags.put("resolver", resolver);
        flags.put("aggregator", aggregator);
        return settings().resolve(flags);
    }

    private EndpointSettings settings() {
        if (settings == null) {
            settings = EndpointSettings.load(environment);
        }
        return settings;
    }
}
