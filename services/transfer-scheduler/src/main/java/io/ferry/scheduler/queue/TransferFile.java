package io.ferry.scheduler.queue;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;
import java.util.UUID;

/** One file copy of a job, from one source URL to one destination URL. */
@Entity
@Table(name = "transfer_file")
public class TransferFile extends PanacheEntityBase {

    @Id
    // assigned by the column default when JobInserts stores a job's files
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "file_id")
    public Long fileId;

    @Column(name = "job_id")
    public UUID jobId;

    @Column(name = "file_index")
    public int fileIndex;

    public String vo;

    public String activity;

    @Column(name = "source_url")
    public String sourceUrl;

    @Column(name = "dest_url")
    public String destUrl;

    @Column(name = "source_se")
    public String sourceSe;

    @Column(name = "dest_se")
    public String destSe;

    public String alternatives;

    public Long filesize;

    /** The size the prepare phase found at the source (null until then, and again for a new attempt). */
    @Column(name = "source_size")
    public Long sourceSize;

    public String checksum;

    @Column(name = "file_metadata")
    public String fileMetadata;

    @Enumerated(EnumType.STRING)
    public FileState state;

    public String reason;

    @Column(name = "error_code")
    public String errorCode;

    @Column(name = "error_phase")
    public String errorPhase;

    public int attempts;

    /** The job's priority, copied so the queue orders by it without a join. */
    public int priority;

    // Written by the engine's SQL only; Hibernate reads them but never writes them back.
    @Column(name = "bytes_transferred", insertable = false, updatable = false)
    public Long bytesTransferred;

    @Column(insertable = false, updatable = false)
    public Double throughput;

    @Column(insertable = false, updatable = false)
    public Integer streams;

    /** FTS3's SciTag flow label, null without one. */
    @Column(insertable = false, updatable = false)
    public Integer scitag;

    /** FTS3's per-file staging and archive metadata (JSON text), null without. */
    @Column(name = "staging_metadata", insertable = false, updatable = false)
    public String stagingMetadata;

    @Column(name = "archive_metadata", insertable = false, updatable = false)
    public String archiveMetadata;

    @Column(name = "submitted_at")
    public OffsetDateTime submittedAt;

    @Column(name = "start_time")
    public OffsetDateTime startTime;

    @Column(name = "finish_time")
    public OffsetDateTime finishTime;

    /** When its stage request was accepted (files that went through staging only). */
    @Column(name = "staging_start", insertable = false, updatable = false)
    public OffsetDateTime stagingStart;

    /** When it came online after staging. */
    @Column(name = "staging_finished", insertable = false, updatable = false)
    public OffsetDateTime stagingFinished;
}
