package io.ferry.movers.xrootd;

import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERSet;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;

import javax.security.auth.x500.X500Principal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * OpenSSL's {@code X509_NAME_hash} (what {@code openssl x509 -hash} prints and CA directories name files by): the
 * first four bytes, little-endian, of the SHA-1 of the name's canonical encoding, in which string values are
 * UTF8Strings, lower case, trimmed, inner white space collapsed, and the RDN sets follow each other without the
 * outer SEQUENCE. gsi names the CA of the client's certificate by it.
 */
final class OpensslNameHash {

    private OpensslNameHash() {
    }

    static String of(X500Principal name) throws IOException {
        X500Name x = X500Name.getInstance(name.getEncoded());
        ByteArrayOutputStream canon = new ByteArrayOutputStream();
        for (RDN rdn : x.getRDNs()) {
            ASN1EncodableVector set = new ASN1EncodableVector();
            for (AttributeTypeAndValue ava : rdn.getTypesAndValues()) {
                ASN1EncodableVector pair = new ASN1EncodableVector();
                pair.add(ava.getType());
                if (ava.getValue() instanceof ASN1String s) {
                    pair.add(new DERUTF8String(canonical(s.getString())));
                } else {
                    pair.add(ava.getValue());
                }
                set.add(new DERSequence(pair));
            }
            canon.writeBytes(new DERSet(set).getEncoded(ASN1Encoding.DER));
        }
        byte[] sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1").digest(canon.toByteArray());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-1", e);
        }
        long h = (sha1[0] & 0xffL) | (sha1[1] & 0xffL) << 8 | (sha1[2] & 0xffL) << 16 | (sha1[3] & 0xffL) << 24;
        return String.format("%08x", h);
    }

    /** OpenSSL's asn1_string_canon: trimmed, runs of white space as one space, ASCII lower case. */
    private static String canonical(String s) {
        String trimmed = s.strip();
        StringBuilder out = new StringBuilder();
        boolean space = false;
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b) {
                if (!space) {
                    out.append(' ');
                }
                space = true;
            } else {
                out.append(c < 0x80 ? Character.toLowerCase(c) : c);
                space = false;
            }
        }
        return out.toString();
    }
}
