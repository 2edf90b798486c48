package io.ferry.movers.xrootd;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.movers.StorageAccess;
import io.ferry.movers.TlsSockets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Numbers for the report, run only when asked ({@code -Dferry.xrootd.bench=true}): many 1 MiB files read and
 * written over reused sessions, one large file read, and xrdcp doing the same for comparison.
 */
class XrootdBenchmarkTest {

    @Test
    void smallFilesAndOneLargeFile() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("ferry.xrootd.bench"), "benchmark: -Dferry.xrootd.bench=true");
        int files = Integer.getInteger("ferry.xrootd.bench.files", 1000);
        long large = Long.getLong("ferry.xrootd.bench.large", 1L << 30);
        Path dir = Files.createTempDirectory("ferry-xrootd-bench");
        try (XrootdServer server = new XrootdServer(TestCertificates.create(dir), Map.of(), XrootdServer.Options.plain());
             XrootdAccess access = new XrootdAccess(Duration.ofSeconds(60), TlsSockets.storageTls(Optional.empty(), Optional.empty(), Optional.empty()))) {
            byte[] mib = new byte[1 << 20];
            new Random(1).nextBytes(mib);
            for (int i = 0; i < files; i++) {
                Path f = server.file("/small/f" + i);
                Files.createDirectories(f.getParent());
                Files.write(f, mib);
            }
            try (OutputStream out = Files.newOutputStream(server.file("/large"))) {
                for (long left = large; left > 0; left -= mib.length) {
                    out.write(mib, 0, (int) Math.min(mib.length, left));
                }
            }
            server.mkdirs("/up");
            run(List.of("sync"));  // each upload's kXR_sync is an fsync: measure it without the set-up's dirty pages
            URI first = URI.create(server.rootUrl("root", "/small/f0"));
            drain(access.read(first, null, "warm-up"));

            long t0 = System.nanoTime();
            for (int i = 0; i < files; i++) {
                drain(access.read(URI.create(server.rootUrl("root", "/small/f" + i)), null, "transfer"));
            }
            double readMs = (System.nanoTime() - t0) / 1e6 / files;
            System.out.printf("BENCH read %d x 1 MiB, one thread, reused session: %.2f ms/file (%d sessions)%n", files, readMs, access.connectionsOpened());

            ExecutorService pool = Executors.newFixedThreadPool(4);
            t0 = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < files; i++) {
                URI u = URI.create(server.rootUrl("root", "/small/f" + i));
                done.add(pool.submit(() -> {
                    drain(access.read(u, null, "transfer"));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            double read4Ms = (System.nanoTime() - t0) / 1e6 / files;
            System.out.printf("BENCH read %d x 1 MiB, 4 threads: %.2f ms/file (%d sessions)%n", files, read4Ms, access.connectionsOpened());

            t0 = System.nanoTime();
            done.clear();
            for (int i = 0; i < files; i++) {
                URI u = URI.create(server.rootUrl("root", "/up/g" + i));
                done.add(pool.submit(() -> {
                    try (StorageAccess.Upload up = access.write(u, mib.length, null, "transfer")) {
                        up.write(ByteBuffer.wrap(mib));
                        up.commit();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            double write4Ms = (System.nanoTime() - t0) / 1e6 / files;
            System.out.printf("BENCH write %d x 1 MiB, 4 threads: %.2f ms/file (%d sessions)%n", files, write4Ms, access.connectionsOpened());

            run(List.of("sync"));
            t0 = System.nanoTime();
            int sums = Math.min(files, 200);
            for (int i = 0; i < sums; i++) {
                access.stat(URI.create(server.rootUrl("root", "/small/f" + i)), io.ferry.movers.ChecksumAlgorithm.ADLER32, null, "prepare");
            }
            System.out.printf("BENCH stat + server's adler32 of a 1 MiB file, one thread: %.2f ms/file%n", (System.nanoTime() - t0) / 1e6 / sums);

            // a copy streamed through Ferry, as a mover does it: stat with the server's adler32, read, write, adler32 compared
            server.mkdirs("/copy");
            t0 = System.nanoTime();
            done.clear();
            for (int i = 0; i < files; i++) {
                URI from = URI.create(server.rootUrl("root", "/small/f" + i));
                URI to = URI.create(server.rootUrl("root", "/copy/c" + i));
                done.add(pool.submit(() -> {
                    String expected = access.stat(from, io.ferry.movers.ChecksumAlgorithm.ADLER32, null, "prepare").checksum();
                    java.util.zip.Adler32 sum = new java.util.zip.Adler32();
                    ByteBuffer b = ByteBuffer.allocate(1 << 20);
                    try (ReadableByteChannel in = access.read(from, null, "transfer");
                         StorageAccess.Upload up = access.write(to, 1 << 20, null, "transfer")) {
                        while (in.read(b) >= 0) {
                            b.flip();
                            sum.update(b.duplicate());
                            up.write(b);
                            b.clear();
                        }
                        up.commit();
                    }
                    if (!String.format("%08x", sum.getValue()).equals(expected)) {
                        throw new IllegalStateException("adler32 differs for " + from);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            double copyMs = (System.nanoTime() - t0) / 1e6 / files;
            System.out.printf("BENCH copy root->root through Ferry %d x 1 MiB (stat+adler32, read, write), 4 threads: %.2f ms/file (%d sessions)%n",
                    files, copyMs, access.connectionsOpened());

            t0 = System.nanoTime();
            long n = drain(access.read(URI.create(server.rootUrl("root", "/large")), null, "transfer"));
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("BENCH read %d bytes: %.2f s, %.0f MB/s%n", n, s, n / s / 1e6);

            run(List.of("sync"));
            byte[] block = new byte[8 << 20];
            new Random(2).nextBytes(block);
            t0 = System.nanoTime();
            try (StorageAccess.Upload up = access.write(URI.create(server.rootUrl("root", "/up/large")), large, null, "transfer")) {
                for (long left = large; left > 0; left -= block.length) {
                    up.write(ByteBuffer.wrap(block, 0, (int) Math.min(block.length, left)));
                }
                up.commit();
            }
            s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("BENCH write %d bytes (kXR_sync included): %.2f s, %.0f MB/s%n", large, s, large / s / 1e6);
            System.out.println("BENCH server root port " + server.rootPort + " (xrdcp comparisons are run against it by hand)");
            if (Boolean.getBoolean("ferry.xrootd.bench.xrdcp")) {
                xrdcp(server, files);
            }
        } finally {
            DirectoryTrees.delete(dir);
        }
    }

    private static void xrdcp(XrootdServer server, int files) throws Exception {
        int single = Math.min(files, 50);
        long t0 = System.nanoTime();
        for (int i = 0; i < single; i++) {
            run(List.of("xrdcp", "-s", "-f", server.rootUrl("root", "/small/f" + i), "/dev/null"));
        }
        System.out.printf("BENCH xrdcp, one process per 1 MiB file: %.2f ms/file%n", (System.nanoTime() - t0) / 1e6 / single);
        Path out = Files.createTempDirectory("ferry-xrdcp-out");
        List<String> cmd = new ArrayList<>(List.of("xrdcp", "-s", "-f", "--parallel", "4"));
        for (int i = 0; i < files; i++) {
            cmd.add(server.rootUrl("root", "/small/f" + i));
        }
        cmd.add(out.toString() + "/");
        t0 = System.nanoTime();
        run(cmd);
        System.out.printf("BENCH xrdcp --parallel 4, %d files in one process: %.2f ms/file%n", files, (System.nanoTime() - t0) / 1e6 / files);
        DirectoryTrees.delete(out);
        List<String> copy = new ArrayList<>(List.of("xrdcp", "-s", "-f", "--parallel", "4"));
        for (int i = 0; i < files; i++) {
            copy.add(server.rootUrl("root", "/small/f" + i));
        }
        server.mkdirs("/xcopy");
        copy.add(server.rootUrl("root", "/xcopy/"));
        t0 = System.nanoTime();
        run(copy);
        System.out.printf("BENCH xrdcp --parallel 4 root->root, %d files in one process: %.2f ms/file%n", files, (System.nanoTime() - t0) / 1e6 / files);
        t0 = System.nanoTime();
        run(List.of("xrdcp", "-s", "-f", server.rootUrl("root", "/large"), "/dev/null"));
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("BENCH xrdcp large file to /dev/null: %.2f s, %.0f MB/s%n", s, Files.size(server.file("/large")) / s / 1e6);
        run(List.of("sync"));
        t0 = System.nanoTime();
        run(List.of("xrdcp", "-s", "-f", server.file("/large").toString(), server.rootUrl("root", "/up/xlarge")));
        s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("BENCH xrdcp large local file to root:// (no sync): %.2f s, %.0f MB/s%n", s, Files.size(server.file("/large")) / s / 1e6);
    }

    private static void run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(cmd.get(0) + " failed: " + p.exitValue());
        }
    }

    private static long drain(ReadableByteChannel in) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        long n = 0;
        try (in) {
            int r;
            while ((r = in.read(b)) >= 0) {
                n += r;
                b.clear();
            }
        }
        return n;
    }
}
