package io.ferry.scheduler.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * FTS3's completion message ({@code transfer.fts_monitoring_complete}, FTS3's MsgIfce::SendTransferFinishMessage)
 * built from one transfer record and its job: every field FTS3 sends, with FTS3's JSON types (times in milliseconds
 * since the epoch as numbers, flags as booleans, {@code file_metadata}/{@code job_metadata} as the JSON submitted
 * when it parses, else the text). Fields of what Ferry does not do (SRM, space tokens) carry FTS3's empty values.
 */
public final class Fts3CompletionMessage {

    private static final DateTimeFormatter TR_ID_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm").withZone(ZoneOffset.UTC);

    /**
     * What the record does not carry, read from the job and the file when the message is published; null when the
     * job is gone (archived): the message then carries the record's own fields only. {@code overwriteOnDisk}: the
     * file's copy ran with FTS3's overwrite_when_only_on_disk (an archiving job that asked for it). {@code archiving}: the
     * copy went to a tape SE for a job with archive_timeout, so the file is ARCHIVING after it (FTS3's is_archiving).
     */
    public record Job(String userDn, int retryMax, Integer timeout, String jobMetadata, String fileMetadata,
                      boolean multipleReplicas, boolean lastReplica, boolean multihop, boolean lastHop, String finalDestination,
                      Integer scitag, boolean overwriteOnDisk, boolean archiving) {
    }

    private Fts3CompletionMessage() {
    }

