package io.ferry.scheduler.service;

import io.ferry.scheduler.config.SchedulerConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;

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
    private static final byte VERSION = 1;
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;

    @Inject
    SchedulerConfig config;

    private final SecureRandom random = new SecureRandom();
    private volatile SecretKey key;

    public TokenSeal() {
    }

    /** A seal with this key (configured, {@link #load}). */
    TokenSeal(SecretKey key) {
        this.key = key;
    }

    void onStart(@Observes StartupEvent e) {
        key();
    }

    /** The sealed token: version, nonce, ciphertext with its tag. */
    public byte[] seal(String token, UUID job, int tokenNo) {
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key(), new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(associated(job, tokenNo));
            byte[] sealed = c.doFinal(token.getBytes(StandardCharsets.US_ASCII));
            return ByteBuffer.allocate(1 + NONCE + sealed.length).put(VERSION).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("AES-GCM is not available: " + ex.getMessage(), ex);
        }
    }

    /** The token sealed for this job and number; a {@link SealBroken} if the key differs or the row was altered. */
    public String open(byte[] sealed, UUID job, int tokenNo) throws SealBroken {
        if (sealed == null || sealed.length < 1 + NONCE + TAG_BITS / 8 || sealed[0] != VERSION) {
            throw new SealBroken();
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key(), new GCMParameterSpec(TAG_BITS, sealed, 1, NONCE));
            c.updateAAD(associated(job, tokenNo));
            return new String(c.doFinal(sealed, 1 + NONCE, sealed.length - 1 - NONCE), StandardCharsets.US_ASCII);
        } catch (javax.crypto.AEADBadTagException ex) {
            throw new SealBroken();
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("AES-GCM is not available: " + ex.getMessage(), ex);
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
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            return new SecretKeySpec(random, "AES");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(configured.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ferry.scheduler.storage-tokens.key is not base64");
        }
        if (raw.length != 32) {
            throw new IllegalStateException("ferry.scheduler.storage-tokens.key must be 32 bytes (AES-256) in base64, not " + raw.length);
        }
        SecretKey k = new SecretKeySpec(raw, "AES");
        Arrays.fill(raw, (byte) 0);
        return k;
    }
}
