package io.ferry.rates.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.ferry.rates.model.Names;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;

/**
 * One transfer attempt, in the shape agreed with transfer-scheduler (services/rate-aggregator/README.md, "Transfer record").
 * Field names are snake_case on the wire; sizes are bytes, rates bytes/s, times UTC ISO-8601. Text fields carry no
 * control characters (error_message may have line breaks and tabs).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = false)
public record TransferRecord(
        @NotBlank @Size(max = 200) @Schema(pattern = Syntax.NOT_BLANK) String id,
        @Size(max = 100) @Schema(pattern = Syntax.SINGLE_LINE) String job_id,
        @PositiveOrZero Long file_id,
        @Min(1) @Max(1000) Integer attempt,
        @NotBlank @Size(max = 100) @Schema(pattern = Syntax.NOT_BLANK) String vo,
        @Size(max = 100) @Schema(pattern = Syntax.SINGLE_LINE) String activity,
        @NotBlank @Pattern(regexp = NAME, message = Names.RULE) String source_se,
        @NotBlank @Pattern(regexp = NAME, message = Names.RULE) String dest_se,
        @Pattern(regexp = NAME, message = Names.RULE) String source_site,
        @Pattern(regexp = NAME, message = Names.RULE) String dest_site,
        @Size(max = 4096) @Schema(pattern = Syntax.SINGLE_LINE) String source_url,
        @Size(max = 4096) @Schema(pattern = Syntax.SINGLE_LINE) String dest_url,
        @PositiveOrZero @Max(MAX_BYTES) Long filesize,
        @NotNull @PositiveOrZero @Max(MAX_BYTES) Long bytes_transferred,
        @Min(1) @Max(64) Integer streams,
        @Schema(type = SchemaType.STRING, pattern = Syntax.PAST_TIME) OffsetDateTime submitted_at,
        @Schema(type = SchemaType.STRING, pattern = Syntax.PAST_TIME) OffsetDateTime prepare_started_at,
        @Schema(type = SchemaType.STRING, pattern = Syntax.PAST_TIME) OffsetDateTime prepare_ended_at,
        @Schema(type = SchemaType.STRING, pattern = Syntax.PAST_TIME) OffsetDateTime transfer_started_at,
        @Schema(type = SchemaType.STRING, pattern = Syntax.PAST_TIME) OffsetDateTime transfer_ended_at,
        @Schema(type = SchemaType.STRING, pattern = Syntax.PAST_TIME) OffsetDateTime checksum_started_at,
        @Schema(type = SchemaType.STRING, pattern = Syntax.PAST_TIME) OffsetDateTime checksum_ended_at,
        @DecimalMin("0") Double throughput_bytes_per_s,
        @NotNull @Pattern(regexp = "^(FINISHED|FAILED|CANCELED)$", message = "must be FINISHED, FAILED or CANCELED") String outcome,
        @Size(max = 40) @Schema(pattern = Syntax.SINGLE_LINE) String error_code,
        @Pattern(regexp = "^(prepare|transfer|checksum|queue)$", message = "must be prepare, transfer, checksum or queue") String error_phase,
        @Size(max = 4000) @Schema(pattern = Syntax.TEXT) String error_message,
        Boolean retryable) {

    /** The largest file or byte count a record may carry (1 PB): room for any file, none for overflowing the rollup sums. */
    public static final long MAX_BYTES = 1_000_000_000_000_000L;

    /** SE and site names ({@link Names#isName} checks them at ingest). */
    public static final String NAME = "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$";

    /** When the attempt ended: the last timestamp it carries. Rollups bin records by this instant. */
    public OffsetDateTime completedAt() {
        // Runs several times per record at ingest: each timestamp is turned into epoch seconds once (isAfter would
        // do it again for every comparison).
        OffsetDateTime last = null;
        long lastSecond = Long.MIN_VALUE;
        for (OffsetDateTime t : new OffsetDateTime[]{submitted_at, prepare_started_at, prepare_ended_at,
                transfer_started_at, transfer_ended_at, checksum_started_at, checksum_ended_at}) {
            if (t != null) {
                long second = t.toEpochSecond();
                if (last == null || second > lastSecond || (second == lastSecond && t.getNano() > last.getNano())) {
                    last = t;
                    lastSecond = second;
                }
            }
        }
        return last;
    }
}
