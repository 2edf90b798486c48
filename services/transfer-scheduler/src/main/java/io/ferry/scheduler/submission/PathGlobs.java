package io.ferry.scheduler.submission;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.PatternSyntaxException;

/**
 * A directory job's include and exclude filters on a file's path relative to the listed directory. A glob without
 * {@code /} matches the file's name in any directory ({@code *.root}); one with {@code /} matches the whole relative
 * path ({@code tmp/*}, {@code **}{@code /raw/*}), {@code *} staying within one directory and {@code **} crossing them.
 * A file is kept when it matches some include (or there is none) and no exclude.
 */
public final class PathGlobs {

    private final List<PathMatcher> include;
    private final List<PathMatcher> exclude;
    private final List<Boolean> includeByName;
    private final List<Boolean> excludeByName;

    public PathGlobs(List<String> include, List<String> exclude) {
        this.include = include.stream().map(PathGlobs::matcher).toList();
        this.exclude = exclude.stream().map(PathGlobs::matcher).toList();
        this.includeByName = include.stream().map(g -> !g.contains("/")).toList();
        this.excludeByName = exclude.stream().map(g -> !g.contains("/")).toList();
    }

    /** Whether the file at {@code relativePath} ({@code /}-separated) is copied. */
    public boolean keeps(String relativePath) {
        Path path = Path.of(relativePath);
        Path name = path.getFileName();
        return (include.isEmpty() || any(include, includeByName, path, name)) && !any(exclude, excludeByName, path, name);
    }

    private static boolean any(List<PathMatcher> globs, List<Boolean> byName, Path path, Path name) {
        for (int i = 0; i < globs.size(); i++) {
            if (globs.get(i).matches(byName.get(i) ? name : path)) {
                return true;
            }
        }
        return false;
    }

    /** Why {@code glob} is no filter, or null when it is one. */
    static String problem(String glob) {
        if (glob.isEmpty() || glob.startsWith("/")) {
            return "a glob relative to the directory, not empty and not starting with /";
        }
        try {
            matcher(glob);
            return null;
        } catch (PatternSyntaxException e) {
            return "not a glob: " + e.getDescription();
        }
    }

    private static PathMatcher matcher(String glob) {
        return FileSystems.getDefault().getPathMatcher("glob:" + glob);
    }
}