    /** The message's JSON (without FTS3's EOT). {@code endpoint}: this service as FTS3 names itself ({@code endpnt}). */
    public static ObjectNode build(ObjectMapper json, JsonNode record, Job job, String endpoint, Instant now) {
        ObjectNode m = json.createObjectNode();
        String outcome = record.path("outcome").asText();
        String jobId = record.path("job_id").asText();
        long fileId = record.path("file_id").asLong();
        String srcUrl = record.path("source_url").asText("");
        String dstUrl = record.path("dest_url").asText("");
        String srcHost = host(srcUrl);
        String dstHost = host(dstUrl);
        long transferStart = millis(record, "transfer_started_at");
        long transferEnd = millis(record, "transfer_ended_at");
        long prepareStart = millis(record, "prepare_started_at");
        long prepareEnd = millis(record, "prepare_ended_at");
        long checksumStart = millis(record, "checksum_started_at");
        long checksumEnd = millis(record, "checksum_ended_at");
        long start = first(prepareStart, transferStart, now.toEpochMilli());
        long complete = first(Math.max(checksumEnd, transferEnd), now.toEpochMilli());
        complete = Math.max(complete, start);
        boolean ok = "FINISHED".equals(outcome);
        boolean aborted = "CANCELED".equals(outcome);
        String errorCode = record.path("error_code").asText("");

        m.put("tr_id", trId(start, srcUrl, dstUrl, fileId, jobId));
        m.put("job_id", jobId);
        m.put("file_id", fileId);
        m.put("endpnt", endpoint);
        m.put("src_srm_v", "");
        m.put("dest_srm_v", "");
        m.put("vo", record.path("vo").asText(""));
        m.put("src_url", srcUrl);
        m.put("dst_url", dstUrl);
        m.put("src_hostname", srcHost);
        m.put("dst_hostname", dstHost);
        m.put("src_se", se(srcUrl));
        m.put("dst_se", se(dstUrl));
        m.put("protocol", scheme(dstUrl));
        m.put("src_site_name", record.path("source_site").asText(""));
        m.put("dst_site_name", record.path("dest_site").asText(""));
        m.put("t_channel", se(srcUrl) + "__" + se(dstUrl));
        m.put("timestamp_tr_st", transferStart);
        m.put("timestamp_tr_comp", transferEnd);
        m.put("timestamp_chk_src_st", 0L);
        m.put("timestamp_chk_src_ended", 0L);
        m.put("timestamp_checksum_dest_st", checksumStart);
        m.put("timestamp_checksum_dest_ended", checksumEnd);
        m.put("t_timeout", job != null && job.timeout() != null ? job.timeout() : 0L);
        m.put("chk_timeout", 0);
        m.put("t_error_code", ok ? 0 : errno(errorCode));
        m.put("tr_error_scope", ok ? "" : errorScope(errorCode));
        m.put("t_failure_phase", ok ? "" : failurePhase(record.path("error_phase").asText("")));
        m.put("tr_error_category", ok ? "" : errorCode);
        m.put("t_final_transfer_state", ok ? "Ok" : aborted ? "Abort" : "Error");
        m.put("t_final_transfer_state_flag", ok ? 1 : 0);
        m.put("tr_bt_transfered", record.path("bytes_transferred").asLong());
        m.put("nstreams", record.path("streams").asInt(1));
        m.put("buf_size", 0L);
        m.put("tcp_buf_size", 0L);
        m.put("block_size", 0);
        // FTS3 sends an unsigned number, 0 for a file without a label
        m.put("scitag", job != null && job.scitag() != null ? job.scitag() : 0);
        long size = record.path("filesize").asLong(0);
        m.put("f_size", size);
        m.put("file_size", size);
        m.put("time_srm_prep_st", prepareStart);
        m.put("time_srm_prep_end", prepareEnd);
        m.put("time_srm_fin_st", 0L);
        m.put("time_srm_fin_end", 0L);
        m.put("srm_space_token_src", "");
        m.put("srm_space_token_dst", "");
        m.put("t__error_message", errorMessage(record.path("error_message").asText("")));
        m.put("tr_timestamp_start", start);
        m.put("tr_timestamp_complete", complete);
        m.put("transfer_time", transferStart > 0 && transferEnd >= transferStart ? transferEnd - transferStart : 0L);
        m.put("operation_time", complete - start);
        m.put("throughput", record.path("throughput_bytes_per_s").asDouble(0));
        m.put("srm_preparation_time", 0L);
        m.put("srm_finalization_time", 0L);
        m.put("srm_overhead_time", 0L);
        m.put("srm_overhead_percentage", 0.0);
        m.put("timestamp_checksum_src_diff", 0L);
        m.put("timestamp_checksum_dst_diff", checksumStart > 0 && checksumEnd >= checksumStart ? checksumEnd - checksumStart : 0L);
        m.put("channel_type", "urlcopy");
        m.put("user_dn", job != null ? job.userDn() : "");
        m.set("file_metadata", metadata(json, job != null ? job.fileMetadata() : null));
        m.set("job_metadata", metadata(json, job != null ? job.jobMetadata() : null));
        m.put("activity", record.path("activity").asText("default"));
        m.put("retry", Math.max(0, record.path("attempt").asInt(1) - 1));
        m.put("retry_max", job != null ? job.retryMax() : 0);
        m.put("job_m_replica", job != null && job.multipleReplicas());
        m.put("job_multihop", job != null && job.multihop());
        m.put("transfer_lasthop", job == null || job.lastHop());
        // a copy to tape the job archive-monitors: Rucio's receiver leaves it, and learns the end from its poller
        m.put("is_archiving", job != null && job.archiving());
        m.put("job_state", jobState(ok, job));
        m.put("is_recoverable", record.path("retryable").asBoolean(false));
        m.put("ipv6", false);
        m.put("ipver", "unknown");
        m.put("eviction_code", -1);
        m.put("cleanup_code", -1);
        m.put("final_destination", job != null && job.finalDestination() != null ? job.finalDestination() : dstUrl);
        m.put("transfer_type", "streamed");
        m.put("auth_method", "");
        m.put("overwrite_on_disk_flag", job != null && job.overwriteOnDisk());
        m.put("overwrite_on_disk_deletion_code", -1);
        return m;
    }

    /** FTS3's transfer id: the attempt's start minute, the hosts, the file and the job (Rucio reads the job from its end). */
    static String trId(long startMillis, String srcUrl, String dstUrl, long fileId, String jobId) {
        return TR_ID_TIME.format(Instant.ofEpochMilli(startMillis)) + "__" + host(srcUrl) + "__" + host(dstUrl) + "__" + fileId + "__" + jobId;
    }

