package io.ferry.scheduler.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Rucio's conveyor receiver ({@code rucio/daemons/conveyor/receiver.py}, on_message) ported to Java for the tests: it
 * parses a completion message as Rucio does and answers the request update Rucio would make, or null where Rucio
 * ignores the message. Strict where Python would raise: a missing field or a wrong type fails the test.
 */
public final class RucioReceiver {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RucioReceiver() {
    }

    public static Map<String, Object> onMessage(String body) throws Exception {
        // today's receiver: msg = json.loads(frame.body), which fails on anything after the JSON (old FTS3's EOT)
        if (body.endsWith("\u0004")) {
            throw new AssertionError("json.loads fails on the EOT at the end of " + body);
        }
        JsonNode msg = JSON.readTree(body);
        // without all_vos, the receiver keeps only its own VO's messages, read from the body
        if (!msg.path("vo").isTextual()) {
            throw new AssertionError("no vo in the body, so Rucio drops the message: " + body);
        }
        JsonNode jobMetadata = msg.get("job_metadata");
        if (jobMetadata == null || !jobMetadata.isObject() || !"rucio".equals(jobMetadata.path("issuer").asText(null))) {
            return null;
        }
        // a multi-source job's file still ACTIVE may be tried from the next source: not final yet
        if (!msg.has("job_state") || "ACTIVE".equals(text(msg, "job_state")) && !bool(msg, "job_multihop")) {
            return null;
        }
        JsonNode fileMetadata = msg.get("file_metadata");
        if (!fileMetadata.isObject()) {
            throw new AssertionError("file_metadata is not a dict: " + fileMetadata);
        }
        Map<String, Object> response = new HashMap<>();
        String[] trId = text(msg, "tr_id").split("__");
        response.put("transfer_id", trId[trId.length - 1]);
        response.put("job_state", text(msg, "t_final_transfer_state"));
        response.put("external_host", text(msg, "endpnt"));
        response.put("src_url", text(msg, "src_url"));
        response.put("dst_url", text(msg, "dst_url"));
        // datetime.datetime.utcfromtimestamp(float(msg.get('tr_timestamp_start', 0)) / 1000)
        double start = number(msg, "tr_timestamp_start");
        double complete = number(msg, "tr_timestamp_complete");
        response.put("started_at", Instant.ofEpochMilli((long) start));
        response.put("transferred_at", Instant.ofEpochMilli((long) complete));
        response.put("duration", (complete - start) / 1000);
        response.put("reason", text(msg, "t__error_message"));
        for (String f : new String[]{"scope", "name", "src_rse", "dst_rse", "request_id", "activity", "dest_rse_id", "src_rse_id",
                "previous_attempt_id", "adler32", "md5", "filesize"}) {
            response.put(f, fileMetadata.has(f) ? fileMetadata.get(f).asText() : null);
        }
        response.put("job_m_replica", bool(msg, "job_m_replica"));
        String state = text(msg, "t_final_transfer_state");
        response.put("new_state", "Ok".equals(state) ? "DONE" : "Error".equals(state) ? "FAILED" : null);
        return response;
    }

    private static String text(JsonNode msg, String field) {
        JsonNode v = msg.get(field);
        if (v == null || !v.isTextual()) {
            throw new AssertionError(field + " is not a string: " + v);
        }
        return v.asText();
    }

    private static double number(JsonNode msg, String field) {
        JsonNode v = msg.get(field);
        if (v == null || !v.isNumber()) {
            throw new AssertionError(field + " is not a number: " + v);
        }
        return v.asDouble();
    }

    private static boolean bool(JsonNode msg, String field) {
        JsonNode v = msg.get(field);
        if (v == null || !v.isBoolean()) {
            throw new AssertionError(field + " is not a boolean: " + v);
        }
        return v.asBoolean();
    }
}
