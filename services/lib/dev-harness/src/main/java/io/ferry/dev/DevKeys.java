package io.ferry.dev;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * The RSA key pair that signs local and test tokens. Generated on first use into a directory that is never
 * committed; services are given only {@link #publicKeyFile()}.
 */
public final class DevKeys {

    private final Path directory;
    private final KeyPair pair;

    private DevKeys(Path directory, KeyPair pair) {
        this.directory = directory;
        this.pair = pair;
    }

    /** Loads the pair from {@code directory}, generating and saving it there first if it is missing. */
    public static synchronized DevKeys loadOrCreate(Path directory) throws IOException {
        Path priv = directory.resolve("jwt-private.pem");
        Path pub = directory.resolve("jwt-public.pem");
        try {
            if (Files.exists(priv) && Files.exists(pub)) {
                KeyFactory rsa = KeyFactory.getInstance("RSA");
                PrivateKey privateKey = rsa.generatePrivate(new PKCS8EncodedKeySpec(readPem(priv)));
                PublicKey publicKey = rsa.generatePublic(new X509EncodedKeySpec(readPem(pub)));
                return new DevKeys(directory, new KeyPair(publicKey, privateKey));
            }
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            Files.createDirectories(directory);
            writePem(priv, "PRIVATE KEY", pair.getPrivate().getEncoded(), true);
            writePem(pub, "PUBLIC KEY", pair.getPublic().getEncoded(), false);
            return new DevKeys(directory, pair);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot load or create the key pair in " + directory, e);
        }
    }

    /**
     * A 256-bit secret key (base64) kept in {@code file}, generated there (owner-only) the first time: the dev stack's
     * key for what a service stores sealed, so a restart still opens what was sealed before.
     */
    public static synchronized String loadOrCreateSecretKey(Path file) throws IOException {
        if (Files.exists(file)) {
            return Files.readString(file).trim();
        }
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        String encoded = Base64.getEncoder().encodeToString(key);
        Files.createDirectories(file.getParent());
        OwnerOnlyFiles.write(file, encoded + "\n");
        return encoded;
    }

    public Path publicKeyFile() {
        return directory.resolve("jwt-public.pem");
    }

    PrivateKey privateKey() {
        return pair.getPrivate();
    }

    private static byte[] readPem(Path file) throws IOException {
        String body = Files.readString(file).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(body);
    }

    private static void writePem(Path file, String type, byte[] der, boolean secret) throws IOException {
        String pem = "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
        if (secret) {
            OwnerOnlyFiles.write(file, pem); // 0600 from the first byte: whoever reads it can mint any token
        } else {
            Files.writeString(file, pem);
        }
    }
}
