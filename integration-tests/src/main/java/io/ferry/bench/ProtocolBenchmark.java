package io.ferry.bench;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.dev.S3Server;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import static io.ferry.bench.TransferBenchmark.BIG_ROUNDS;
import static io.ferry.bench.TransferBenchmark.job;
import static io.ferry.bench.TransferBenchmark.median;
import static io.ferry.bench.TransferBenchmark.ok;
import static io.ferry.bench.TransferBenchmark.put;
import static io.ferry.bench.TransferBenchmark.runs;
import static io.ferry.bench.TransferBenchmark.seconds;
import static io.ferry.bench.TransferBenchmark.settle;
import static io.ferry.bench.TransferBenchmark.sh;
import static io.ferry.bench.TransferBenchmark.write;

/**
 * Ferry over S3 (and XRootD, {@link XrootdStores}) against the tools the grid copies with, same machine, same run:
 * one protocol's two SEs, a 1 GiB file and N × 1 MiB from the first to the second, {@link TransferBenchmark#BIG_ROUNDS}
 * interleaved rounds of each tool, medians and ratios. Ferry's times run from submission to FINISHED. Run by
 * {@code integration-tests/bench/protocol-bench.sh}; results in docs/benchmarks.md.
 */
public final class ProtocolBenchmark {

    private ProtocolBenchmark() {
    }

    /**
     * Two SEs of one protocol and how each peer reaches them: {@code url} names a path on either side
     * ({@code /a/…} source, {@code /b/…} destination, and with {@code thirdPartyCopy} {@code /t/…}, a directory of the
     * destination server registered as a third SE that pulls), {@code file} where it lies on disk; {@code peers} maps a
     * peer's name to its single-file command ({@code %s %s}: source, destination) and {@code bulk} to its many-file
     * command ({@code %s %s}: a list of source URLs, the destination directory URL).
     */
    record Stores(String name, String scheme, Function<String, String> url, Function<String, Path> file, Directories mkdirs,
                  Map<String, String> peers, Map<String, BulkPeer> bulk, boolean thirdPartyCopy) {
    }

    /**
     * A many-file peer: its command, and the number of the small files it copies when it is too slow to copy them all
     * in a benchmark's time (0: all); its rate is files copied per second either way.
     */
    record BulkPeer(String command, int sample) {

        static BulkPeer all(String command) {
            return new BulkPeer(command, 0);
        }
    }

    /** Makes a directory the destination's server may write into (XRootD runs as its own user). */
    interface Directories {
        void make(String path) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int smallFiles = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        String only = System.getenv().getOrDefault("FERRY_BENCH_PROTOCOLS", "s3,root");
        Path state = LocalStack.projectRoot().resolve("integration-tests/target/bench-protocols");
        RatesBenchmark.deleteTree(state);
        Files.createDirectories(state);
        List<AutoCloseable> servers = new ArrayList<>();
        try {
            List<Stores> stores = new ArrayList<>();
            StringBuilder accounts = new StringBuilder();
            if (only.contains("s3")) {
                S3Server s3 = new S3Server("bench-a", "bench-b");
                servers.add(s3);
                stores.add(s3Stores(s3));
                for (String se : List.of("S3-A", "S3-B")) {
                    accounts.append("ferry.scheduler.s3.\"BENCH-").append(se).append("\".access-key=").append(S3Server.IDENTITY).append('\n')
                            .append("ferry.scheduler.s3.\"BENCH-").append(se).append("\".secret-key=").append(S3Server.CREDENTIAL).append('\n');
                }
            }
            if (only.contains("root")) {
                stores.addAll(XrootdStores.start(servers));
            }
            Path accountsFile = Files.writeString(state.resolve("s3-accounts.properties"), accounts);
            int port = FreePort.find();
            try (LocalStack stack = new LocalStack(new LocalStack.Options(LocalStack.projectRoot(), state.resolve("stack"),
                    Map.of(ServiceSpec.SCHEDULER, port, ServiceSpec.PROFILES, FreePort.find()), null, FreePort.find(),
                    Map.of("FERRY_SCHEDULER_ENGINE_TICK", "50ms", "FERRY_SCHEDULER_ENGINE_PREPARE_THREADS", "32",
                            "FERRY_CLIENTS_AGGREGATOR_URL", TransferBenchmark.NO_AGGREGATOR, "QUARKUS_CONFIG_LOCATIONS", accountsFile.toUri().toString())))) {
                stack.start(Duration.ofMinutes(3));
                TransferBenchmark.jobStack = stack;
                String base = "http://localhost:" + port;
                String admin = stack.tokens().mint(DevTokens.Claims.of("bench", null, "transfer:admin"));
                String user = stack.tokens().mint(DevTokens.Claims.of("bench", "atlas", "transfer:submit"));
                for (Stores s : stores) {
                    run(s, base, admin, user, stack, smallFiles, concurrency);
                }
            }
        } finally {
            for (AutoCloseable c : servers) {
                c.close();
            }
        }
    }

