package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * An FTS3 job submission, read leniently as FTS3 clients send it: unknown or null params are ignored, values that
 * are present must be right. Every offending field is reported at once.
 */
public record Submission(List<FileRequest> files, String verifyChecksum, boolean overwrite, int retry, int retryDelay,
                         int priority, Integer maxTimeInQueue, Integer timeout, Integer nostreams, String jobMetadata,
                         boolean deterministic, String sid, String params, boolean multihop, boolean overwriteHop,
                         OffsetDateTime deadline) {

    public static final int MAX_FILES = 10_000;

    /** The same submission with other files (logical sources resolved). */
    public Submission withFiles(List<FileRequest> resolved) {
        return new Submission(resolved, verifyChecksum, overwrite, retry, retryDelay, priority, maxTimeInQueue, timeout, nostreams, jobMetadata,
                deterministic, sid, params, multihop, overwriteHop, deadline);
    }

    /**
     * {@code tokens}: the file's bearer tokens toward storage, null when it brings none (Ferry's own identity is used).
     * {@code scitag}: its SciTag flow label ({@link SciTag}), null without one. {@code tape}: its staging and
     * archive metadata ({@link FileTapeMetadata}). {@code directory}: the directory tree it stands for, null for a file.
     */
    public record FileRequest(List<String> sources, List<String> destinations, Long filesize, String checksum,
                              String metadata, String activity, FileTokens tokens, Integer scitag, FileTapeMetadata tape,
                              DirectoryRequest directory) {

        public FileRequest {
            tape = tape == null ? FileTapeMetadata.NONE : tape;
        }

        public FileRequest(List<String> sources, List<String> destinations, Long filesize, String checksum, String metadata, String activity,
                           FileTokens tokens, Integer scitag, FileTapeMetadata tape) {
            this(sources, destinations, filesize, checksum, metadata, activity, tokens, scitag, tape, null);
        }

        public FileRequest(List<String> sources, List<String> destinations, Long filesize, String checksum, String metadata, String activity) {
            this(sources, destinations, filesize, checksum, metadata, activity, null, null, null);
        }

        public FileRequest(List<String> sources, List<String> destinations, Long filesize, String checksum, String metadata, String activity,
                           FileTokens tokens, Integer scitag) {
            this(sources, destinations, filesize, checksum, metadata, activity, tokens, scitag, null);
        }
    }

    public static Submission parse(JsonNode body) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (body == null || !body.isObject()) {
            throw ProblemException.badRequest("body", "expected {\"files\": [...], \"params\": {...}}");
        }
        JsonNode files = body.get("files");
        List<FileRequest> requests = new ArrayList<>();
        if (files == null || !files.isArray() || files.isEmpty()) {
            errors.add(new Problem.FieldError("files", "at least one file is required"));
        } else if (files.size() > MAX_FILES) {
            errors.add(new Problem.FieldError("files", "at most " + MAX_FILES + " files per job"));
        } else {
            for (int i = 0; i < files.size(); i++) {
                requests.add(file(files.get(i), "files[" + i + "]", errors));
            }
        }
        JsonNode p = body.path("params");
        if (!p.isMissingNode() && !p.isNull() && !p.isObject()) {
            // stored as given and read as an object by the engine: a number or a list is no job's parameters
            errors.add(new Problem.FieldError("params", "an object of job parameters"));
            p = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        String verify = verifyChecksum(p.get("verify_checksum"), errors);
        boolean overwrite = bool(p.get("overwrite"), "params.overwrite", false, errors);
        // FTS3: -1 is no retries (its Python bindings send it unless told otherwise)
        int retry = Math.max(0, integer(p.get("retry"), "params.retry", 0, -1, 100, errors));
        int retryDelay = integer(p.get("retry_delay"), "params.retry_delay", 0, 0, 86_400, errors);
        int priority = integer(p.get("priority"), "params.priority", 3, 1, 5, errors);
        Integer maxInQueue = present(p.get("max_time_in_queue")) ? interval(p.get("max_time_in_queue"), "params.max_time_in_queue", errors) : null;
        OffsetDateTime deadline = JobDeadline.read(p.get("deadline"), Instant.now(), errors);
        Integer timeout = present(p.get("timeout")) ? integer(p.get("timeout"), "params.timeout", 0, 1, 86_400 * 7, errors) : null;
        Integer nostreams = present(p.get("nostreams")) ? integer(p.get("nostreams"), "params.nostreams", 1, 1, 16, errors) : null;
        String generator = present(p.get("id_generator")) ? p.get("id_generator").asText() : "standard";
        if (!generator.equals("standard") && !generator.equals("deterministic")) {
            errors.add(new Problem.FieldError("params.id_generator", "standard or deterministic"));
        }
        String sid = present(p.get("sid")) ? p.get("sid").asText() : null;
        if (generator.equals("deterministic") && (sid == null || sid.isBlank() || sid.length() > 200)) {
            errors.add(new Problem.FieldError("params.sid", "a deterministic id needs a sid"));
        }
        String metadata = present(p.get("job_metadata")) ? p.get("job_metadata").toString() : null;
        if (metadata != null && metadata.length() > 16_384) {
            errors.add(new Problem.FieldError("params.job_metadata", "at most 16 KiB"));
        }
        // validated here, read by the engine from the stored params when it stages, archives or finds a destination
        TapeParams tape = TapeParams.read(p, errors);
        SyncLevel sync = SyncLevel.read(p, errors);
        // read by the engine from the stored params when a file of the job starts (see engine/RateCaps)
        MaxRate.read(p.get("max_rate"), "params.max_rate", errors);
        // read by the token refresher from the stored params: the job's tokens are used as given, never exchanged
        bool(p.get("unmanaged_tokens"), "params.unmanaged_tokens", false, errors);
        // the host's allow-list is the job service's check; the triggers read the webhook from the stored params
        JobWebhook.read(p.get("webhook"), errors);
        boolean multihop = bool(p.get("multihop"), "params.multihop", false, errors);
        boolean overwriteHop = bool(p.get("overwrite_hop"), "params.overwrite_hop", false, errors);
        if (overwriteHop && overwrite) {
            errors.add(new Problem.FieldError("params.overwrite_hop", "Incompatible overwrite flags used at the same time"));
        }
        if (overwriteHop && !multihop) {
            errors.add(new Problem.FieldError("params.overwrite_hop", "'overwrite-hop' requires multihop job submission"));
        }
        if (tape.overwriteWhenOnlyOnDisk()) {
            OverwriteOnDiskRules.check(tape, overwrite, p.get("overwrite_on_retry"), multihop, requests, errors);
        }
        if (sync != null && multihop) {
            errors.add(new Problem.FieldError("params.sync_level", "not with multihop: a hop found in place would not start the next"));
        }
        requests = DirectoryRequest.checkJob(requests, p, multihop, errors);
        if (multihop && errors.isEmpty()) {
            Hops.check(requests, errors);
        }
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_JOB", errors.size() + " problem(s) with the submission; nothing was stored", errors);
        }
        // a sync job replaces what does not match (Globus's meaning): it overwrites, the engine first checking for a match
        return new Submission(requests, verify, overwrite || sync != null, retry, retryDelay, priority, maxInQueue, timeout, nostreams, metadata,
                generator.equals("deterministic"), sid, p.isObject() ? p.toString() : "{}", multihop, overwriteHop, deadline);
    }

    /** FTS3's deterministic ids: the same sid and VO always name the same job. */
    public UUID jobId(String vo) {
        return deterministic ? UUID.nameUUIDFromBytes(("ferry-job:" + vo + ":" + sid).getBytes(StandardCharsets.UTF_8)) : UUID.randomUUID();
    }

    private static FileRequest file(JsonNode f, String at, List<Problem.FieldError> errors) {
        if (f == null || !f.isObject()) {
            errors.add(new Problem.FieldError(at, "a file is an object with sources and destinations"));
            return null;
        }
        List<String> sources = urls(f.get("sources"), at + ".sources", errors);
        List<String> destinations = urls(f.get("destinations"), at + ".destinations", errors);
        Long size = null;
        if (present(f.get("filesize"))) {
            JsonNode given = f.get("filesize");
            // canConvertToLong alone lets 1.5 through as 1: a fraction is no size in bytes
            if (!given.canConvertToLong() || given.asLong() < 0 || given.isFloatingPointNumber() && given.asDouble() != given.asLong()) {
                errors.add(new Problem.FieldError(at + ".filesize", "bytes, a whole number >= 0"));
            } else {
                size = given.asLong();
            }
        }
        String checksum = present(f.get("checksum")) ? FileChecksum.parse(f.get("checksum"), at + ".checksum", errors) : null;
        String activity = present(f.get("activity")) ? f.get("activity").asText() : "default";
        if (characters(activity) > 100) {
            errors.add(new Problem.FieldError(at + ".activity", "at most 100 characters"));
        }
        String metadata = present(f.get("metadata")) ? f.get("metadata").toString() : null;
        FileTokens tokens = FileTokens.parse(f, sources.size(), destinations.size(), at, Instant.now(), errors);
        Integer scitag = SciTag.parse(f.get("scitag"), at + ".scitag", errors);
        FileTapeMetadata tape = FileTapeMetadata.parse(f, at, errors);
        DirectoryRequest directory = DirectoryRequest.parse(f, sources, destinations, at, errors);
        return new FileRequest(sources, destinations, size, checksum, metadata, activity, tokens, scitag, tape, directory);
    }

    /** JSON Schema's maxLength counts characters (code points), String.length() UTF-16 units: two per astral character. */
    private static int characters(String s) {
        return s.codePointCount(0, s.length());
    }

    private static List<String> urls(JsonNode node, String at, List<Problem.FieldError> errors) {
        List<String> out = new ArrayList<>();
        if (node == null || !node.isArray() || node.isEmpty()) {
            errors.add(new Problem.FieldError(at, "at least one URL is required"));
            return out;
        }
        for (JsonNode u : node) {
            if (!u.isTextual() || u.asText().isBlank() || characters(u.asText()) > 4096) {
                errors.add(new Problem.FieldError(at, "URLs are non-empty strings of at most 4096 characters"));
            } else {
                out.add(u.asText());
            }
        }
        return out;
    }

    private static String verifyChecksum(JsonNode v, List<Problem.FieldError> errors) {
        if (!present(v)) {
            return ChecksumMode.NONE.stored();
        }
        if (v.isBoolean()) {
            return (v.asBoolean() ? ChecksumMode.BOTH : ChecksumMode.NONE).stored();
        }
        return ChecksumMode.parse(v.asText()).orElseGet(() -> {
            errors.add(new Problem.FieldError("params.verify_checksum", "true, false, source, target, both or none"));
            return ChecksumMode.NONE;
        }).stored();
    }

    /** A flag as FTS3 takes it: a boolean or its text; anything else is a field error. */
    static boolean bool(JsonNode v, String field, boolean fallback, List<Problem.FieldError> errors) {
        if (!present(v)) {
            return fallback;
        }
        if (v.isBoolean()) {
            return v.asBoolean();
        }
        String s = v.asText().toLowerCase(Locale.ROOT);
        if (s.equals("true") || s.equals("false")) {
            return Boolean.parseBoolean(s);
        }
        errors.add(new Problem.FieldError(field, "true or false"));
        return fallback;
    }

    private static int integer(JsonNode v, String field, int fallback, int min, int max, List<Problem.FieldError> errors) {
        if (!present(v)) {
            return fallback;
        }
        long n;
        if (v.canConvertToLong() && v.isIntegralNumber()) {
            n = v.asLong();
        } else if (v.isTextual() && v.asText().matches("-?\\d{1,10}")) {
            n = Long.parseLong(v.asText());
        } else {
            errors.add(new Problem.FieldError(field, "a whole number from " + min + " to " + max));
            return fallback;
        }
        if (n < min || n > max) {
            errors.add(new Problem.FieldError(field, "a whole number from " + min + " to " + max));
            return fallback;
        }
        return (int) n;
    }

    /** The longest {@code max_time_in_queue} taken: a year (FTS3 sets none; a longer wait is a mistake). */
    static final long MAX_INTERVAL_SECONDS = 366L * 86_400;

    private static final Pattern INTERVAL = Pattern.compile("(\\d{1,9})([smhd]?)");

    /**
     * An interval as FTS3's {@code seconds_from_value} reads it: a bare whole number is hours (Rucio's
     * {@code max_time_in_queue} of 168 is a week), a string has a unit, {@code s}, {@code m}, {@code h} or {@code d};
     * 0 is no limit (null). A string of digits alone, which FTS3 silently drops, is hours here too.
     */
    static Integer interval(JsonNode v, String field, List<Problem.FieldError> errors) {
        long seconds;
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            seconds = v.asLong() * 3600;
        } else if (v.isTextual()) {
            var m = INTERVAL.matcher(v.asText().trim().toLowerCase(Locale.ROOT));
            if (!m.matches()) {
                errors.add(new Problem.FieldError(field, "hours as a whole number, or a number with s, m, h or d"));
                return null;
            }
            long n = Long.parseLong(m.group(1));
            seconds = switch (m.group(2)) {
                case "s" -> n;
                case "m" -> n * 60;
                case "d" -> n * 86_400;
                default -> n * 3600;
            };
        } else {
            errors.add(new Problem.FieldError(field, "hours as a whole number, or a number with s, m, h or d"));
            return null;
        }
        if (seconds == 0) {
            return null;
        }
        if (seconds < 0 || seconds > MAX_INTERVAL_SECONDS) {
            errors.add(new Problem.FieldError(field, "between 1 second and 366 days"));
            return null;
        }
        return (int) seconds;
    }

    private static boolean present(JsonNode v) {
        return v != null && !v.isNull() && !v.isMissingNode();
    }
}
