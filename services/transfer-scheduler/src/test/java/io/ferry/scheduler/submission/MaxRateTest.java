package io.ferry.scheduler.submission;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The forms a max_rate takes, its bounds, and a submission that gives a wrong one. */
class MaxRateTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "4000000|4000000", "100000|100000", "100000000000|100000000000", "50MB/s|50000000", "50 MB/s|50000000", "50mb|50000000",
            "1Gbit/s|125000000", "1gbit|125000000", "512KiB/s|524288", "2.5GB/s|2500000000", "1MiB|1048576", "100KB/s|100000",
            "100GB/s|100000000000", "800Mbit / s|100000000", "3000000B/s|3000000"})
    void aRateIsBytesPerSecondOrANumberWithAUnit(String given, long bytes) {
        assertEquals(OptionalLong.of(bytes), MaxRate.parse(given));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "0", "99999", "99KB/s", "100.1GB/s", "1Tbit/s", "-5MB/s", "5 parsecs", "MB/s", "5MB/h", "1e9"})
    void aValueThatIsNoRateOrOutOfBoundsIsNone(String given) {
        assertTrue(MaxRate.parse(given).isEmpty(), given);
    }

    @Test
    void spacesAreJavasWhitespaceOnlyAsTheDocumentedPatternSays() {
        assertEquals(OptionalLong.of(50_000_000), MaxRate.parse("\t50 MB\n/ s\r\n"));
        assertEquals(OptionalLong.of(50_000_000), MaxRate.parse("\u000B50MB\f"));
        for (String unicodeSpace : List.of("\u00a0", "\u2028", "\u3000", "\ufeff")) {
            assertTrue(MaxRate.parse(unicodeSpace + "50MB/s").isEmpty(), unicodeSpace);
            assertTrue(MaxRate.parse("50MB/s" + unicodeSpace).isEmpty(), unicodeSpace);
        }
        assertTrue(MaxRate.parse("50MB/S").isEmpty());
        assertTrue(MaxRate.parse("50KiBit").isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"fast\"", "0", "50", "4000000.5", "1.5e3", "1e12", "1e400", "{}", "[4000000]", "true", "\"200GB/s\""})
    void aJobWithAWrongMaxRateIsRefusedNamingIt(String value) {
        SubmissionTest.refused(SubmissionTest.withParams("{\"max_rate\":" + value + "}"), "params.max_rate");
    }

    @ParameterizedTest
    @ValueSource(strings = {"4000000", "4000000.0", "1.5e7", "\"4MB/s\"", "null"})
    void aJobWithARateOrNoneIsAccepted(String value) {
        assertTrue(SubmissionTest.parse(SubmissionTest.withParams("{\"max_rate\":" + value + "}")).params().contains("max_rate"));
    }
}