    static Stores s3Stores(S3Server s3) {
        String keys = "-D 'S3:ACCESS_KEY=" + S3Server.IDENTITY + "' -D 'S3:SECRET_KEY=" + S3Server.CREDENTIAL + "' -D S3:ALTERNATE=true";
        String python = "\"${GFAL_PYTHONBIN:-python3}\" " + LocalStack.projectRoot().resolve("integration-tests/bench") + "/";
        Map<String, String> peers = new LinkedHashMap<>();
        peers.put("gfal-copy", "gfal-copy -f " + keys + " %s %s >/dev/null");
        Map<String, BulkPeer> bulk = new LinkedHashMap<>();
        bulk.put("gfal-copy bulk", BulkPeer.all(python + "gfal-copy-from-file.py " + keys + " --from-file %s %s >/dev/null"));
        bulk.put("gfal2 bulk", BulkPeer.all(python + "gfal-bulk.py " + keys + " %s %s"));
        Function<String, Path> file = p -> s3.bucket("bench-" + p.substring(1, 2)).resolve(p.substring(3));
        return new Stores("s3", "s3", p -> s3.url("/bench-" + p.substring(1)), file, p -> Files.createDirectories(file.apply(p + "/x").getParent()),
                peers, bulk, false);
    }

    /** One protocol: the SEs registered, the files written, a warm-up, then (1) the 1 GiB file and (2) the small files. */
    static void run(Stores s, String base, String admin, String user, LocalStack stack, int smallFiles, int concurrency) throws Exception {
        String a = "BENCH-" + s.name().toUpperCase(Locale.ROOT) + "-A";
        String b = "BENCH-" + s.name().toUpperCase(Locale.ROOT) + "-B";
        String rights = TransferBenchmark.BENCH_RIGHTS;
        put(base + "/endpoints/" + a, admin, "{\"site\":\"" + a + "-SITE\",\"baseUrls\":{\"" + s.scheme() + "\":\"" + s.url().apply("/a") + "\"},\"access\":" + rights + "}");
        put(base + "/endpoints/" + b, admin, "{\"site\":\"" + b + "-SITE\",\"baseUrls\":{\"" + s.scheme() + "\":\"" + s.url().apply("/b") + "\"},\"access\":" + rights
                + ",\"thirdPartyCopy\":false}");
        put(base + "/links/" + a + "/" + b, admin, "{\"min_active\":1,\"max_active\":" + concurrency + ",\"optimizer_mode\":\"fixed\"}");
        if (s.thirdPartyCopy()) {
            String t = "BENCH-" + s.name().toUpperCase(Locale.ROOT) + "-T";
            put(base + "/endpoints/" + t, admin, "{\"site\":\"" + b + "-SITE\",\"baseUrls\":{\"" + s.scheme() + "\":\"" + s.url().apply("/t") + "\"},\"access\":"
                    + rights + ",\"thirdPartyCopy\":true}");
            put(base + "/links/" + a + "/" + t, admin, "{\"min_active\":1,\"max_active\":" + concurrency + ",\"optimizer_mode\":\"fixed\"}");
        }
        for (String side : s.thirdPartyCopy() ? List.of("/b", "/t") : List.of("/b")) {
            s.mkdirs().make(side);
        }
        write(s.file().apply("/a/big/g1"), 1L << 30, 1);
        for (int i = 0; i < smallFiles; i++) {
            write(s.file().apply("/a/small/f" + i), 1 << 20, 1000 + i);
        }
        sh("sync");
        io.ferry.stack.ServiceProcess scheduler = stack.service(ServiceSpec.SCHEDULER);
        // warm-up, not counted: the scheduler's and the movers' paths compiled before anything is timed
        for (int round = 0; round < 3; round++) {
            job(base, user, files(s, smallFiles, "/b/warm" + round + "/f"), "{}");
            clear(s);
        }
        settle(scheduler);
        bigFile(s, base, user);
        settle(scheduler);
        small(s, base, user, smallFiles, concurrency);
    }

