package io.ferry.cli.transfer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * {@code ferry submit -r SRC/ DST/}: a directory entry, the tree below SRC copied to the same paths below DST by the
 * scheduler, which lists it; {@code include}/{@code exclude} globs filter the files, {@code maxFiles} (null: the
 * scheduler's 10,000) bounds them.
 */
public record DirectoryEntry(List<String> include, List<String> exclude, Integer maxFiles) {

    /** Makes {@code file} (one source, one destination) the job's directory entry. */
    public void applyTo(ObjectNode file) {
        String src = file.path("sources").path(0).asText();
        String dst = file.path("destinations").path(0).asText();
        if (!src.endsWith("/") || !dst.endsWith("/")) {
            throw new IllegalArgumentException("-r copies a directory: SRC and DST end in /");
        }
        file.put("recursive", true);
        globs(file.putArray("include"), include);
        globs(file.putArray("exclude"), exclude);
    }

    /** The job's directory limit in {@code body}'s params. */
    public void applyToJob(ObjectNode body) {
        if (maxFiles != null) {
            ObjectNode params = body.get("params") instanceof ObjectNode p ? p : body.putObject("params");
            params.put("max_files", maxFiles);
        }
    }

    private static void globs(ArrayNode into, List<String> globs) {
        globs.forEach(into::add);
    }
}
