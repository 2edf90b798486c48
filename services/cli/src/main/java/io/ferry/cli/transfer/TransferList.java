package io.ferry.cli.transfer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A list of transfers to submit, read from a file or stdin in one of two forms: FTS3's JSON bulk format as
 * {@code fts-rest-transfer-submit -f} reads it ({@code {"Files": [{"sources": [...], "destinations": [...], ...}]}},
 * {@code files} also taken; each file object is sent as it is), or lines of {@code SRC DST [SIZE] [CHECKSUM]}
 * (blank lines and {@code #} comments skipped; SIZE in bytes or with a unit, CHECKSUM as {@code adler32:xxxxxxxx} or {@code md5:} and 32 hex digits).
 */
public final class TransferList {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TransferList() {
    }

    /** The file objects of {@code text}; a malformed line or document throws, naming where. */
    public static List<ObjectNode> parse(String text) {
        String trimmed = text.strip();
        return trimmed.startsWith("{") || trimmed.startsWith("[") ? json(trimmed) : lines(text);
    }

    /** One file object as the scheduler takes it. */
    public static ObjectNode file(String source, String destination, Long size, String checksum) {
        ObjectNode f = JsonNodeFactory.instance.objectNode();
        f.putArray("sources").add(source);
        f.putArray("destinations").add(destination);
        if (size != null) {
            f.put("filesize", size);
        }
        if (checksum != null) {
            f.put("checksum", checksum);
        }
        return f;
    }

    private static List<ObjectNode> json(String text) {
        JsonNode doc;
        try {
            doc = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("the list is not valid JSON: " + e.getOriginalMessage());
        }
        JsonNode files = doc.isArray() ? doc : doc.has("Files") ? doc.get("Files") : doc.get("files");
        if (files == null || !files.isArray()) {
            throw new IllegalArgumentException("a JSON list is FTS3's bulk format, {\"Files\": [{\"sources\": [...], \"destinations\": [...]}]}");
        }
        List<ObjectNode> out = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            JsonNode f = files.get(i);
            if (!f.isObject() || !f.path("sources").isArray() || !f.path("destinations").isArray()) {
                throw new IllegalArgumentException("Files[" + i + "] needs sources and destinations arrays");
            }
            out.add((ObjectNode) f);
        }
        return out;
    }

    private static List<ObjectNode> lines(String text) {
        List<ObjectNode> out = new ArrayList<>();
        int n = 0;
        for (String raw : text.split("\\R")) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] words = line.split("\\s+");
            if (words.length < 2 || words.length > 4) {
                throw new IllegalArgumentException("line " + n + ": expected SRC DST [SIZE] [CHECKSUM], got '" + line + "'");
            }
            Long size = null;
            String checksum = null;
            for (int i = 2; i < words.length; i++) {
                if (words[i].contains(":")) {
                    if (checksum != null) {
                        throw new IllegalArgumentException("line " + n + ": two checksums");
                    }
                    checksum = Checksums.normalise(words[i]);
                } else {
                    if (size != null || checksum != null) {
                        throw new IllegalArgumentException("line " + n + ": SIZE comes before CHECKSUM, once");
                    }
                    try {
                        size = Sizes.parse(words[i]);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("line " + n + ": " + e.getMessage());
                    }
                }
            }
            out.add(file(words[0], words[1], size, checksum));
        }
        return out;
    }

    /** Several jobs' worth of files when there are more than {@code maxPerJob}, in order. */
    public static List<List<ObjectNode>> split(List<ObjectNode> files, int maxPerJob) {
        if (maxPerJob < 1) {
            throw new IllegalArgumentException("at least one file per job");
        }
        List<List<ObjectNode>> jobs = new ArrayList<>();
        for (int i = 0; i < files.size(); i += maxPerJob) {
            jobs.add(files.subList(i, Math.min(files.size(), i + maxPerJob)));
        }
        return jobs;
    }

    /** The files as a JSON array (the body's {@code files}). */
    public static ArrayNode array(List<ObjectNode> files) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        files.forEach(a::add);
        return a;
    }
}
