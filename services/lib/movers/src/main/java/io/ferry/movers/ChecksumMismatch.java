package io.ferry.movers;

/**
 * A checksum that differs, said in FTS3's words ("Source and user-defined ADLER32 checksum do not match (a != b)"):
 * Rucio sites match these texts in their {@code suspicious_pattern} to declare a source replica suspicious, and FTS3's
 * own retry heuristics know them as final.
 */
public final class ChecksumMismatch {

    private ChecksumMismatch() {
    }

    /** The source's checksum (streamed, or what its SE reports) against the job's. */
    static MoverException sourceAndJob(String phase, ChecksumAlgorithm algorithm, String source, String job) {
        return of(phase, "Source and user-defined " + algorithm.name() + " checksum do not match (" + source + " != " + job + ")");
    }

    /** The job's checksum against the destination's. */
    public static MoverException jobAndDestination(ChecksumAlgorithm algorithm, String job, String destination) {
        return of("checksum", "User-defined and destination " + algorithm.name() + " checksum do not match (" + job + " != " + destination + ")");
    }

    /** The source's checksum against the destination's. */
    static MoverException sourceAndDestination(ChecksumAlgorithm algorithm, String source, String destination) {
        return of("checksum", "Source and destination " + algorithm.name() + " checksum do not match (" + source + " != " + destination + ")");
    }

    private static MoverException of(String phase, String message) {
        return new MoverException(MoverException.Code.CHECKSUM_MISMATCH, phase, message);
    }
}
