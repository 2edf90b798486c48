package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireWriter;
import io.ferry.resolver.authentication.SecretKeyChallenge;
import io.ferry.resolver.nativeprotocol.wire.KeyEncoding;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.interfaces.DHPublicKey;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Arrays;

/**
 * A session's key as CNRI's library derives and uses it: agreed by Diffie-Hellman on the client's group (the key
 * exchange its default {@code SessionSetupInfo} asks for), an AES key of up to 32 bytes (the secret's leading zero
 * bytes dropped) that keys the session's MACs and, its first 16 bytes, its AES-CBC encryption, the IV before the
 * ciphertext. (The DES sessions of clients older than protocol 2.4 are not set up.)
 */
final class SessionKeys {

    /** CNRI's code for AES, the cipher named in the setup answer. */
    static final int CIPHER_AES = 3;
    private static final String AES_CBC = "AES/CBC/PKCS5Padding";
    private static final int AES_BLOCK = 16;

    private static final int AES_KEY_BYTES = 32;

    private SessionKeys() {
    }

    /** The key both sides derive, and the setup answer's data that lets the client derive it: the cipher, then this server's DH public key. */
    record Agreement(byte[] sessionKey, byte[] answerData) {
    }

    /** Agrees an AES key with the client's DH public key (CNRI's {@code DH_PUB_KEY} encoding). */
    static Agreement diffieHellman(byte[] clientPublicKey) throws GeneralSecurityException {
        PublicKey client = KeyEncoding.publicKey(clientPublicKey);
        if (!(client instanceof DHPublicKey dh)) {
            throw new GeneralSecurityException("the session setup's key is no Diffie-Hellman key");
        }
        KeyPairGenerator generator = KeyPairGenerator.getInstance("DH");
        generator.initialize(dh.getParams());
        KeyPair ours = generator.generateKeyPair();
        KeyAgreement agreement = KeyAgreement.getInstance("DH");
        agreement.init(ours.getPrivate());
        agreement.doPhase(client, true);
        byte[] secret = agreement.generateSecret();
        int from = 0;
        while (from + AES_KEY_BYTES < secret.length && secret[from] == 0) {
            from++;
        }
        byte[] key = Arrays.copyOfRange(secret, from, Math.min(secret.length, from + AES_KEY_BYTES));
        byte[] data = new WireWriter(512).int4(CIPHER_AES).raw(KeyEncoding.encode(ours.getPublic())).toByteArray();
        return new Agreement(key, data);
    }

    static byte[] encrypt(NativeSession session, byte[] message) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(AES_CBC);
        cipher.init(Cipher.ENCRYPT_MODE, aesKey(session));
        return SecretKeyChallenge.concat(cipher.getIV(), cipher.doFinal(message));
    }

    static byte[] decrypt(NativeSession session, byte[] message) throws GeneralSecurityException {
        if (message.length < AES_BLOCK) {
            throw new GeneralSecurityException("encrypted message shorter than its IV");
        }
        Cipher cipher = Cipher.getInstance(AES_CBC);
        cipher.init(Cipher.DECRYPT_MODE, aesKey(session), new IvParameterSpec(message, 0, AES_BLOCK));
        return cipher.doFinal(message, AES_BLOCK, message.length - AES_BLOCK);
    }

    private static SecretKeySpec aesKey(NativeSession session) {
        byte[] k = session.key();
        return new SecretKeySpec(k, 0, Math.min(AES_BLOCK, k.length), "AES");
    }
}
