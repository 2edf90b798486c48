package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A file entry with {@code recursive: true}: its one source and one destination are directories (URLs ending in
 * {@code /}); the engine lists the source tree and copies each file kept by {@code include}/{@code exclude}
 * ({@link PathGlobs}) to the same relative path below the destination. A job holds one such entry and nothing else;
 * {@code params.max_files} (at most {@link Submission#MAX_FILES}, the default) bounds the tree: a bigger one fails
 * the job with its count rather than being cut short.
 */
public record DirectoryRequest(List<String> include, List<String> exclude, int maxFiles) {

    /** The protocols whose directories the engine can list. */
    public static final Set<String> LISTED_SCHEMES = Set.of("file", "http", "https", "dav", "davs", "root", "roots", "s3", "s3s");
    static final int MAX_GLOBS = 50;
    static final int MAX_GLOB_LENGTH = 256;

    public PathGlobs globs() {
        return new PathGlobs(include, exclude);
    }

    /** The entry's directory request, null when it is not recursive; its problems added to {@code errors}. */
    static DirectoryRequest parse(JsonNode f, List<String> sources, List<String> destinations, String at, List<Problem.FieldError> errors) {
        if (!Submission.bool(f.get("recursive"), at + ".recursive", false, errors)) {
            for (String field : List.of("include", "exclude")) {
                if (present(f.get(field))) {
                    errors.add(new Problem.FieldError(at + "." + field, "filters a directory entry only (recursive: true)"));
                }
            }
            return null;
        }
        if (sources.size() != 1 || !isDirectory(sources.get(0))) {
            errors.add(new Problem.FieldError(at + ".sources", "a directory entry has one source, a URL ending in /"));
        } else if (!LISTED_SCHEMES.contains(scheme(sources.get(0)))) {
            errors.add(new Problem.FieldError(at + ".sources", "directories can be listed on " + LISTED_SCHEMES + " storage only"));
        }
        if (destinations.size() != 1 || !isDirectory(destinations.get(0))) {
            errors.add(new Problem.FieldError(at + ".destinations", "a directory entry has one destination, a URL ending in /"));
        }
        for (String perFile : List.of("filesize", "checksum", "source_tokens", "destination_tokens", "staging_metadata", "archive_metadata")) {
            if (present(f.get(perFile))) {
                errors.add(new Problem.FieldError(at + "." + perFile, "not taken on a directory entry"));
            }
        }
        return new DirectoryRequest(globs(f.get("include"), at + ".include", errors), globs(f.get("exclude"), at + ".exclude", errors),
                Submission.MAX_FILES);
    }

    /**
     * The job-wide rules: a directory entry is the job's only file and not a hop; {@code params.max_files} read into
     * it. Answers the files with that limit set.
     */
    static List<Submission.FileRequest> checkJob(List<Submission.FileRequest> files, JsonNode params, boolean multihop,
                                                 List<Problem.FieldError> errors) {
        boolean directory = files.stream().anyMatch(f -> f != null && f.directory() != null);
        if (!directory) {
            if (present(params.get("max_files"))) {
                errors.add(new Problem.FieldError("params.max_files", "bounds a directory job only (a file entry with recursive: true)"));
            }
            return files;
        }
        if (files.size() > 1) {
            errors.add(new Problem.FieldError("files", "a directory job has one entry, its directory"));
            return files;
        }
        if (multihop) {
            errors.add(new Problem.FieldError("params.multihop", "a directory job is no multihop chain"));
        }
        int maxFiles = Submission.MAX_FILES;
        JsonNode given = params.get("max_files");
        if (present(given)) {
            if (!given.isIntegralNumber() || given.asLong() < 1 || given.asLong() > Submission.MAX_FILES) {
                errors.add(new Problem.FieldError("params.max_files", "a whole number from 1 to " + Submission.MAX_FILES));
            } else {
                maxFiles = given.asInt();
            }
        }
        Submission.FileRequest f = files.get(0);
        DirectoryRequest d = new DirectoryRequest(f.directory().include(), f.directory().exclude(), maxFiles);
        return List.of(new Submission.FileRequest(f.sources(), f.destinations(), f.filesize(), f.checksum(), f.metadata(), f.activity(),
                f.tokens(), f.scitag(), f.tape(), d));
    }

    private static List<String> globs(JsonNode node, String at, List<Problem.FieldError> errors) {
        List<String> out = new ArrayList<>();
        if (!present(node)) {
            return out;
        }
        if (!node.isArray() || node.size() > MAX_GLOBS) {
            errors.add(new Problem.FieldError(at, "a list of at most " + MAX_GLOBS + " globs"));
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode g = node.get(i);
            String problem = !g.isTextual() || g.asText().length() > MAX_GLOB_LENGTH
                    ? "a glob of at most " + MAX_GLOB_LENGTH + " characters" : PathGlobs.problem(g.asText());
            if (problem != null) {
                errors.add(new Problem.FieldError(at + "[" + i + "]", problem));
            } else {
                out.add(g.asText());
            }
        }
        return out;
    }

    private static boolean isDirectory(String url) {
        return url.endsWith("/");
    }

    private static String scheme(String url) {
        try {
            String s = URI.create(url).getScheme();
            return s == null ? "" : s.toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    private static boolean present(JsonNode v) {
        return v != null && !v.isNull() && !v.isMissingNode();
    }
}
