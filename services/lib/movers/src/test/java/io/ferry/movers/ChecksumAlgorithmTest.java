package io.ferry.movers;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The two algorithms' sums and how each reads an SE's RFC 3230 {@code Digest} header. */
class ChecksumAlgorithmTest {

    private static final byte[] FOX = "The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.US_ASCII);

    @Test
    void sumsAreTheKnownValuesWhetherFedFromArraysOrBuffers() {
        ChecksumAlgorithm.Sum md5 = ChecksumAlgorithm.MD5.start();
        md5.update(FOX, 0, 10);
        md5.update(ByteBuffer.wrap(FOX, 10, FOX.length - 10));
        assertEquals("9e107d9d372bb6826bd81d3542a419d6", md5.hex());
        ChecksumAlgorithm.Sum adler = ChecksumAlgorithm.ADLER32.start();
        adler.update(FOX, 0, FOX.length);
        assertEquals("5bdc0fda", adler.hex());
    }

    @Test
    void digestHeadersGiveEachAlgorithmItsOwnValue() {
        List<String> both = List.of("adler32=5bdc0fda, md5=nhB9nTcrtoJr2B01QqQZ1g==");
        assertEquals("9e107d9d372bb6826bd81d3542a419d6", ChecksumAlgorithm.MD5.fromDigestHeaders(both), "RFC 3230: md5 is base64");
        assertEquals("5bdc0fda", ChecksumAlgorithm.ADLER32.fromDigestHeaders(both));
        assertEquals("9e107d9d372bb6826bd81d3542a419d6", ChecksumAlgorithm.MD5.fromDigestHeaders(List.of("MD5=9E107D9D372BB6826BD81D3542A419D6")),
                "hex digits, as some SEs send them");
        assertEquals("00dc0fda", ChecksumAlgorithm.ADLER32.fromDigestHeaders(List.of("ADLER32=dc0fda")), "leading zeros dropped by the SE");
        assertNull(ChecksumAlgorithm.MD5.fromDigestHeaders(List.of("adler32=5bdc0fda")), "no md5 offered");
        assertNull(ChecksumAlgorithm.MD5.fromDigestHeaders(List.of("md5=bm90IGEgZGlnZXN0")), "base64 of other than 16 bytes");
        assertNull(ChecksumAlgorithm.ADLER32.fromDigestHeaders(List.of("adler32=xyz")));
    }

    @Test
    void namesAreReadInAnyCase() {
        assertEquals(ChecksumAlgorithm.MD5, ChecksumAlgorithm.named("md5"));
        assertEquals(ChecksumAlgorithm.ADLER32, ChecksumAlgorithm.named("Adler32"));
        assertNull(ChecksumAlgorithm.named("SHA1"));
    }
}
