package io.ferry.scheduler.credentials;

import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.submission.FileTokens;
import io.ferry.scheduler.submission.Submission;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A submission's bearer tokens as they are stored: each distinct token of the job sealed once ({@link TokenSeal}),
 * and for each file which token goes to which of its canonical URLs — a source's token to that source (the file
 * tries its sources in turn), the first destination's to the destination.
 */
@ApplicationScoped
public class JobTokens {

    private final TokenSeal seal;

    @Inject
    JobTokens(TokenSeal seal) {
        this.seal = seal;
    }

    /** What {@link FileTokenRows#insert} stores. */
    public record Rows(List<FileTokenRows.Sealed> tokens, List<FileTokenRows.Use> uses) {
        public boolean isEmpty() {
            return tokens.isEmpty();
        }
    }

    /** {@code files} as submitted (logical sources resolved), {@code checked} their canonical URLs, in the same order. */
    public Rows seal(UUID job, List<Submission.FileRequest> files, List<StorageBoundary.CheckedFile> checked) {
        Map<String, Integer> numbers = new LinkedHashMap<>();
        List<FileTokenRows.Sealed> sealed = new ArrayList<>();
        List<FileTokenRows.Use> uses = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            FileTokens tokens = files.get(i).tokens();
            if (tokens == null) {
                continue;
            }
            StorageBoundary.CheckedFile c = checked.get(i);
            Set<String> sources = new HashSet<>();
            for (int j = 0; j < c.sources().size(); j++) {
                String url = c.sources().get(j).toString();
                int no = number(job, tokens.source(j), numbers, sealed);
                // two spellings of one source: its first token
                if (sources.add(url)) {
                    uses.add(new FileTokenRows.Use(i, "source", url, no));
                }
            }
            uses.add(new FileTokenRows.Use(i, "destination", c.destination().toString(), number(job, tokens.destination(), numbers, sealed)));
        }
        return new Rows(sealed, uses);
    }

    private int number(UUID job, String token, Map<String, Integer> numbers, List<FileTokenRows.Sealed> sealed) {
        return numbers.computeIfAbsent(token, t -> {
            int no = numbers.size();
            sealed.add(new FileTokenRows.Sealed(no, seal.seal(t, job, no), FileTokens.expiry(t).atOffset(ZoneOffset.UTC), FileTokens.issuer(t)));
            return no;
        });
    }
}
