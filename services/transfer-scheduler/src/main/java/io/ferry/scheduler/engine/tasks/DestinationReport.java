package io.ferry.scheduler.engine.tasks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.movers.CopyRequest;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.tape.TapeRows;
import io.ferry.scheduler.tape.TapeStager;
import io.ferry.scheduler.transitions.FileQueue;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * FTS3's {@code dst_file_report}: when a copy is refused because its destination exists and overwrite is off, and
 * the job asked for the report, the existing file's size, checksum (in the job's algorithm, as FTS3's url-copy
 * asks gfal2 for it) and locality go into the file's metadata as
 * {@code dst_file} (FTS3's url-copy does the same), so the status answers and the completion message carry them and
 * Rucio can accept a destination that is already right. A report that cannot be made leaves the metadata as it was:
 * the copy fails the same either way.
 */
@ApplicationScoped
public class DestinationReport {

    private static final Logger LOG = Logger.getLogger(DestinationReport.class);

    private final Pool pool;
    private final ObjectMapper json;
    private final SiteDirectory sites;
    private final TapeStager stager;

    @Inject
    DestinationReport(Pool pool, ObjectMapper json, SiteDirectory sites, TapeStager stager) {
        this.pool = pool;
        this.json = json;
        this.sites = sites;
        this.stager = stager;
    }

    /** Called with every failure of a copy: reports only an existing destination the job asked about. */
    void afterRefusal(ClaimedFile f, Mover mover, CopyRequest req, MoverException e) {
        if (mover == null || req == null || e.code() != MoverException.Code.DEST_EXISTS || req.overwrite()
                || !TapeRows.of(pool, f.fileId(), Db.WAIT).params().dstFileReport()) {
            return;
        }
        try {
            ObjectNode dstFile = dstFile(mover, f, req);
            FileQueue.rewriteMetadata(pool, f.fileId(), metadata -> withDstFile(json, metadata, dstFile).toString());
        } catch (MoverException | RuntimeException failed) {
            LOG.warnf("dst_file_report of file %d (%s) failed, the file is reported without it: %s", f.fileId(), req.destination(),
                    failed.getMessage());
        }
    }

    /** FTS3's {@code dst_file} object: file_size, checksum_type, checksum_value, file_on_tape, file_on_disk. */
    private ObjectNode dstFile(Mover mover, ClaimedFile f, CopyRequest req) throws MoverException {
        SourceStat stat = mover.statDestination(req);
        boolean onDisk = true;
        boolean onTape = false;
        SchedulingInputs.Se dest = sites.se(f.destSe());
        String tape = dest == null ? null : dest.baseUrls().get("tape");
        if (tape != null) {
            TapeStager.Locality l = stager.archiveInfo(tape, List.of(req.destination()), req.credentials().destination())
                    .get(req.destination().getPath());
            if (l != null && l.error() == null) {
                onDisk = l.onDisk();
                onTape = l.onTape();
            }
        }
        ObjectNode d = json.createObjectNode();
        d.put("file_size", stat.size());
        d.put("checksum_type", req.algorithm().name());
        d.put("checksum_value", stat.checksum() == null ? "" : stat.checksum());
        d.put("file_on_tape", onTape);
        d.put("file_on_disk", onDisk);
        return d;
    }

    /**
     * The file's metadata with {@code dst_file} set, as FTS3 appends it: an object keeps its fields, other metadata
     * moves under {@code file_metadata}, none gives an object of {@code dst_file} alone.
     */
    static ObjectNode withDstFile(ObjectMapper json, String fileMetadata, ObjectNode dstFile) {
        ObjectNode m = json.createObjectNode();
        if (fileMetadata != null && !fileMetadata.isEmpty()) {
            JsonNode parsed;
            try {
                parsed = json.readTree(fileMetadata);
            } catch (Exception notJson) {
                parsed = json.getNodeFactory().textNode(fileMetadata);
            }
            if (parsed instanceof ObjectNode o) {
                m = o;
            } else if (parsed != null && !parsed.isNull() && !(parsed.isTextual() && parsed.asText().isEmpty())) {
                m.set("file_metadata", parsed);
            }
        }
        m.set("dst_file", dstFile);
        return m;
    }
}
