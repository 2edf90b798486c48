package io.ferry.movers;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.zip.Adler32;

/**
 * The checksum algorithms a copy can verify, as FTS3 names them in a file's {@code checksum} ("ADLER32:…", "MD5:…"):
 * each computes its sum over streamed bytes and reads the SE's value from an RFC 3230 {@code Digest} header.
 */
public enum ChecksumAlgorithm {
    ADLER32(8) {
        @Override
        public Sum start() {
            Adler32 adler = new Adler32();
            return new Sum() {
                @Override
                public void update(byte[] b, int off, int len) {
                    adler.update(b, off, len);
                }

                @Override
                public void update(ByteBuffer data) {
                    adler.update(data);
                }

                @Override
                public String hex() {
                    return String.format("%08x", adler.getValue());
                }
            };
        }

        @Override
        String fromDigest(String value) {
            // RFC 3230's adler32 is hex; servers drop leading zeros
            return isHex(value, 1, 8) ? String.format("%08x", Long.parseLong(value, 16)) : null;
        }
    },
    MD5(32) {
        @Override
        public Sum start() {
            MessageDigest md5;
            try {
                md5 = MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has MD5", e);
            }
            return new Sum() {
                @Override
                public void update(byte[] b, int off, int len) {
                    md5.update(b, off, len);
                }

                @Override
                public void update(ByteBuffer data) {
                    md5.update(data);
                }

                @Override
                public String hex() {
                    return HexFormat.of().formatHex(md5.digest());
                }
            };
        }

        @Override
        String fromDigest(String value) {
            // RFC 3230 gives md5 as the base64 of the 16 bytes; some SEs send the hex digits instead
            if (isHex(value, 32, 32)) {
                return value.toLowerCase(Locale.ROOT);
            }
            try {
                byte[] raw = Base64.getDecoder().decode(value);
                return raw.length == 16 ? HexFormat.of().formatHex(raw) : null;
            } catch (IllegalArgumentException notBase64) {
                return null;
            }
        }
    };

    /** A running checksum; {@link #hex()} is called once, after the last update. */
    public interface Sum {
        void update(byte[] b, int off, int len);

        /** Consumes the buffer's remaining bytes. */
        void update(ByteBuffer data);

        /** The sum as lower-case hex digits, {@link #hexDigits()} of them. */
        String hex();
    }

    private final int hexDigits;

    ChecksumAlgorithm(int hexDigits) {
        this.hexDigits = hexDigits;
    }

    /** A new running sum of this algorithm. */
    public abstract Sum start();

    /** The value of this algorithm's {@code Digest} entry as lower-case hex digits, or null when it is malformed. */
    abstract String fromDigest(String value);

    /** How many hex digits a value has. */
    public int hexDigits() {
        return hexDigits;
    }

    /** The algorithm's name in RFC 3230's {@code Want-Digest} and {@code Digest} headers. */
    public String digestName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The algorithm named {@code name} (any case), or null when it is none of them. */
    public static ChecksumAlgorithm named(String name) {
        for (ChecksumAlgorithm a : values()) {
            if (a.name().equalsIgnoreCase(name)) {
                return a;
            }
        }
        return null;
    }

    /** This algorithm's value in RFC 3230 {@code Digest} headers ({@code adler32=1a2b3c4d, md5=…}), or null when none has it. */
    public String fromDigestHeaders(List<String> headers) {
        for (String header : headers) {
            for (String part : header.split(",")) {
                String[] kv = part.trim().split("=", 2);
                if (kv.length == 2 && kv[0].trim().equalsIgnoreCase(digestName())) {
                    String value = fromDigest(kv[1].trim());
                    if (value != null) {
                        return value;
                    }
                }
            }
        }
        return null;
    }

    /** Whether {@code s} is {@code min} to {@code max} hex digits (no regular expression: it would be compiled again for each of a job's files). */
    public static boolean isHex(String s, int min, int max) {
        if (s.length() < min || s.length() > max) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return true;
    }
}
