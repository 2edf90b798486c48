package io.ferry.scheduler.service;

import io.ferry.scheduler.config.DelegationConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Encrypts delegated proxies and private keys for the database (AES-GCM, a fresh 96-bit nonce per value). Each
 * ciphertext is bound to its row and column (the associated data), so a value copied into another owner's row does
 * not decrypt. Without {@code ferry.scheduler.delegation.key} a dev or test run makes a key for its lifetime (what it
 * stored is unreadable after a restart, and treated as absent); a production run that accepts certificates refuses
 * to start.
 */
@Startup
@Singleton
public class DelegationCipher {

    /** The sealed columns of {@code delegated_credential}: a pending request's key, and the delegated proxy. */
    public static final String KEY_COLUMN = "request_key";
    public static final String PROXY_COLUMN = "proxy";

    private static final Logger LOG = Logger.getLogger(DelegationCipher.class);
    private static final byte VERSION = 1;
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;

    private final SecretKey key;
    private final SecureRandom random = new SecureRandom();

    @Inject
    public DelegationCipher(DelegationConfig config, @ConfigProperty(name = "ferry.identity.x509.enabled", defaultValue = "false") boolean x509) {
        this.key = config.key().map(DelegationCipher::parse).orElseGet(() -> ephemeral(x509));
    }

    /** A cipher with the given key (tests). */
    DelegationCipher(SecretKey key) {
        this.key = key;
    }

    private static SecretKey parse(String base64) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ferry.scheduler.delegation.key is not base64");
        }
        if (raw.length != 16 && raw.length != 24 && raw.length != 32) {
            throw new IllegalStateException("ferry.scheduler.delegation.key must be 16, 24 or 32 bytes (base64), not " + raw.length);
        }
        return new SecretKeySpec(raw, "AES");
    }

    private SecretKey ephemeral(boolean x509) {
        if (x509 && LaunchMode.current() == LaunchMode.NORMAL) {
            throw new IllegalStateException("ferry.identity.x509.enabled needs ferry.scheduler.delegation.key (FERRY_SCHEDULER_DELEGATION_KEY): "
                    + "the AES key, base64 of 32 random bytes (openssl rand -base64 32), that encrypts delegated proxies at rest");
        }
        if (x509) {
            LOG.warn("no ferry.scheduler.delegation.key: delegated proxies are encrypted with a key that lives as long as this process");
        }
        byte[] raw = new byte[32];
        random.nextBytes(raw);
        return new SecretKeySpec(raw, "AES");
    }

    /** {@code plain} encrypted for {@code row}'s {@code column}: version, nonce, ciphertext and tag. */
    public byte[] encrypt(byte[] plain, String row, String column) {
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(associated(row, column));
            byte[] sealed = c.doFinal(plain);
            return ByteBuffer.allocate(1 + NONCE + sealed.length).put(VERSION).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable", e);
        }
    }

    /** The plain bytes, or an exception when the value was not sealed with this key for this row and column. */
    public byte[] decrypt(byte[] sealed, String row, String column) throws GeneralSecurityException {
        if (sealed.length < 1 + NONCE + TAG_BITS / 8 || sealed[0] != VERSION) {
            throw new GeneralSecurityException("not a sealed value of this version");
        }
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 1, NONCE));
        c.updateAAD(associated(row, column));
        return c.doFinal(sealed, 1 + NONCE, sealed.length - 1 - NONCE);
    }

    /** The row a sealed value belongs to: delegation id and DN. */
    public static String row(String delegationId, String dn) {
        return delegationId + "\n" + dn;
    }

    private static byte[] associated(String row, String column) {
        return ("ferry-delegation\n" + row + "\n" + column).getBytes(StandardCharsets.UTF_8);
    }
}
