package io.ferry.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.dev.NginxWebDav;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;

import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * transfer-scheduler benchmark, in one run on this machine, against one nginx WebDAV server, after uncounted warm-up
 * jobs (the small files, one 1 GiB copy) and a pause until the scheduler is idle:
 * (a) one 1 GiB file: curl|curl, gfal-copy (streamed) and Ferry with the streams the engine chooses by default (and
 * with 1 and 4), interleaved rounds, medians; the ratio to the faster peer and nginx's CPU per GiB for each;
 * (b) N × 1 MiB files: a curl loop, gfal-copy's bulk mode ({@code --from-file}), gfal2's bulk copy and a Ferry job,
 * interleaved rounds,
 * files/s and the CPU per file of the scheduler, nginx and PostgreSQL; the last job's timeline;
 * (c) the 1 GiB into XRootD by third-party copy and streamed through Ferry.
 * Ferry's wall times run from submission to the job's FINISHED state as a user sees it. Results and how to read
 * them: docs/benchmarks.md.
 */
public final class TransferBenchmark {

    static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Uncounted jobs of the small files before the measured ones (FERRY_BENCH_WARM_UP_JOBS): the per-file paths run
     * once a file, so C2 compiles them only after many thousands of files, and its compiler threads would otherwise
     * take CPU during (b).
     */
    static final int WARM_UP_JOBS = Integer.parseInt(System.getenv().getOrDefault("FERRY_BENCH_WARM_UP_JOBS", "24"));
    /** Which of (a), (b), (c) run (FERRY_BENCH_PARTS, e.g. "b" while working on small files); all by default. */
    static final String PARTS = System.getenv().getOrDefault("FERRY_BENCH_PARTS", "abc");
    static final HttpClient HTTP = HttpClient.newHttpClient();
    /**
     * The stack runs tcp-profiles, whose advice is part of the engine's default stream choice, but no rate-aggregator:
     * the outbox keeps its records and pauses, as it does while the aggregator is away, rather than deliver them to
     * whatever else listens on the default port of this shared machine.
     */
    static final String NO_AGGREGATOR = "http://127.0.0.1:1";
    /** The bench's SEs serve its one VO (the scheduler's SEs are closed unless given rights). */
    static final String BENCH_RIGHTS = "{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}";

    public static void main(String[] args) throws Exception {
        int smallFiles = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        Path state = LocalStack.projectRoot().resolve("integration-tests/target/bench-transfers");
        RatesBenchmark.deleteTree(state);
        int port = FreePort.find();
        try (NginxWebDav nginx = new NginxWebDav();
             LocalStack stack = new LocalStack(new LocalStack.Options(LocalStack.projectRoot(), state, Map.of(ServiceSpec.SCHEDULER, port,
                     ServiceSpec.PROFILES, FreePort.find()), null, FreePort.find(), Map.of("FERRY_SCHEDULER_ENGINE_TICK", "50ms",
                     "FERRY_SCHEDULER_ENGINE_PREPARE_THREADS", "32", "FERRY_CLIENTS_AGGREGATOR_URL", NO_AGGREGATOR)))) {
            stack.start(Duration.ofMinutes(3));
            jobStack = stack;
            String base = "http://localhost:" + port;
            String admin = stack.tokens().mint(DevTokens.Claims.of("bench", null, "transfer:admin"));
            String user = stack.tokens().mint(DevTokens.Claims.of("bench", "atlas", "transfer:submit"));
            put(base + "/endpoints/BENCH-A", admin, "{\"site\":\"BENCH-SITE-A\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-a") + "\"},\"access\":" + BENCH_RIGHTS + "}");
            put(base + "/endpoints/BENCH-B", admin, "{\"site\":\"BENCH-SITE-B\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-b") + "\"},\"access\":" + BENCH_RIGHTS + "}");
            put(base + "/links/BENCH-A/BENCH-B", admin, "{\"min_active\":1,\"max_active\":" + concurrency + ",\"optimizer_mode\":\"fixed\"}");

            write(nginx.file("/se-a/tiny/t"), 1024, 3);
            write(nginx.file("/se-a/big/g1"), 1L << 30, 1);
            for (int i = 0; i < smallFiles; i++) {
                write(nginx.file("/se-a/small/f" + i), 1 << 20, 1000 + i);
            }
            write(nginx.file("/se-a/small-as-one/all"), (long) smallFiles << 20, 7);
            // written pages reach the disk before anything is timed (writeback would slow whichever copy runs first)
            sh("sync");
            // Warm-up, not counted, before anything is timed: until the scheduler's paths are compiled, much of its CPU
            // goes to the JIT compiler, whose threads take CPU from nginx during a copy (docs/benchmarks.md); a scheduler
            // in service is past that. Jobs of the small files, one 1 GiB copy,
            // then a pause until the scheduler is idle. Each job's copies are removed after it: nginx's files may live in
            // /dev/shm, and 30 warm-up jobs would fill the machine's memory.
            for (int round = 0; round < WARM_UP_JOBS; round++) {
                job(base, user, smallFilesTo(nginx, smallFiles, "/se-b/warm" + round + "/f"), "{}");
                sh("rm -rf " + nginx.file("/se-b") + "/warm" + round);
            }
            job(base, user, "[" + file(nginx, "/se-a/big/g1", "/se-b/warm/g1") + "]", "{\"nostreams\":1}");
            sh("rm -rf " + nginx.file("/se-b") + "/warm");
            sh("sync");
            settle(stack.service(ServiceSpec.SCHEDULER));