    static void bigFile(Stores s, String base, String user) throws Exception {
        Map<String, double[]> times = new LinkedHashMap<>();
        s.peers().keySet().forEach(p -> times.put(p, new double[BIG_ROUNDS]));
        times.put("ferry", new double[BIG_ROUNDS]);
        if (s.thirdPartyCopy()) {
            times.put("ferry tpc", new double[BIG_ROUNDS]);
        }
        for (int round = 0; round < BIG_ROUNDS; round++) {
            for (Map.Entry<String, String> peer : s.peers().entrySet()) {
                String dst = s.url().apply("/b/peers" + round + "/" + peer.getKey().replaceAll("[^a-z0-9]", "") + "-g1");
                times.get(peer.getKey())[round] = seconds(() -> ok(String.format(peer.getValue(), s.url().apply("/a/big/g1"), dst)));
            }
            times.get("ferry")[round] = job(base, user, "[" + file(s, "/a/big/g1", "/b/ferry" + round + "/g1") + "]", "{}");
            if (s.thirdPartyCopy()) {
                times.get("ferry tpc")[round] = job(base, user, "[" + file(s, "/a/big/g1", "/t/ferry" + round + "/g1") + "]", "{}");
            }
            clear(s);
        }
        double mb = (1L << 30) / 1e6;
        System.out.printf(Locale.ROOT, "(%s 1) 1 GiB %s -> %s, median of %d interleaved rounds%n", s.name(), s.scheme(), s.scheme(), BIG_ROUNDS);
        String best = null;
        for (Map.Entry<String, double[]> t : times.entrySet()) {
            System.out.printf(Locale.ROOT, "(%s 1)   %-22s %6.2f s  %-20s %6.0f MB/s%n", s.name(), t.getKey(), median(t.getValue()), runs(t.getValue()),
                    mb / median(t.getValue()));
            if (!t.getKey().startsWith("ferry") && (best == null || median(t.getValue()) < median(times.get(best)))) {
                best = t.getKey();
            }
        }
        for (String ferry : times.keySet().stream().filter(k -> k.startsWith("ferry")).toList()) {
            System.out.printf(Locale.ROOT, "(%s 1) %s / the faster peer (%s), speed: %.2fx (target >= 1.0)%n", s.name(), ferry, best,
                    median(times.get(best)) / median(times.get(ferry)));
        }
    }

