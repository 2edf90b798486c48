package io.ferry.scheduler.webhooks;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.credentials.TokenSeal;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.submission.JobWebhook;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Each VO's webhook settings: the hosts its jobs may name, and the HMAC secret events are signed with. The secret
 * is stored sealed ({@link TokenSeal}, bound to the VO) and shown once, when it is made.
 */
@ApplicationScoped
public class WebhookVos {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Pool pool;
    private final TokenSeal seal;

    @Inject
    WebhookVos(Pool pool, TokenSeal seal) {
        this.pool = pool;
        this.seal = seal;
    }

    /** What an administrator sees: never the secret, only whether there is one. */
    public record Settings(String vo, List<String> allowedHosts, boolean hasSecret, OffsetDateTime secretCreatedAt) {
    }

    /** What delivery needs: the hosts, and the opened secret (empty when none was made). */
    public record ForDelivery(AllowedHosts hosts, Optional<String> secret) {
    }

    /** A submission's webhook, refused with a 400 on {@code params.webhook.url} unless its VO allows the host. */
    public Uni<Void> checkSubmission(String vo, JobWebhook hook) {
        if (hook == null) {
            return Uni.createFrom().voidItem();
        }
        String host = hook.url().getHost();
        String literal = literalRefusal(host);
        if (literal != null) {
            return Uni.createFrom().failure(refused("the host is " + literal + ": webhooks never go to Ferry's own network"));
        }
        return hosts(vo).map(hosts -> {
            if (!hosts.allows(host)) {
                throw refused("host " + host + " is not among the webhook hosts an administrator allowed for VO " + vo);
            }
            return null;
        });
    }

    public Uni<Settings> get(String vo) {
        return pool.preparedQuery("SELECT vo, allowed_hosts, secret IS NOT NULL, secret_created_at FROM webhook_vo WHERE vo = $1")
                .execute(Tuple.of(vo)).map(rows -> rows.size() == 0 ? new Settings(vo, List.of(), false, null) : settings(rows.iterator().next()));
    }

    public Uni<Settings> putHosts(String vo, List<String> given) {
        List<Problem.FieldError> errors = new java.util.ArrayList<>();
        AllowedHosts hosts = AllowedHosts.parse(given, "allowed_hosts", errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.badRequest("INVALID_WEBHOOK_HOSTS", "nothing was stored", errors));
        }
        return pool.preparedQuery("INSERT INTO webhook_vo (vo, allowed_hosts) VALUES ($1, $2) ON CONFLICT (vo) DO UPDATE "
                        + "SET allowed_hosts = EXCLUDED.allowed_hosts, updated_at = now() RETURNING vo, allowed_hosts, secret IS NOT NULL, secret_created_at")
                .execute(Tuple.of(vo, hosts.patterns().toArray(new String[0]))).map(rows -> settings(rows.iterator().next()));
    }

    /** Makes a new secret for the VO, replacing any before it (events not yet delivered are signed with the new one). */
    public Uni<String> newSecret(String vo) {
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        String secret = "whsec_" + HexFormat.of().formatHex(random);
        return pool.preparedQuery("INSERT INTO webhook_vo (vo, secret, secret_created_at) VALUES ($1, $2, now()) ON CONFLICT (vo) DO UPDATE "
                        + "SET secret = EXCLUDED.secret, secret_created_at = now(), updated_at = now()")
                .execute(Tuple.of(vo, io.vertx.core.buffer.Buffer.buffer(seal.seal(secret, binding(vo), 0)))).replaceWith(secret);
    }

    /** For the delivery loop (blocking): the VO's hosts and opened secret. */
    ForDelivery forDelivery(String vo) throws TokenSeal.SealBroken {
        var rows = pool.preparedQuery("SELECT allowed_hosts, secret FROM webhook_vo WHERE vo = $1").execute(Tuple.of(vo)).await().atMost(Db.WAIT);
        if (rows.size() == 0) {
            return new ForDelivery(new AllowedHosts(List.of()), Optional.empty());
        }
        Row r = rows.iterator().next();
        var sealed = r.getBuffer("secret");
        return new ForDelivery(new AllowedHosts(List.of(r.getArrayOfStrings("allowed_hosts"))),
                sealed == null ? Optional.empty() : Optional.of(seal.open(sealed.getBytes(), binding(vo), 0)));
    }

    private Uni<AllowedHosts> hosts(String vo) {
        return pool.preparedQuery("SELECT allowed_hosts FROM webhook_vo WHERE vo = $1").execute(Tuple.of(vo))
                .map(rows -> new AllowedHosts(rows.size() == 0 ? List.of() : List.of(rows.iterator().next().getArrayOfStrings("allowed_hosts"))));
    }

    /** The sealed secret opens only as this VO's: a row copied to another VO does not. */
    private static UUID binding(String vo) {
        return UUID.nameUUIDFromBytes(("ferry-webhook-secret:" + vo).getBytes(StandardCharsets.UTF_8));
    }

    /** Why an address literal host is refused, null for a name or a public address. */
    private static String literalRefusal(String host) {
        if (!host.matches("[0-9.]+|\\[.*]")) {
            return null;
        }
        try {
            return AddressPolicy.refusal(InetAddress.getByName(host));
        } catch (UnknownHostException e) {
            return "no valid address";
        }
    }

    private static ProblemException refused(String why) {
        return ProblemException.badRequest("INVALID_JOB", "1 problem(s) with the submission; nothing was stored",
                List.of(new Problem.FieldError("params.webhook.url", why)));
    }

    private static Settings settings(Row r) {
        return new Settings(r.getString(0), List.of(r.getArrayOfStrings(1)), r.getBoolean(2), r.getOffsetDateTime(3));
    }
}
