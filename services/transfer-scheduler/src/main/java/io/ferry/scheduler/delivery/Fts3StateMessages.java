package io.ferry.scheduler.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * FTS3's other two monitoring messages, built from a file's state change as V26's trigger keeps it: the state message
 * ({@code transfer.fts_monitoring_state}, FTS3's MsgIfce::SendTransferStatusChange) on every change, and the start
 * message ({@code transfer.fts_monitoring_start}, SendTransferStartMessage) when a copy starts. Fields and JSON types
 * as FTS3 sends them: times in milliseconds since the epoch (0 when unknown), counters as numbers, the metadata as
 * the JSON submitted. What Ferry does not do (SRM, space tokens, archiving flags of disk SEs) carries FTS3's empty values.
 */
public final class Fts3StateMessages {

    /** What the change does not carry, read from the job and the file when the message is published. */
    public record Job(String userDn, String jobState, int retryMax, String jobMetadata, String fileMetadata, String sourceSite,
                      String destSite) {
    }

    private Fts3StateMessages() {
    }

    /** The state message of one change; {@code job} null when the job is gone (archived). */
    public static ObjectNode state(ObjectMapper json, JsonNode change, Job job) {
        ObjectNode m = json.createObjectNode();
        String state = change.path("file_state").asText();
        m.put("user_dn", job != null ? job.userDn() : "");
        m.put("src_url", change.path("source_url").asText(""));
        m.put("dst_url", change.path("dest_url").asText(""));
        m.put("vo_name", change.path("vo").asText(""));
        m.put("source_se", Fts3CompletionMessage.se(change.path("source_url").asText("")));
        m.put("dest_se", Fts3CompletionMessage.se(change.path("dest_url").asText("")));
        m.put("job_id", change.path("job_id").asText());
        m.put("file_id", change.path("file_id").asLong());
        m.put("job_state", job != null ? job.jobState() : "");
        m.put("file_state", state);
        m.put("retry_counter", Math.max(0, change.path("attempts").asInt() - 1));
        m.put("retry_max", job != null ? job.retryMax() : 0);
        m.put("user_filesize", change.path("filesize").asLong(0));
        m.put("timestamp", Fts3CompletionMessage.millis(change, "at"));
        m.put("submit_time", Fts3CompletionMessage.millis(change, "submitted_at"));
        m.put("staging_start", Fts3CompletionMessage.millis(change, "staging_start"));
        m.put("staging_finished", Fts3CompletionMessage.millis(change, "staging_finished"));
        m.put("staging", "STAGING".equals(state));
        m.put("archiving_start", 0L);
        m.put("archiving_finished", 0L);
        m.put("archiving", "ARCHIVING".equals(state));
        m.put("reason", change.path("reason").asText(""));
        m.set("job_metadata", Fts3CompletionMessage.metadata(json, job != null ? job.jobMetadata() : null));
        m.set("file_metadata", Fts3CompletionMessage.metadata(json, job != null ? job.fileMetadata() : null));
        return m;
    }

    /** The start message of a file whose copy started; {@code endpoint}: this service as FTS3 names itself. */
    public static ObjectNode start(ObjectMapper json, JsonNode change, Job job, String endpoint) {
        ObjectNode m = json.createObjectNode();
        String srcUrl = change.path("source_url").asText("");
        String dstUrl = change.path("dest_url").asText("");
        long at = Fts3CompletionMessage.millis(change, "at");
        String srcHost = Fts3CompletionMessage.host(srcUrl);
        String dstHost = Fts3CompletionMessage.host(dstUrl);
        String jobId = change.path("job_id").asText();
        long fileId = change.path("file_id").asLong();
        m.put("transfer_id", Fts3CompletionMessage.trId(at, srcUrl, dstUrl, fileId, jobId));
        m.put("job_id", jobId);
        m.put("file_id", fileId);
        m.put("endpnt", endpoint);
        m.put("timestamp", at);
        m.put("src_srm_v", "");
        m.put("dest_srm_v", "");
        m.put("vo", change.path("vo").asText(""));
        m.put("src_url", srcUrl);
        m.put("dst_url", dstUrl);
        m.put("src_hostname", srcHost);
        m.put("dst_hostname", dstHost);
        m.put("src_site_name", job != null && job.sourceSite() != null ? job.sourceSite() : "");
        m.put("dst_site_name", job != null && job.destSite() != null ? job.destSite() : "");
        m.put("t_channel", Fts3CompletionMessage.se(srcUrl) + "__" + Fts3CompletionMessage.se(dstUrl));
        m.put("srm_space_token_src", "");
        m.put("srm_space_token_dst", "");
        m.put("user_dn", job != null ? job.userDn() : "");
        m.put("is_archiving", false);
        m.set("file_metadata", Fts3CompletionMessage.metadata(json, job != null ? job.fileMetadata() : null));
        m.set("job_metadata", Fts3CompletionMessage.metadata(json, job != null ? job.jobMetadata() : null));
        return m;
    }
}
