package io.ferry.cli.transfer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The job parameters of a submission, as FTS3's {@code params} names them; null fields are left to the scheduler's
 * defaults. {@code sid} asks for FTS3's deterministic job id; a list split into several jobs gets {@code sid-1},
 * {@code sid-2}, … so that each part keeps its own stable id. {@code deadline}: RFC 3339 ({@link Deadlines}), every part's.
 * {@code maxRate}: Ferry's {@code max_rate}, the job's rate cap as given (bytes/s, or e.g. 50MB/s; the scheduler checks it).
 */
public record SubmitOptions(boolean overwrite, Integer retry, Integer retryDelay, Integer priority, String activity,
                            String verifyChecksum, String maxTimeInQueue, String jobMetadata, String sid, Integer scitag,
                            String deadline, String maxRate) {

    /** FTS3's range of SciTag flow labels (experiment id << 6 | activity id; below 65 is reserved). */
    public static final int SCITAG_MIN = 65;
    public static final int SCITAG_MAX = 65535;

    public SubmitOptions {
        if (scitag != null && (scitag < SCITAG_MIN || scitag > SCITAG_MAX)) {
            throw new IllegalArgumentException("--scitag " + scitag + " is no SciTag: expected " + SCITAG_MIN + " to " + SCITAG_MAX);
        }
    }

    /** Options without a rate cap. */
    public SubmitOptions(boolean overwrite, Integer retry, Integer retryDelay, Integer priority, String activity, String verifyChecksum,
                         String maxTimeInQueue, String jobMetadata, String sid, Integer scitag, String deadline) {
        this(overwrite, retry, retryDelay, priority, activity, verifyChecksum, maxTimeInQueue, jobMetadata, sid, scitag, deadline, null);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One body per part of {@code files}, at most {@code maxPerJob} files each. */
    public List<ObjectNode> bodies(List<ObjectNode> files, int maxPerJob) {
        List<List<ObjectNode>> parts = TransferList.split(files, maxPerJob);
        List<ObjectNode> bodies = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            bodies.add(body(parts.get(i), parts.size() == 1 || sid == null ? sid : sid + "-" + (i + 1)));
        }
        return bodies;
    }

    private ObjectNode body(List<ObjectNode> files, String partSid) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set("files", TransferList.array(files.stream().map(f -> {
            ObjectNode copy = f.deepCopy();
            if (activity != null && !copy.has("activity")) {
                copy.put("activity", activity);
            }
            // a file's own label wins, as FTS3's client copies the job's into files without one
            if (scitag != null && !copy.has("scitag")) {
                copy.put("scitag", scitag);
            }
            return copy;
        }).toList()));
        ObjectNode p = body.putObject("params");
        if (overwrite) {
            p.put("overwrite", true);
        }
        if (retry != null) {
            p.put("retry", retry);
        }
        if (retryDelay != null) {
            p.put("retry_delay", retryDelay);
        }
        if (priority != null) {
            p.put("priority", priority);
        }
        if (verifyChecksum != null) {
            p.put("verify_checksum", verifyChecksum);
        }
        if (maxTimeInQueue != null) {
            p.put("max_time_in_queue", Intervals.parse(maxTimeInQueue).toSeconds() + "s");
        }
        if (deadline != null) {
            p.put("deadline", deadline);
        }
        if (maxRate != null) {
            // every part gets the whole cap: split parts are separate jobs
            p.put("max_rate", maxRate);
        }
        if (jobMetadata != null) {
            p.set("job_metadata", metadata(jobMetadata));
        }
        if (partSid != null) {
            p.put("id_generator", "deterministic");
            p.put("sid", partSid);
        }
        return body;
    }

    /** {@code --job-metadata}: JSON when it parses as JSON, else the text as a string (as FTS3's client does). */
    private static JsonNode metadata(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return JsonNodeFactory.instance.textNode(text);
        }
    }
}
