package io.ferry.scheduler.queue;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;
import java.util.UUID;

/** A submitted job: who, how its files are to be copied, and its aggregate state. */
@Entity
@Table(name = "job")
public class Job extends PanacheEntityBase {

    @Id
    @Column(name = "job_id")
    public UUID jobId;

    public String vo;

    @Column(name = "user_dn")
    public String userDn;

    @Enumerated(EnumType.STRING)
    public JobState state;

    public int priority;

    @Column(name = "verify_checksum")
    public String verifyChecksum;

    public boolean overwrite;

    /** FTS3's job type: {@code H} multihop (its files are hops run one after another), else {@code N}. */
    @Column(name = "job_type")
    public String jobType;

    /** FTS3's overwrite_hop: every hop but the last overwrites its destination. */
    @Column(name = "overwrite_hop")
    public boolean overwriteHop;

    public int retry;

    @Column(name = "retry_delay")
    public int retryDelay;

    @Column(name = "max_time_in_queue")
    public Integer maxTimeInQueue;

    /** When the job's unfinished files are cancelled ({@code params.deadline}); null: never. */
    public OffsetDateTime deadline;

    public Integer timeout;

    public Integer nostreams;

    @Column(name = "job_metadata")
    public String jobMetadata;

    public String params;

    @Column(name = "source_se")
    public String sourceSe;

    @Column(name = "dest_se")
    public String destSe;

    @Column(name = "submitted_at")
    public OffsetDateTime submittedAt;

    @Column(name = "finished_at")
    public OffsetDateTime finishedAt;

    public String reason;

    /** Whether the job's files brought bearer tokens toward storage (the engine looks them up only then). */
    @Column(name = "has_tokens")
    public boolean hasTokens;

    /** FTS3's cred_id: the delegation id whose proxy the job's copies present to storage (certificate submissions). */
    @Column(name = "cred_id")
    public String credId;
}
