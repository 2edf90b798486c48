package io.ferry.scheduler.credentials;

import io.ferry.scheduler.config.SchedulerConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.UUID;
import javax.crypto.AEADBadTagException;
import javax.crypto.SecretKey;

/**
 * Seals the bearer tokens files bring (AES-256-GCM, a fresh 96-bit nonce each) before they are stored, and opens
 * them for the copy. The sealed form is bound to where it is stored (job and token number as associated data), so a
 * row copied to another job does not open. Outside dev and test the key must be configured, or the scheduler does
 * not start; in dev and test a missing key is replaced by a random one for the process (tokens stored before a
 * restart then no longer open, and their files fail with a clear reason).
 */
@ApplicationScoped
public class TokenSeal {

    private static final Logger LOG = Logger.getLogger(TokenSeal.class);

    private final SchedulerConfig config;

    private volatile SecretKey key;

    @Inject
    TokenSeal(SchedulerConfig config) {
        this.config = config;
    }

    /** A seal with this key (configured, {@link #load}). */
    TokenSeal(SecretKey key) {
        this.config = null;
        this.key = key;
    }

    void onStart(@Observes StartupEvent e) {
        key();
    }

    /** The sealed token (see {@link AesGcmSeal}), bound to its job and token number. */
    public byte[] seal(String token, UUID job, int tokenNo) {
        return AesGcmSeal.seal(key(), token.getBytes(StandardCharsets.US_ASCII), associated(job, tokenNo));
    }

    /** The token sealed for this job and number; a {@link SealBroken} if the key differs or the row was altered. */
    public String open(byte[] sealed, UUID job, int tokenNo) throws SealBroken {
        try {
            return new String(AesGcmSeal.open(key(), sealed, associated(job, tokenNo)), StandardCharsets.US_ASCII);
        } catch (AEADBadTagException e) {
            throw new SealBroken();
        }
    }

    /** A sealed token that does not open with this key (another key, or an altered row). */
    public static final class SealBroken extends Exception {
        SealBroken() {
            super("the stored token does not open with this scheduler's storage-tokens key", null, false, false);
        }
    }

    private static byte[] associated(UUID job, int tokenNo) {
        return ByteBuffer.allocate(20).putLong(job.getMostSignificantBits()).putLong(job.getLeastSignificantBits()).putInt(tokenNo).array();
    }

    private SecretKey key() {
        SecretKey k = key;
        if (k == null) {
            synchronized (this) {
                if (key == null) {
                    key = load(config.storageTokens().key().orElse(null), LaunchMode.current().isDevOrTest());
                }
                k = key;
            }
        }
        return k;
    }

    /** The configured key; a random one only in dev and test. */
    static SecretKey load(String configured, boolean devOrTest) {
        if (configured == null || configured.isBlank()) {
            if (!devOrTest) {
                throw new IllegalStateException("ferry.scheduler.storage-tokens.key (FERRY_SCHEDULER_STORAGE_TOKENS_KEY) is not set: the bearer "
                        + "tokens files bring toward storage are stored sealed with it. Set it to 32 random bytes in base64 "
                        + "(openssl rand -base64 32), the same on every replica.");
            }
            LOG.warn("ferry.scheduler.storage-tokens.key is not set: storage tokens are sealed with a random key for this process only");
            return AesGcmSeal.randomKey();
        }
        return AesGcmSeal.parseKey(configured, "ferry.scheduler.storage-tokens.key", Set.of(32));
    }
}
