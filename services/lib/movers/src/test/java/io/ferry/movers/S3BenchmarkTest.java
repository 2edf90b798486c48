package io.ferry.movers;

import io.ferry.dev.S3Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Throughput of {@link S3Access} against gfal-copy (gfal2's HTTP plugin, davix) on the same s3proxy: 100 files of
 * 1 MiB and one of 256 MiB, file → s3 and s3 → file. Runs only when asked ({@code -Dferry.s3.benchmark=true}) and
 * needs gfal2-util-scripts and gfal2-plugin-http; it prints its numbers.
 */
@EnabledIfSystemProperty(named = "ferry.s3.benchmark", matches = "true")
class S3BenchmarkTest {

    private static final int SMALL = 100;

    @TempDir
    Path dir;

    @Test
    void ferryAgainstGfalCopy() throws Exception {
        Path sources = Files.createDirectories(dir.resolve("src"));
        Random random = new Random(1);
        byte[] mib = new byte[1 << 20];
        for (int i = 0; i < SMALL; i++) {
            random.nextBytes(mib);
            Files.write(sources.resolve("small-" + i), mib);
        }
        try (FileChannel big = FileChannel.open(sources.resolve("big"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 256; i++) {
                random.nextBytes(mib);
                big.write(ByteBuffer.wrap(mib));
            }
        }
        try (S3Server server = new S3Server("ferry", "gfal")) {
            S3Access access = new S3Access(Duration.ofSeconds(60));
            S3Keys keys = new S3Keys(S3Server.IDENTITY, S3Server.CREDENTIAL);
            List<String> report = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                // the server's and this JVM's JIT warm up before anything is timed (gfal-copy runs after, on a warm server)
                upload(access, keys, sources.resolve("small-" + i), URI.create(server.url("/gfal/warm-up-" + i)));
            }

            long t = System.nanoTime();
            for (int i = 0; i < SMALL; i++) {
                upload(access, keys, sources.resolve("small-" + i), URI.create(server.url("/ferry/small-" + i)));
            }
            report.add(rate("ferry file->s3 100 x 1 MiB", SMALL << 20, t));
            t = System.nanoTime();
            upload(access, keys, sources.resolve("big"), URI.create(server.url("/ferry/big")));
            report.add(rate("ferry file->s3 256 MiB (multipart, 8 MiB parts, 4 in flight)", 256L << 20, t));
            S3Access onePut = new S3Access(new HttpWire(Duration.ofSeconds(10), Duration.ofSeconds(60), StorageTls.of(null)),
                    java.time.Clock.systemUTC(), 256 << 20, 1, 0);
            t = System.nanoTime();
            upload(onePut, keys, sources.resolve("big"), URI.create(server.url("/ferry/big-single")));
            report.add(rate("ferry file->s3 256 MiB (one PUT: part size 256 MiB)", 256L << 20, t));
            Path back = Files.createDirectories(dir.resolve("ferry-back"));
            t = System.nanoTime();
            for (int i = 0; i < SMALL; i++) {
                download(access, keys, URI.create(server.url("/ferry/small-" + i)), back.resolve("small-" + i));
            }
            report.add(rate("ferry s3->file 100 x 1 MiB", SMALL << 20, t));
            t = System.nanoTime();
            download(access, keys, URI.create(server.url("/ferry/big")), back.resolve("big"));
            report.add(rate("ferry s3->file 256 MiB", 256L << 20, t));
            assertEquals(Files.mismatch(sources.resolve("big"), back.resolve("big")), -1L);

            Path list = dir.resolve("small.list");
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < SMALL; i++) {
                lines.append(sources.resolve("small-" + i).toUri()).append('\n');
            }
            Files.writeString(list, lines);
            t = System.nanoTime();
            gfal("--from-file", list.toString(), server.url("/gfal/"));
            report.add(rate("gfal-copy file->s3 100 x 1 MiB (one gfal-copy --from-file)", SMALL << 20, t));
            t = System.nanoTime();
            gfal(sources.resolve("big").toUri().toString(), server.url("/gfal/big"));
            report.add(rate("gfal-copy file->s3 256 MiB", 256L << 20, t));
            Path gfalBack = Files.createDirectories(dir.resolve("gfal-back"));
            StringBuilder remote = new StringBuilder();
            for (int i = 0; i < SMALL; i++) {
                remote.append(server.url("/gfal/small-" + i)).append('\n');
            }
            Files.writeString(list, remote);
            t = System.nanoTime();
            gfal("--from-file", list.toString(), gfalBack.toUri().toString());
            report.add(rate("gfal-copy s3->file 100 x 1 MiB (one gfal-copy --from-file)", SMALL << 20, t));
            t = System.nanoTime();
            gfal(server.url("/gfal/big"), gfalBack.resolve("big").toUri().toString());
            report.add(rate("gfal-copy s3->file 256 MiB", 256L << 20, t));
            assertEquals(Files.mismatch(sources.resolve("big"), gfalBack.resolve("big")), -1L);
            report.forEach(System.out::println);
        }
    }

    private static void upload(S3Access access, S3Keys keys, Path file, URI url) throws Exception {
        try (FileChannel in = FileChannel.open(file); StorageAccess.Upload up = access.write(url, in.size(), keys, "transfer")) {
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            while (in.read(buf) >= 0) {
                buf.flip();
                up.write(buf);
                buf.clear();
            }
            up.commit();
        }
    }

    private static void download(S3Access access, S3Keys keys, URI url, Path file) throws Exception {
        try (ReadableByteChannel in = access.read(url, keys, "transfer");
             FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            while (in.read(buf) >= 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                buf.clear();
            }
        }
    }

    private static void gfal(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("gfal-copy", "-f", "-D", "S3:ACCESS_KEY=" + S3Server.IDENTITY, "-D",
                "S3:SECRET_KEY=" + S3Server.CREDENTIAL, "-D", "S3:REGION=us-east-1", "-D", "S3:ALTERNATE=true"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("GFAL_PYTHONBIN", "/usr/bin/python3");  // its launcher looks for a "python" Debian does not have
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
    }

    private static String rate(String what, long bytes, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return String.format("%-66s %7.2f s %8.1f MiB/s", what, seconds, bytes / seconds / (1 << 20));
    }
}
