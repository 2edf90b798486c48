package io.ferry.scheduler.credentials;

import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.submission.FileTokens;
import io.ferry.scheduler.submission.Submission;
import io.ferry.storageurl.StorageUrl;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How a submission's tokens are stored: each distinct one sealed once per job, each URL of a file with its own. */
class JobTokensTest {

    static String jwt(String scope) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString("{}".getBytes(StandardCharsets.UTF_8)) + "." + b64.encodeToString(("{\"iss\":\"https://iam/\",\"exp\":"
                + (Instant.now().getEpochSecond() + 600) + ",\"scope\":\"" + scope + "\"}").getBytes(StandardCharsets.UTF_8)) + ".c2ln";
    }

    static Submission.FileRequest file(List<String> sources, FileTokens tokens) {
        return new Submission.FileRequest(sources, List.of("https://cern.example/eos/x"), null, null, null, "default", tokens, null);
    }

    static StorageBoundary.CheckedFile checked(List<String> sources, String destination) {
        return new StorageBoundary.CheckedFile(sources.stream().map(StorageUrl::parse).toList(), sources.stream().map(s -> "SE").toList(),
                StorageUrl.parse(destination), "DEST");
    }

    @Test
    void eachDistinctTokenIsSealedOnceAndEachUrlGetsItsOwn() throws Exception {
        TokenSeal seal = new TokenSeal(TokenSeal.load(TokenSealTest.randomKey(), false));
        JobTokens jobTokens = new JobTokens(seal);
        String read = jwt("storage.read:/");
        String readBnl = jwt("storage.read:/bnl");
        String modify = jwt("storage.modify:/");
        UUID job = UUID.randomUUID();
        List<Submission.FileRequest> files = List.of(
                file(List.of("https://ral.example/a", "https://bnl.example/a"), new FileTokens(List.of(read, readBnl), List.of(modify))),
                file(List.of("https://ral.example/b"), null),
                file(List.of("https://ral.example/c", "https://RAL.example/c"), new FileTokens(List.of(read, modify), List.of(modify))));
        List<StorageBoundary.CheckedFile> checked = List.of(
                checked(List.of("https://ral.example/a", "https://bnl.example/a"), "https://cern.example/eos/a"),
                checked(List.of("https://ral.example/b"), "https://cern.example/eos/b"),
                // two spellings of one source: one row, with the first one's token
                checked(List.of("https://ral.example/c", "https://ral.example/c"), "https://cern.example/eos/c"));
        JobTokens.Rows rows = jobTokens.seal(job, files, checked);
        assertEquals(3, rows.tokens().size(), "read, readBnl and modify, once each");
        assertEquals(List.of(read, readBnl, modify), rows.tokens().stream().map(t -> open(seal, t, job)).toList());
        assertEquals(List.of(
                new FileTokenRows.Use(0, "source", "https://ral.example/a", 0),
                new FileTokenRows.Use(0, "source", "https://bnl.example/a", 1),
                new FileTokenRows.Use(0, "destination", "https://cern.example/eos/a", 2),
                new FileTokenRows.Use(2, "source", "https://ral.example/c", 0),
                new FileTokenRows.Use(2, "destination", "https://cern.example/eos/c", 2)), rows.uses());
        assertEquals(FileTokens.expiry(read).getEpochSecond(), rows.tokens().get(0).expiresAt().toEpochSecond());
    }

    private static String open(TokenSeal seal, FileTokenRows.Sealed t, UUID job) {
        try {
            return seal.open(t.sealed(), job, t.tokenNo());
        } catch (TokenSeal.SealBroken e) {
            throw new AssertionError(e);
        }
    }
}
