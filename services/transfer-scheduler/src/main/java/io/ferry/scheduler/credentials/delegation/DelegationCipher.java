package io.ferry.scheduler.credentials.delegation;

import io.ferry.scheduler.config.DelegationConfig;
import io.ferry.scheduler.credentials.AesGcmSeal;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Set;
import javax.crypto.SecretKey;

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

    private final SecretKey key;

    @Inject
    public DelegationCipher(DelegationConfig config, @ConfigProperty(name = "ferry.identity.x509.enabled", defaultValue = "false") boolean x509) {
        this.key = config.key().map(DelegationCipher::parse).orElseGet(() -> ephemeral(x509));
    }

    /** A cipher with the given key (tests). */
    DelegationCipher(SecretKey key) {
        this.key = key;
    }

    private static SecretKey parse(String base64) {
        return AesGcmSeal.parseKey(base64, "ferry.scheduler.delegation.key", Set.of(16, 24, 32));
    }

    private SecretKey ephemeral(boolean x509) {
        if (x509 && LaunchMode.current() == LaunchMode.NORMAL) {
            throw new IllegalStateException("ferry.identity.x509.enabled needs ferry.scheduler.delegation.key (FERRY_SCHEDULER_DELEGATION_KEY): "
                    + "the AES key, base64 of 32 random bytes (openssl rand -base64 32), that encrypts delegated proxies at rest");
        }
        if (x509) {
            LOG.warn("no ferry.scheduler.delegation.key: delegated proxies are encrypted with a key that lives as long as this process");
        }
        return AesGcmSeal.randomKey();
    }

    /** {@code plain} sealed for {@code row}'s {@code column} (see {@link AesGcmSeal}). */
    public byte[] encrypt(byte[] plain, String row, String column) {
        return AesGcmSeal.seal(key, plain, associated(row, column));
    }

    /** The plain bytes, or an exception when the value was not sealed with this key for this row and column. */
    public byte[] decrypt(byte[] sealed, String row, String column) throws GeneralSecurityException {
        return AesGcmSeal.open(key, sealed, associated(row, column));
    }

    /** The row a sealed value belongs to: delegation id and DN. */
    public static String row(String delegationId, String dn) {
        return delegationId + "\n" + dn;
    }

    private static byte[] associated(String row, String column) {
        return ("ferry-delegation\n" + row + "\n" + column).getBytes(StandardCharsets.UTF_8);
    }
}