            // the fixed cost of one job: a 1 KiB file end to end (median of 5)
            double[] tiny = new double[5];
            for (int i = 0; i < tiny.length; i++) {
                tiny[i] = job(base, user, "[" + file(nginx, "/se-a/tiny/t", "/se-b/tiny/t" + i) + "]", "{}");
            }
            java.util.Arrays.sort(tiny);
            System.out.printf(Locale.ROOT, "(a) one job of a 1 KiB file, submission to FINISHED: median %.0f ms%n", tiny[2] * 1000);
            double[] t = firstRow(stack, "SELECT extract(epoch FROM f.prepare_started_at - j.submitted_at), extract(epoch FROM f.prepared_at - f.prepare_started_at), "
                    + "extract(epoch FROM f.start_time - f.prepared_at), extract(epoch FROM f.finish_time - f.start_time), "
                    + "extract(epoch FROM j.finished_at - f.finish_time) FROM job j JOIN transfer_file f ON f.job_id = j.job_id WHERE j.job_id = '" + lastJobId + "'");
            System.out.printf(Locale.ROOT, "(a) the last of them: submitted to preparing %.1f ms, preparing %.1f ms, prepared to started %.1f ms, "
                    + "moving %.1f ms, file finished to job FINISHED %.1f ms%n", t[0] * 1000, t[1] * 1000, t[2] * 1000, t[3] * 1000, t[4] * 1000);

            io.ferry.stack.ServiceProcess scheduler = stack.service(ServiceSpec.SCHEDULER);
            boolean gfal = sh("gfal-copy --version >/dev/null 2>&1") == 0;  // installed and able to run
            if (!gfal) {
                System.out.println("-- gfal-copy is not installed: (a) and (b) compare with curl only");
            }
            if (PARTS.contains("a")) {
                bigFile(base, user, nginx, stack, scheduler, gfal);
            }
            if (PARTS.contains("b")) {
                smallFiles(base, user, nginx, stack, scheduler, state, gfal, smallFiles, concurrency);
            }

