package io.ferry.cli.auth;

import java.io.ByteArrayOutputStream;

/**
 * Wraps a PKCS#1 RSA private key ({@code BEGIN RSA PRIVATE KEY}, as proxy tools write it) into the PKCS#8 structure
 * the JDK's {@code KeyFactory} reads: {@code SEQUENCE { INTEGER 0, SEQUENCE { rsaEncryption, NULL }, OCTET STRING key }}.
 */
final class Pkcs1 {

    private static final byte[] VERSION_AND_ALGORITHM = {
            0x02, 0x01, 0x00,
            0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    private Pkcs1() {
    }

    static byte[] toPkcs8(byte[] pkcs1) {
        ByteArrayOutputStream octets = new ByteArrayOutputStream();
        octets.write(0x04);
        length(octets, pkcs1.length);
        octets.writeBytes(pkcs1);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(VERSION_AND_ALGORITHM);
        body.writeBytes(octets.toByteArray());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x30);
        length(out, body.size());
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static void length(ByteArrayOutputStream out, int n) {
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else if (n < 0x10000) {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n & 0xff);
        } else {
            out.write(0x83);
            out.write(n >> 16);
            out.write(n >> 8 & 0xff);
            out.write(n & 0xff);
        }
    }
}