    static void small(Stores s, String base, String user, int smallFiles, int concurrency) throws Exception {
        Path list = Files.createTempFile("ferry-bench-list", ".txt");
        StringBuilder sources = new StringBuilder();
        for (int i = 0; i < smallFiles; i++) {
            sources.append(s.url().apply("/a/small/f" + i)).append('\n');
        }
        Files.writeString(list, sources);
        Map<Integer, Path> samples = new LinkedHashMap<>();
        for (BulkPeer peer : s.bulk().values()) {
            if (peer.sample() > 0 && peer.sample() < smallFiles && !samples.containsKey(peer.sample())) {
                samples.put(peer.sample(), Files.writeString(Files.createTempFile("ferry-bench-sample", ".txt"),
                        String.join("\n", sources.toString().lines().limit(peer.sample()).toList()) + "\n"));
            }
        }
        Map<String, double[]> rates = new LinkedHashMap<>();
        s.bulk().keySet().forEach(p -> rates.put(p, new double[BIG_ROUNDS]));
        rates.put("ferry", new double[BIG_ROUNDS]);
        if (s.thirdPartyCopy()) {
            rates.put("ferry tpc", new double[BIG_ROUNDS]);
        }
        for (int round = 0; round < BIG_ROUNDS; round++) {
            for (Map.Entry<String, BulkPeer> peer : s.bulk().entrySet()) {
                String into = s.url().apply("/b/" + peer.getKey().replaceAll("[^a-z0-9]", "") + round + "/");
                s.mkdirs().make("/b/" + peer.getKey().replaceAll("[^a-z0-9]", "") + round);
                int copied = samples.containsKey(peer.getValue().sample()) ? peer.getValue().sample() : smallFiles;
                Path from = copied == smallFiles ? list : samples.get(copied);
                rates.get(peer.getKey())[round] = copied / seconds(() -> ok(String.format(peer.getValue().command(), from, into)));
                clear(s);
            }
            rates.get("ferry")[round] = smallFiles / job(base, user, files(s, smallFiles, "/b/many" + round + "/f"), "{}");
            if (s.thirdPartyCopy()) {
                rates.get("ferry tpc")[round] = smallFiles / job(base, user, files(s, smallFiles, "/t/many" + round + "/f"), "{}");
            }
            clear(s);
        }
        Files.delete(list);
        for (Path sample : samples.values()) {
            Files.delete(sample);
        }
        System.out.printf(Locale.ROOT, "(%s 2) %d x 1 MiB %s -> %s, median of %d interleaved rounds (max_active %d)%n", s.name(), smallFiles,
                s.scheme(), s.scheme(), BIG_ROUNDS, concurrency);
        for (Map.Entry<String, double[]> r : rates.entrySet()) {
            BulkPeer peer = s.bulk().get(r.getKey());
            System.out.printf(Locale.ROOT, "(%s 2)   %-22s %8.1f files/s  %s%s%n", s.name(), r.getKey(), median(r.getValue()), runs(r.getValue()),
                    peer != null && samples.containsKey(peer.sample()) ? "  (over the first " + peer.sample() + " files)" : "");
        }
        for (String ferry : rates.keySet().stream().filter(k -> k.startsWith("ferry")).toList()) {
            for (String peer : s.bulk().keySet()) {
                System.out.printf(Locale.ROOT, "(%s 2) %s / %s, files/s: %.2fx%s%n", s.name(), ferry, peer, median(rates.get(ferry)) / median(rates.get(peer)),
                        peer.equals("gfal-copy bulk") ? " (target >= 1.3)" : "");
            }
        }
    }

    static String files(Stores s, int count, String destPrefix) {
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            many.append(i == 0 ? "" : ",").append(file(s, "/a/small/f" + i, destPrefix + i));
        }
        return many.append(']').toString();
    }

    static String file(Stores s, String src, String dst) {
        return "{\"sources\":[\"" + s.url().apply(src) + "\"],\"destinations\":[\"" + s.url().apply(dst) + "\"]}";
    }

    /** Empties the destination SEs (their files on disk): the next copy writes new files, as the first did. */
    static void clear(Stores s) throws Exception {
        for (String side : s.thirdPartyCopy() ? List.of("/b", "/t") : List.of("/b")) {
            Path dest = s.file().apply(side + "/x").getParent();
            sh("[ ! -d " + dest + " ] || find " + dest + " -mindepth 1 -delete");
            s.mkdirs().make(side);
        }
        sh("sync");
    }
}