            // (c) last: its other code paths ran before (b) changed what the JIT had compiled for the small files
            if (PARTS.contains("c")) {
                settle(scheduler);
                thirdPartyCopy(base, admin, user, nginx, scheduler);
            }
        }
    }

    /**
     * (a) One 1 GiB file, {@link #BIG_ROUNDS} interleaved rounds of each tool: curl|curl, gfal-copy (streamed, as
     * Ferry's mover copies: this nginx offers no COPY for a third-party copy), Ferry with the streams the engine
     * chooses when the job and the link name none, and Ferry with 1 and 4 streams for reference. Ferry's times run
     * from submission to FINISHED; the peers get their destination collection made beforehand (Ferry makes its own,
     * timed). nginx's CPU is read from /proc before and after each copy.
     */
    static void bigFile(String base, String user, NginxWebDav nginx, LocalStack stack, io.ferry.stack.ServiceProcess scheduler, boolean gfal)
            throws Exception {
        List<String> tools = new ArrayList<>(List.of(CURL));
        if (gfal) {
            tools.add(GFAL);
        }
        tools.addAll(List.of(FERRY_DEFAULT, "ferry 1 stream", "ferry 4 streams"));
        Map<String, double[]> seconds = new LinkedHashMap<>();
        Map<String, double[]> nginxCpu = new LinkedHashMap<>();
        Map<String, double[]> schedulerCpu = new LinkedHashMap<>();
        tools.forEach(t -> {
            seconds.put(t, new double[BIG_ROUNDS]);
            nginxCpu.put(t, new double[BIG_ROUNDS]);
            schedulerCpu.put(t, new double[BIG_ROUNDS]);
        });
        java.util.Set<Integer> defaultStreams = new java.util.TreeSet<>();
        String src = nginx.url("/se-a/big/g1");
        for (int round = 0; round < BIG_ROUNDS; round++) {
            ok("curl -sf -X MKCOL " + nginx.url("/se-b/peers" + round + "/"));
            for (String tool : tools) {
                String dst = nginx.url("/se-b/peers" + round + "/" + tool.replaceAll("[^a-z0-9]", "") + "-g1");
                long n0 = nginx.cpuMillis(), s0 = scheduler.cpuMillis();
                double t = switch (tool) {
                    case CURL -> seconds(() -> ok("curl -sf " + src + " | curl -sf -T - " + dst));
                    case GFAL -> seconds(() -> ok("gfal-copy -f --copy-mode streamed " + src + " " + dst + " >/dev/null"));
                    case FERRY_DEFAULT -> job(base, user, "[" + file(nginx, "/se-a/big/g1", "/se-b/ferry" + round + "/default/g1") + "]", "{}");
                    default -> job(base, user, "[" + file(nginx, "/se-a/big/g1", "/se-b/ferry" + round + "/s" + tool.charAt(6) + "/g1") + "]",
                            "{\"nostreams\":" + tool.charAt(6) + "}");
                };
                seconds.get(tool)[round] = t;
                nginxCpu.get(tool)[round] = (nginx.cpuMillis() - n0) / 1000.0;
                schedulerCpu.get(tool)[round] = (scheduler.cpuMillis() - s0) / 1000.0;
                if (tool.equals(FERRY_DEFAULT)) {
                    defaultStreams.add((int) firstRow(stack, "SELECT streams FROM transfer_file WHERE job_id = '" + lastJobId + "'")[0]);
                }
            }
            sh("rm -rf " + nginx.file("/se-b") + "/*");
        }
        double gib = (1L << 30) / 1e6;
        System.out.printf(Locale.ROOT, "(a) 1 GiB nginx -> nginx, median of %d interleaved rounds (the engine's default chose %s stream(s))%n",
                BIG_ROUNDS, defaultStreams.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining("/")));
        System.out.printf(Locale.ROOT, "(a)   %-16s %8s  %-18s %6s  %14s  %14s%n", "tool", "time", "runs", "MB/s", "nginx CPU/GiB", "scheduler CPU");
        for (String tool : tools) {
            double m = median(seconds.get(tool));
            System.out.printf(Locale.ROOT, "(a)   %-16s %6.2f s  %-18s %6.0f  %12.2f s  %s%n", tool, m, runs(seconds.get(tool)), gib / m,
                    median(nginxCpu.get(tool)), tool.startsWith("ferry") ? String.format(Locale.ROOT, "%12.2f s", median(schedulerCpu.get(tool))) : "");
        }
        String best = gfal && median(seconds.get(GFAL)) < median(seconds.get(CURL)) ? GFAL : CURL;
        System.out.printf(Locale.ROOT, "(a) ferry default / best peer (%s), speed: %.2fx (target >= 1.0); nginx CPU per GiB serving ferry default / "
                        + "serving curl|curl: %.2f (target <= 1.0)%n", best, median(seconds.get(best)) / median(seconds.get(FERRY_DEFAULT)),
                median(nginxCpu.get(FERRY_DEFAULT)) / median(nginxCpu.get(CURL)));
    }

    static final String CURL = "curl|curl";
    static final String GFAL = "gfal-copy";
    static final String FERRY_DEFAULT = "ferry default";
    static final String GFAL_FROM_FILE = "gfal-copy bulk";

    /**
     * (b) N × 1 MiB: a sequential curl loop once, then {@link #BIG_ROUNDS} interleaved rounds of gfal-copy's bulk mode
     * ({@code --copy-mode streamed --from-file}, one process for all files), gfal2's bulk copy (one filecopy call for all
     * files) and a Ferry job of the same files; files/s,
     * medians, and the CPU per file of the scheduler, nginx and PostgreSQL during Ferry's job (nginx's during gfal's).
     * The last Ferry job's timeline (phases, idle gaps) follows.
     */
    static void smallFiles(String base, String user, NginxWebDav nginx, LocalStack stack, io.ferry.stack.ServiceProcess scheduler, Path state,
                           boolean gfal, int smallFiles, int concurrency) throws Exception {
        ok("curl -sf -X MKCOL " + nginx.url("/se-b/loop/"));
        long loopNginx0 = nginx.cpuMillis();
        double loop = seconds(() -> {
            for (int i = 0; i < smallFiles; i++) {
                ok("curl -sf " + nginx.url("/se-a/small/f" + i) + " | curl -sf -T - " + nginx.url("/se-b/loop/f" + i));
            }
            return 0;
        });
        double loopNginx = (double) (nginx.cpuMillis() - loopNginx0) / smallFiles;
        sh("rm -rf " + nginx.file("/se-b") + "/*; sync");
        ProcessHandle postgres = postmaster(state);
        long pureCpu0 = scheduler.cpuMillis() + nginx.cpuMillis() + io.ferry.dev.ProcessCpu.millis(postgres);
        double pure = job(base, user, "[" + file(nginx, "/se-a/small-as-one/all", "/se-b/one/all") + "]", "{\"nostreams\":1}");
        long pureCpu = scheduler.cpuMillis() + nginx.cpuMillis() + io.ferry.dev.ProcessCpu.millis(postgres) - pureCpu0;
        sh("rm -rf " + nginx.file("/se-b") + "/one; sync");
        Path list = state.resolve("gfal-bulk.list");
        StringBuilder sources = new StringBuilder();
        for (int i = 0; i < smallFiles; i++) {
            sources.append(nginx.url("/se-a/small/f" + i)).append('\n');
        }
        Files.writeString(list, sources);
        // gfal-copy --from-file (its per-file steps, through bench/gfal-copy-from-file.py: nginx cannot tell gfal-copy that
        // the destination is a collection) and gfal2's bulk copy (one filecopy call for all files: no per-file stat)
        String python = "\"${GFAL_PYTHONBIN:-python3}\" " + LocalStack.projectRoot().resolve("integration-tests/bench") + "/";
        Map<String, String> gfalTools = new LinkedHashMap<>();
        gfalTools.put(GFAL_FROM_FILE, python + "gfal-copy-from-file.py --copy-mode streamed --from-file " + list + " %s >/dev/null");
        gfalTools.put("gfal2 bulk", python + "gfal-bulk.py " + list + " %s");
        Map<String, double[]> gfalRate = new LinkedHashMap<>(), gfalNginx = new LinkedHashMap<>();
        gfalTools.keySet().forEach(t -> {
            gfalRate.put(t, new double[BIG_ROUNDS]);
            gfalNginx.put(t, new double[BIG_ROUNDS]);
        });
        double[] ferryRate = new double[BIG_ROUNDS], ferrySeconds = new double[BIG_ROUNDS];
        double[] schedMs = new double[BIG_ROUNDS], nginxMs = new double[BIG_ROUNDS], pgMs = new double[BIG_ROUNDS];
        String measured = null;
        long lastSched = 0, lastNginx = 0, lastPg = 0;
        double[] pgWork0 = null;
        String pgReads0 = null;
        for (int round = 0; round < BIG_ROUNDS; round++) {
            for (Map.Entry<String, String> tool : gfal ? gfalTools.entrySet() : Map.<String, String>of().entrySet()) {
                String into = nginx.url("/se-b/gfal" + round + "/");
                ok("curl -sf -X MKCOL " + into);
                long n0 = nginx.cpuMillis();
                double t = seconds(() -> ok(String.format(tool.getValue(), into)));
                gfalRate.get(tool.getKey())[round] = smallFiles / t;
                gfalNginx.get(tool.getKey())[round] = (double) (nginx.cpuMillis() - n0) / smallFiles;
                sh("rm -rf " + nginx.file("/se-b") + "/*; sync");
            }
            settle(scheduler);
            pgWork0 = firstRow(stack, PG_WORK);
            pgReads0 = firstText(stack, PG_READS);
            statementsReset(stack);
            long sched0 = scheduler.cpuMillis(), nginx0 = nginx.cpuMillis(), pg0 = io.ferry.dev.ProcessCpu.millis(postgres);
            double e2e = job(base, user, smallFilesTo(nginx, smallFiles, "/se-b/many" + round + "/f"), "{}");
            lastSched = scheduler.cpuMillis() - sched0;
            lastNginx = nginx.cpuMillis() - nginx0;
            lastPg = io.ferry.dev.ProcessCpu.millis(postgres) - pg0;
            measured = lastJobId;
            ferrySeconds[round] = e2e;
            ferryRate[round] = smallFiles / e2e;
            schedMs[round] = (double) lastSched / smallFiles;
            nginxMs[round] = (double) lastNginx / smallFiles;
            pgMs[round] = (double) lastPg / smallFiles;
            sh("rm -rf " + nginx.file("/se-b") + "/*; sync");
        }
        System.out.printf(Locale.ROOT, "(b) %d x 1 MiB, median of %d interleaved rounds (max_active %d)%n", smallFiles, BIG_ROUNDS, concurrency);
        System.out.printf(Locale.ROOT, "(b)   %-16s %8s  %-20s  %s%n", "tool", "files/s", "runs", "CPU per file");
        System.out.printf(Locale.ROOT, "(b)   %-16s %8.0f  %-20s  nginx %.2f ms%n", "curl loop", smallFiles / loop, "(one run)", loopNginx);
        if (gfal) {
            gfalTools.keySet().forEach(t -> System.out.printf(Locale.ROOT, "(b)   %-16s %8.0f  %-20s  nginx %.2f ms%n", t, median(gfalRate.get(t)),
                    runs(gfalRate.get(t)), median(gfalNginx.get(t))));
        }
        System.out.printf(Locale.ROOT, "(b)   %-16s %8.0f  %-20s  nginx %.2f ms, scheduler %.2f ms, PostgreSQL %.2f ms%n", "ferry", median(ferryRate),
                runs(ferryRate), median(nginxMs), median(schedMs), median(pgMs));
        if (gfal) {
            System.out.printf(Locale.ROOT, "(b) ferry / %s, files/s: %.2fx (target >= 2.0; runs %s); ferry / gfal2 bulk %.2fx (runs %s)%n",
                    GFAL_FROM_FILE, median(ferryRate) / median(gfalRate.get(GFAL_FROM_FILE)), ratios(ferryRate, gfalRate.get(GFAL_FROM_FILE)),
                    median(ferryRate) / median(gfalRate.get("gfal2 bulk")), ratios(ferryRate, gfalRate.get("gfal2 bulk")));
        }
        System.out.printf(Locale.ROOT, "(b) ferry / curl loop, files/s: %.1fx%n", median(ferryRate) * loop / smallFiles);
        double e2e = ferrySeconds[BIG_ROUNDS - 1];
        System.out.printf(Locale.ROOT, "(b) the last ferry job: submitting it took %.2f s; pure data time (same %d MiB as one file through ferry, one stream) "
                + "%.2f s; overhead ratio %.3f%n", lastSubmitSeconds, smallFiles, pure, e2e / pure);
        cpuBound(smallFiles, pure, pureCpu, e2e, lastSched + lastNginx + lastPg);
        settle(scheduler);
        Thread.sleep(1000);  // PostgreSQL publishes its statistics with a delay
        double[] pgWork = firstRow(stack, PG_WORK);
        System.out.printf(Locale.ROOT, "(b) PostgreSQL per file during the last job (and what idle loops did meanwhile): %.1f transactions, %.1f rows "
                        + "inserted, %.1f updated, %.1f deleted, %.0f read%n", (pgWork[0] - pgWork0[0]) / smallFiles, (pgWork[1] - pgWork0[1]) / smallFiles,
                (pgWork[2] - pgWork0[2]) / smallFiles, (pgWork[3] - pgWork0[3]) / smallFiles, (pgWork[4] - pgWork0[4]) / smallFiles);
        System.out.println("(b) rows read per file, by table scan or index: " + topReads(pgReads0, firstText(stack, PG_READS), smallFiles));
        statements(stack, smallFiles);
        phases(stack, measured);
        double inFlight = dataInFlight(stack, measured);
        System.out.printf(Locale.ROOT, "(b) some file moving (union of the files' transfer intervals) %.2f s of the %.2f s: "
                        + "end-to-end / in-flight %.3f; the rest is time with no byte in flight (submission, scheduling gaps, job state)%n",
                inFlight, e2e, e2e / inFlight);
        double[] gaps = firstRow(stack, "SELECT extract(epoch FROM min(f.start_time) - j.submitted_at), "
                + "extract(epoch FROM max(f.finish_time) - min(f.start_time)), extract(epoch FROM j.finished_at - max(f.finish_time)) "
                + "FROM job j JOIN transfer_file f ON f.job_id = j.job_id WHERE j.job_id = '" + measured + "' GROUP BY j.job_id");
        System.out.printf(Locale.ROOT, "(b) no byte in flight: answering the submission %.3f s, job submitted (server time) to first transfer %.3f s, "
                        + "between transfers %.3f s, last transfer to job FINISHED %.3f s%n", lastSubmitSeconds, gaps[0],
                gaps[1] - inFlight, gaps[2]);
        System.out.println("(b) between transfers: " + idleGaps(stack, measured));
    }

    /** The scheduler database's transactions and rows written and read so far (pg_stat_database). */
    static final String PG_WORK = "SELECT xact_commit + xact_rollback, tup_inserted, tup_updated, tup_deleted, tup_returned + tup_fetched "
            + "FROM pg_stat_database WHERE datname = current_database()";

    /** Rows read so far per sequential scan of a table ("seq table") and per index, as "name=count;…". */
    static final String PG_READS = "SELECT coalesce(string_agg(n || '=' || c, ';'), '') FROM (SELECT 'seq ' || relname AS n, seq_tup_read AS c "
            + "FROM pg_stat_user_tables UNION ALL SELECT indexrelname, idx_tup_read FROM pg_stat_user_indexes) x";

    /** The three largest growths between two {@link #PG_READS} answers, per file. */
    static String topReads(String before, String after, int files) {
        Map<String, Long> start = new java.util.HashMap<>();
        for (String kv : before.split(";")) {
            if (kv.contains("=")) {
                start.put(kv.substring(0, kv.lastIndexOf('=')), Long.parseLong(kv.substring(kv.lastIndexOf('=') + 1)));
            }
        }
        List<Map.Entry<String, Long>> grown = new ArrayList<>();
        for (String kv : after.split(";")) {
            if (kv.contains("=")) {
                String name = kv.substring(0, kv.lastIndexOf('='));
                grown.add(Map.entry(name, Long.parseLong(kv.substring(kv.lastIndexOf('=') + 1)) - start.getOrDefault(name, 0L)));
            }
        }
        grown.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        StringBuilder b = new StringBuilder();
        grown.stream().limit(3).forEach(e -> b.append(b.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                .append(String.format(Locale.ROOT, "%.0f", (double) e.getValue() / files)));
        return b.toString();
    }

    /** Round by round, {@code a[i] / b[i]}. */
    static String ratios(double[] a, double[] b) {
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] / b[i];
        }
        return runs(r);
    }

    /**
     * Why the overhead ratio is what it is on this machine: when the job keeps every core busy, its wall time is its
     * CPU divided by the cores, so the ratio cannot fall below the CPU the job needs over what the one-file copy of the
     * same bytes needed. Prints the CPU per file that a ratio of 1.05 would leave for everything but the bytes (HTTP
     * requests, state changes, the outbox record) next to what the job spent on it.
     */
    static void cpuBound(int files, double pure, long pureCpuMillis, double e2e, long jobCpuMillis) {
        int cores = Runtime.getRuntime().availableProcessors();
        double busy = jobCpuMillis / 1000.0 / (cores * e2e);
        double budget = (1.05 * pure * cores * 1000 - pureCpuMillis) / files;
        System.out.printf(Locale.ROOT, "(b) CPU budget: the job kept %.0f %% of %d cores busy; the one-file copy used %.2f s of CPU (%.2f ms per MiB). "
                        + "A ratio of 1.05 leaves %.2f ms of CPU per file beyond the bytes at best; the job spent %.2f ms per file beyond them%n",
                100 * busy, cores, pureCpuMillis / 1000.0, (double) pureCpuMillis / files, budget, (double) (jobCpuMillis - pureCpuMillis) / files);
    }

    /**
     * (c) The same 1 GiB into XRootD (Debian's xrootd-server with its HTTP-TPC plugin), once by third-party copy (the
     * SE pulls from nginx; Ferry asks, follows the markers and checks the digest) and once streamed through Ferry,
     * interleaved; skipped when XRootD is not installed.
     */
    static void thirdPartyCopy(String base, String admin, String user, NginxWebDav nginx, io.ferry.stack.ServiceProcess scheduler) throws Exception {
        if (sh("command -v xrootd >/dev/null && ls /usr/lib/*/libXrdHttpTPC-5.so >/dev/null 2>&1") != 0) {
            System.out.println("(c) third-party copy: skipped (xrootd-server and xrootd-server-plugins are not installed)");
            return;
        }
        Path pki = java.nio.file.Files.createTempDirectory("ferry-bench-pki");
        try (io.ferry.dev.XrootdServer xrootd = new io.ferry.dev.XrootdServer(io.ferry.dev.TestCertificates.create(pki))) {
            xrootd.mkdirs("/store/tpc");
            xrootd.mkdirs("/store/streamed");
            put(base + "/endpoints/BENCH-XRD-TPC", admin, "{\"site\":\"BENCH-SITE-X\",\"baseUrls\":{\"http\":\"" + xrootd.httpUrl("/store/tpc")
                    + "\"},\"thirdPartyCopy\":true,\"access\":" + BENCH_RIGHTS + "}");
            put(base + "/endpoints/BENCH-XRD", admin, "{\"site\":\"BENCH-SITE-X\",\"baseUrls\":{\"http\":\"" + xrootd.httpUrl("/store/streamed")
                    + "\"},\"access\":" + BENCH_RIGHTS + "}");
            String adler = adler32(nginx.file("/se-a/big/g1"));  // as a catalogue gives it with the job
            double[] tpc = new double[BIG_ROUNDS], streamed = new double[BIG_ROUNDS];
            long tpcCpu = 0, streamedCpu = 0, tpcServer = 0, streamedServer = 0;
            for (int round = 0; round < BIG_ROUNDS; round++) {
                for (boolean pull : new boolean[] {true, false}) {
                    String dest = xrootd.httpUrl("/store/" + (pull ? "tpc" : "streamed") + "/r" + round + "/g1");
                    long s0 = scheduler.cpuMillis(), x0 = xrootd.cpuMillis();
                    double t = job(base, user, "[{\"sources\":[\"" + nginx.url("/se-a/big/g1") + "\"],\"destinations\":[\"" + dest
                            + "\"],\"checksum\":\"ADLER32:" + adler + "\"}]", "{\"nostreams\":1,\"verify_checksum\":\"both\"}");
                    if (pull) {
                        tpc[round] = t;
                        tpcCpu += scheduler.cpuMillis() - s0;
                        tpcServer += xrootd.cpuMillis() - x0;
                    } else {
                        streamed[round] = t;
                        streamedCpu += scheduler.cpuMillis() - s0;
                        streamedServer += xrootd.cpuMillis() - x0;
                    }
                }
                sh("rm -rf " + xrootd.file("/store/tpc") + "/r* " + xrootd.file("/store/streamed") + "/r*");
            }
            if (!xrootd.log().contains("event=TRANSFER_SUCCESS")) {
                throw new IllegalStateException("XRootD logged no third-party copy: " + xrootd.log());
            }
            System.out.printf(Locale.ROOT, "(c) 1 GiB nginx -> XRootD, verify_checksum both, median of %d interleaved rounds  third-party copy %.2f s "
                            + "(runs %s; the scheduler %.2f s CPU, XRootD %.2f s)   streamed through ferry %.2f s (runs %s; the scheduler %.2f s CPU, "
                            + "XRootD %.2f s)%n", BIG_ROUNDS, median(tpc), runs(tpc), tpcCpu / 1000.0 / BIG_ROUNDS, tpcServer / 1000.0 / BIG_ROUNDS,
                    median(streamed), runs(streamed), streamedCpu / 1000.0 / BIG_ROUNDS, streamedServer / 1000.0 / BIG_ROUNDS);
        } finally {
            io.ferry.dev.DirectoryTrees.delete(pki);
        }
    }

    static String adler32(Path file) throws java.io.IOException {
        java.util.zip.Adler32 a = new java.util.zip.Adler32();
        byte[] buf = new byte[1 << 20];
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                a.update(buf, 0, n);
            }
        }
        return String.format("%08x", a.getValue());
    }

    /** The benchmark's PostgreSQL server process (its command line names the data directory under {@code state}). */
    static ProcessHandle postmaster(Path state) {
        String dir = state.resolve("pgdata").toString();
        return ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains(dir)).orElse(false)
                && h.parent().map(p -> !p.info().commandLine().map(c -> c.contains(dir)).orElse(false)).orElse(true)).findFirst().orElse(null);
    }

    /**
     * Waits (at most a minute) until the scheduler used under 5 % of a core over two seconds: the JIT compiler done
     * with what the warm-up ran, and no work left over from the previous step.
     */
    static void settle(io.ferry.stack.ServiceProcess scheduler) throws Exception {
        long t0 = System.nanoTime();
        long cpu = scheduler.cpuMillis();
        double share = 1;
        while (System.nanoTime() - t0 < 60_000_000_000L) {
            Thread.sleep(2000);
            long now = scheduler.cpuMillis();
            share = (now - cpu) / 2000.0;
            cpu = now;
            if (share < 0.05) {
                break;
            }
        }
        System.out.printf(Locale.ROOT, "-- scheduler idle after %.0f s (%.1f %% of a core over the last 2 s)%n", (System.nanoTime() - t0) / 1e9, share * 100);
    }

    /**
     * The job's moving periods as a CTE {@code islands (b, e)}: the union of its files' [start_time, finish_time]
     * intervals, overlapping ones merged.
     */
    static String islands(String jobId) {
        return "WITH iv AS (SELECT start_time s, finish_time f FROM transfer_file WHERE job_id = '" + jobId + "' AND state = 'FINISHED'), "
                + "marked AS (SELECT s, f, CASE WHEN s > max(f) OVER (ORDER BY s, f ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) "
                + "THEN 1 ELSE 0 END AS starts_island FROM iv), "
                + "islands AS (SELECT min(s) b, max(f) e FROM (SELECT s, f, sum(starts_island) OVER (ORDER BY s, f) AS island FROM marked) x "
                + "GROUP BY island) ";
    }

    /**
     * Seconds during which at least one small file was in its transfer phase. Time outside it is overhead the
     * pipeline did not hide behind other files' data.
     */
    static double dataInFlight(LocalStack stack, String jobId) throws Exception {
        return firstRow(stack, islands(jobId) + "SELECT coalesce(sum(extract(epoch FROM e - b)), 0) FROM islands")[0];
    }

    /**
     * The periods between transfers in which no file was moving: how many, and the longest three as "seconds after
     * submission (length ms, files prepared and waiting)", to tell a steady trickle of short gaps from a few stalls.
     */
    static String idleGaps(LocalStack stack, String jobId) throws Exception {
        return firstText(stack, islands(jobId) + ", gaps AS (SELECT lead(b) OVER (ORDER BY b) - e AS len, e FROM islands), "
                + "top AS (SELECT len, e FROM gaps WHERE len IS NOT NULL ORDER BY len DESC LIMIT 3) "
                + "SELECT (SELECT count(*) FROM gaps WHERE len IS NOT NULL) || ' gaps, longest: ' || coalesce((SELECT string_agg(to_char(extract(epoch FROM "
                + "t.e - j.submitted_at), 'FM990.00') || ' s (' || to_char(extract(epoch FROM t.len) * 1000, 'FM9990.0') || ' ms, ' "
                + "|| (SELECT count(*) FROM transfer_file r WHERE r.job_id = j.job_id AND r.prepared_at <= t.e AND r.start_time > t.e) "
                + "|| ' files prepared and waiting)', ', ' ORDER BY t.len DESC) FROM top t, job j WHERE j.job_id = '" + jobId + "'), 'none')");
    }

    static final boolean STATEMENTS = System.getenv().getOrDefault("FERRY_PG_PRELOAD", "").contains("pg_stat_statements");

    static void statementsReset(LocalStack stack) throws Exception {
        if (!STATEMENTS) {
            return;
        }
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(stack.postgres().jdbcUrl("ferry_scheduler"), stack.postgres().user(),
                stack.postgres().password()); java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        }
    }

    static void statements(LocalStack stack, int files) throws Exception {
        if (!STATEMENTS) {
            return;
        }
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(stack.postgres().jdbcUrl("ferry_scheduler"), stack.postgres().user(),
                stack.postgres().password()); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet r = st.executeQuery("SELECT calls, total_exec_time, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 150), total_plan_time "
                     + "FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = 'ferry_scheduler' ORDER BY calls DESC")) {
            long calls = 0;
            double ms = 0;
            double planMs = 0;
            StringBuilder top = new StringBuilder();
            int n = 0;
            while (r.next()) {
                calls += r.getLong(1);
                ms += r.getDouble(2);
                planMs += r.getDouble(5);
                if (n++ < 25) {
                    top.append(String.format(Locale.ROOT, "(b)   %6.3f/file %7.3f ms/file plan %6.3f rows %6.2f/file  %s%n", r.getLong(1) / (double) files,
                            r.getDouble(2) / files, r.getDouble(5) / files, r.getLong(3) / (double) files, r.getString(4)));
                }
            }
            System.out.printf(Locale.ROOT, "(b) statements during the last job: %.2f per file, %.3f ms execution and %.3f ms planning per file%n%s", calls / (double) files, ms / files, planMs / files, top);
        }
    }

    static String firstText(LocalStack stack, String sql) throws Exception {
        return firstRow(stack, sql, r -> r.getString(1));
    }

    /** The first row of a query on the scheduler's database, as numbers. */
    static double[] firstRow(LocalStack stack, String sql) throws Exception {
        return firstRow(stack, sql, r -> {
            double[] row = new double[r.getMetaData().getColumnCount()];
            for (int i = 0; i < row.length; i++) {
                row[i] = r.getDouble(i + 1);
            }
            return row;
        });
    }

    interface RowReader<T> {
        T read(java.sql.ResultSet row) throws java.sql.SQLException;
    }

    static <T> T firstRow(LocalStack stack, String sql, RowReader<T> reader) throws Exception {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(stack.postgres().jdbcUrl("ferry_scheduler"), stack.postgres().user(),
                stack.postgres().password()); java.sql.Statement st = c.createStatement(); java.sql.ResultSet r = st.executeQuery(sql)) {
            r.next();
            return reader.read(r);
        }
    }

    /** The files of the small-file job, copied to {@code destPrefix} + index. */
    static String smallFilesTo(NginxWebDav nginx, int count, String destPrefix) {
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            many.append(i == 0 ? "" : ",").append(file(nginx, "/se-a/small/f" + i, destPrefix + i));
        }
        return many.append(']').toString();
    }

    /** Where the small files' time went, per file on average, from the scheduler's own bookkeeping. */
    static void phases(LocalStack stack, String jobId) throws Exception {
        double[] r = firstRow(stack, "SELECT count(*), avg(extract(epoch FROM prepare_started_at - submitted_at)), "
                + "avg(extract(epoch FROM prepared_at - prepare_started_at)), avg(extract(epoch FROM start_time - prepared_at)), "
                + "avg(extract(epoch FROM finish_time - start_time)), extract(epoch FROM max(finish_time) - min(submitted_at)) "
                + "FROM transfer_file WHERE job_id = '" + jobId + "' AND state = 'FINISHED'");
        System.out.printf(Locale.ROOT, "(b) per file: waiting to be prepared %.0f ms, preparing %.1f ms, prepared to started %.0f ms, "
                + "moving %.1f ms; first submit to last finish %.2f s over %.0f files%n", r[1] * 1000, r[2] * 1000,
                r[3] * 1000, r[4] * 1000, r[5], r[0]);
    }

    static final int BIG_ROUNDS = 3;

    static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    static String runs(double[] values) {
        StringBuilder b = new StringBuilder();
        for (double v : values) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", v));
        }
        return b.toString();
    }

    interface Timed {
        int run() throws Exception;
    }

    static double seconds(Timed t) throws Exception {
        long t0 = System.nanoTime();
        t.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Runs a peer's command, which must succeed: a failed copy timed as a copy would flatter the peer or Ferry. */
    static int ok(String command) throws Exception {
        int status = sh(command);
        if (status != 0) {
            throw new IllegalStateException("exit status " + status + ": " + command);
        }
        return status;
    }

    static int sh(String command) throws Exception {
        return new ProcessBuilder("bash", "-c", "set -o pipefail; " + command).inheritIO().start().waitFor();
    }

    static String file(NginxWebDav nginx, String src, String dst) {
        return "{\"sources\":[\"" + nginx.url(src) + "\"],\"destinations\":[\"" + nginx.url(dst) + "\"]}";
    }

    /**
     * Submits a job and answers the seconds from submission to the moment the scheduler recorded it FINISHED (the job's
     * {@code finished_at} in its database, same clock; fails the benchmark unless FINISHED). The job is polled every
     * 250 ms: the end time is the server's, so polling faster would only load the machine being measured (at 50 ms,
     * the polls' token checks and status answers took about a tenth of the scheduler's CPU during the small-file job).
     */
    static double job(String base, String token, String files, String params) throws Exception {
        java.time.Instant submitted = java.time.Instant.now();
        HttpResponse<String> r = send("POST", base + "/jobs", token, "{\"files\":" + files + ",\"params\":" + params + "}");
        if (r.statusCode() != 200) {
            throw new IllegalStateException("submit: " + r.statusCode() + " " + r.body());
        }
        String id = JSON.readTree(r.body()).get("job_id").asText();
        lastSubmitSeconds = Duration.between(submitted, java.time.Instant.now()).toNanos() / 1e9;
        lastJobId = id;
        while (true) {
            JsonNode job = JSON.readTree(send("GET", base + "/jobs/" + id, token, null).body());
            String s = job.path("job_state").asText();
            if (s.equals("FINISHED")) {
                // FTS3's job_finished is whole seconds, too coarse for jobs of a few seconds: the database has microseconds
                double finished = firstRow(jobStack, "SELECT extract(epoch FROM finished_at) FROM job WHERE job_id = '" + id + "'")[0];
                return finished - (submitted.getEpochSecond() + submitted.getNano() / 1e9);
            }
            if (s.equals("FAILED") || s.equals("FINISHEDDIRTY") || s.equals("CANCELED")) {
                throw new IllegalStateException("job " + id + " ended " + s + ": " + send("GET", base + "/jobs/" + id + "/files", token, null).body());
            }
            Thread.sleep(250);
        }
    }

    /** The stack whose scheduler database {@link #job} reads the finish time from. */
    static LocalStack jobStack;

    /** How long the last submission took to be answered (its files were stored by then). */
    static double lastSubmitSeconds;
    static String lastJobId;

    static void put(String url, String token, String body) throws Exception {
        HttpResponse<String> r = send("PUT", url, token, body);
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(url + ": " + r.statusCode() + " " + r.body());
        }
    }

    static HttpResponse<String> send(String method, String url, String token, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static void write(Path file, long size, long seed) throws Exception {
        Files.createDirectories(file.getParent());
        byte[] block = new byte[1 << 20];
        Random rnd = new Random(seed);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = size; left > 0; left -= block.length) {
                rnd.nextBytes(block);
                out.write(block, 0, (int) Math.min(block.length, left));
            }
        }
    }
}
