package io.ferry.scheduler.submission;

import io.ferry.movers.ChecksumAlgorithm;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What a stored checksum asks of the copy: the algorithm it computes and the value it compares with. */
class FileChecksumTest {

    @Test
    void aStoredChecksumGivesTheCopyItsAlgorithmAndExpectedValue() {
        assertEquals(ChecksumAlgorithm.MD5, FileChecksum.algorithm("MD5:d41d8cd98f00b204e9800998ecf8427e"));
        assertEquals("d41d8cd98f00b204e9800998ecf8427e", FileChecksum.value("MD5:d41d8cd98f00b204e9800998ecf8427e"));
        assertEquals(ChecksumAlgorithm.MD5, FileChecksum.algorithm("MD5"), "the algorithm alone");
        assertNull(FileChecksum.value("MD5"));
        assertEquals(ChecksumAlgorithm.ADLER32, FileChecksum.algorithm("ADLER32:0000abcd"));
        assertEquals("0000abcd", FileChecksum.value("ADLER32:0000abcd"));
        assertEquals("0000abcd", FileChecksum.value("adler32:ABCD"), "rows stored before values were padded");
        assertEquals(ChecksumAlgorithm.ADLER32, FileChecksum.algorithm(null), "none given: FTS3's default");
        assertNull(FileChecksum.value(null));
    }
}