    /**
     * What FTS3's url-copy reports as the job's state with each file (not the job's row): ACTIVE while a multi-replica
     * file has another source to try or a multihop chain has hops left, FAILED or FINISHED when this transfer ends
     * such a job, UNKNOWN otherwise. Rucio's receiver skips ACTIVE messages of jobs that are not multihop, so a failed
     * source that another replaces is not reported to it as the transfer's failure.
     */
    static String jobState(boolean ok, Job job) {
        if (job == null) {
            return "UNKNOWN";
        }
        if (job.multipleReplicas()) {
            return ok ? "FINISHED" : job.lastReplica() ? "FAILED" : "ACTIVE";
        }
        if (job.multihop()) {
            return !ok ? "FAILED" : job.lastHop() ? "FINISHED" : "ACTIVE";
        }
        return "UNKNOWN";
    }

    /** As FTS3: non-printable characters become spaces, newlines and quotes go, at most 1024 characters. */
    static String errorMessage(String message) {
        StringBuilder s = new StringBuilder(Math.min(message.length(), 1024));
        for (int i = 0; i < message.length() && s.length() < 1024; i++) {
            char c = message.charAt(i);
            if (c == '\'' || c == '"') {
                continue;
            }
            s.append(c < 32 || c > 127 ? ' ' : c);
        }
        return s.toString();
    }

    /** As FTS3's set_metadata: the text's JSON when it parses, else the text ("" when none). */
    static JsonNode metadata(ObjectMapper json, String text) {
        if (text == null || text.isEmpty()) {
            return json.getNodeFactory().textNode("");
        }
        try {
            return json.readTree(text);
        } catch (Exception notJson) {
            return json.getNodeFactory().textNode(text);
        }
    }

    /** FTS3 reports an errno; Ferry's error codes map onto the ones FTS3 uses for the same failures. */
    static int errno(String code) {
        if (code.contains("NOT_FOUND")) {
            return 2; // ENOENT
        }
        if (code.contains("EXISTS")) {
            return 17; // EEXIST
        }
        if (code.contains("PERMISSION") || code.contains("DENIED") || code.contains("AUTH") || code.contains("TOKEN")) {
            return 13; // EACCES
        }
        if (code.contains("TIMEOUT") || code.contains("EXPIRED")) {
            return 110; // ETIMEDOUT
        }
        if (code.contains("CANCEL")) {
            return 125; // ECANCELED
        }
        return 5; // EIO
    }

    private static String errorScope(String code) {
        if (code.startsWith("SOURCE")) {
            return "SOURCE";
        }
        if (code.startsWith("DEST")) {
            return "DESTINATION";
        }
        return "TRANSFER";
    }

    private static String failurePhase(String phase) {
        return switch (phase.toLowerCase(Locale.ROOT)) {
            case "prepare", "preparation", "staging" -> "TRANSFER_PREPARATION";
            case "checksum", "finalization", "finalize" -> "TRANSFER_FINALIZATION";
            default -> "TRANSFER";
        };
    }

    static long millis(JsonNode record, String field) {
        String t = record.path(field).asText(null);
        return t == null ? 0 : OffsetDateTime.parse(t).toInstant().toEpochMilli();
    }

    private static long first(long... candidates) {
        for (long c : candidates) {
            if (c > 0) {
                return c;
            }
        }
        return 0;
    }

    static String host(String url) {
        try {
            String h = URI.create(url).getHost();
            return h == null ? "" : h;
        } catch (IllegalArgumentException notAUri) {
            return "";
        }
    }

    private static String scheme(String url) {
        int colon = url.indexOf(':');
        return colon > 0 ? url.substring(0, colon) : "";
    }

    /** FTS3's storage element name: scheme://host. */
    static String se(String url) {
        return scheme(url) + "://" + host(url);
    }
}
