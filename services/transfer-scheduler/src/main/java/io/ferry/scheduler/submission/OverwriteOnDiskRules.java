package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.movers.WebDavSchemes;
import io.ferry.problem.Problem;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What FTS3's REST server requires of a job with {@code overwrite_when_only_on_disk} (JobBuilder's
 * {@code _validate_overwrite_flag} and {@code _validate_overwrite_disk_destination}), in its words: no {@code overwrite}
 * or {@code overwrite_on_retry} beside it ({@code overwrite_hop} may be), an {@code archive_timeout}, and destinations
 * on HTTP storage, whose locality the Tape REST API tells (a multihop job's last hop only). FTS3 takes https and davs
 * only; Ferry also takes http and dav, as it reaches an SE's Tape REST endpoint through the SE's own {@code tape}
 * base URL whatever the scheme of its data URLs.
 */
final class OverwriteOnDiskRules {

    static final String FIELD = "params.overwrite_when_only_on_disk";

    private OverwriteOnDiskRules() {
    }

    static void check(TapeParams tape, boolean overwrite, JsonNode overwriteOnRetry, boolean multihop, List<Submission.FileRequest> files,
                      List<Problem.FieldError> errors) {
        // overwrite_on_retry as FTS3's safe_flag reads it (Ferry does not act on it otherwise)
        boolean onRetry = overwriteOnRetry != null
                && (overwriteOnRetry.asBoolean() || overwriteOnRetry.asText().toUpperCase(Locale.ROOT).startsWith("Y"));
        if (overwrite || onRetry) {
            errors.add(new Problem.FieldError(FIELD, "Incompatible overwrite flags used at the same time"));
        }
        if (!tape.archive()) {
            errors.add(new Problem.FieldError(FIELD, "'overwrite-when-only-on-disk' requires 'archive-timeout' to be set"));
        }
        List<Submission.FileRequest> checked = files.stream().filter(Objects::nonNull).toList();
        if (multihop && !checked.isEmpty()) {
            checked = List.of(checked.get(checked.size() - 1));
        }
        boolean http = checked.stream().flatMap(f -> f.destinations().stream()).allMatch(OverwriteOnDiskRules::isHttp);
        if (!http) {
            errors.add(new Problem.FieldError(FIELD, "'overwrite-when-only-on-disk' requires destination to be HTTPs endpoint (Tape REST API required)"));
        }
    }

    private static boolean isHttp(String url) {
        try {
            return WebDavSchemes.transport(URI.create(url)) != null;
        } catch (IllegalArgumentException notAUrl) {
            return true;  // reported as the file's own error
        }
    }
}
