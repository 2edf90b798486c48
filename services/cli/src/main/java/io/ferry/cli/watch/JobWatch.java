package io.ferry.cli.watch;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.cli.client.EventStream;
import io.ferry.cli.client.FerryHttp;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Follows jobs until each has ended: each job's event stream ({@code GET /jobs/{id}/events}) says at once when a
 * file changes state; the files listing, read at most once a second and after each change, adds sizes, bytes moved
 * and error codes. On a terminal the display is redrawn in place (failures scroll above it, one line each); otherwise
 * a line is printed whenever a job's files change state. Answers 0 when every file finished, 1 otherwise.
 */
public final class JobWatch {

    private static final long REFRESH_MILLIS = 1000;

    private record Event(int job, JsonNode body) {
    }

    private final FerryHttp scheduler;
    private final List<JobProgress> jobs = new ArrayList<>();
    private final boolean terminal;
    private final PrintStream out;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private int drawnLines;
    private final List<String> lastPlain = new ArrayList<>();

    private JobWatch(FerryHttp scheduler, List<String> ids, boolean terminal, PrintStream out) {
        this.scheduler = scheduler;
        this.terminal = terminal;
        this.out = out;
        Instant now = Instant.now();
        ids.forEach(id -> {
            jobs.add(new JobProgress(id, now));
            lastPlain.add("");
        });
    }

    public static int watch(FerryHttp scheduler, List<String> ids, boolean terminal, PrintStream out) {
        return new JobWatch(scheduler, ids, terminal, out).run();
    }

    private int run() {
        for (int i = 0; i < jobs.size(); i++) {
            refresh(jobs.get(i)); // an unknown job fails here, before any stream is opened
            follow(i);
        }
        long lastRefresh = System.currentTimeMillis();
        draw();
        while (!jobs.stream().allMatch(JobProgress::over)) {
            boolean changed = false;
            try {
                Event e = events.poll(REFRESH_MILLIS, TimeUnit.MILLISECONDS);
                while (e != null) {
                    jobs.get(e.job()).event(e.body());
                    changed = true;
                    e = events.poll();
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return 1;
            }
            if (changed || System.currentTimeMillis() - lastRefresh >= REFRESH_MILLIS) {
                for (JobProgress j : jobs) {
                    if (!j.over()) {
                        refresh(j);
                    }
                }
                lastRefresh = System.currentTimeMillis();
            }
            draw();
        }
        jobs.forEach(this::refresh);
        draw();
        return jobs.stream().anyMatch(JobProgress::anyFailed) ? 1 : 0;
    }

    private void refresh(JobProgress p) {
        p.files(scheduler.get("/jobs/" + p.jobId() + "/files"));
        p.job(scheduler.get("/jobs/" + p.jobId()));
    }

    /** Reads the job's event stream on a daemon thread; if it breaks, the listing alone keeps the display going. */
    private void follow(int index) {
        Thread t = new Thread(() -> {
            try {
                EventStream.read(scheduler.eventLines("/jobs/" + jobs.get(index).jobId() + "/events"), e -> events.add(new Event(index, e)));
            } catch (RuntimeException e) {
                // refused (too many streams) or cut: polling continues
            }
        }, "ferry-watch-" + index);
        t.setDaemon(true);
        t.start();
    }

    private void draw() {
        Instant now = Instant.now();
        List<String> failures = new ArrayList<>();
        jobs.forEach(j -> j.newFailures().forEach(f -> failures.add(ProgressView.failure(j.jobId(), f))));
        if (terminal) {
            StringBuilder b = new StringBuilder();
            if (drawnLines > 0) {
                b.append("\r\033[").append(drawnLines).append("A\033[J");
            }
            failures.forEach(f -> b.append(f).append('\n'));
            List<String> block = new ArrayList<>();
            jobs.forEach(j -> block.addAll(ProgressView.block(j, now)));
            block.forEach(l -> b.append(l).append("\033[K\n"));
            drawnLines = block.size();
            out.print(b);
            out.flush();
            return;
        }
        failures.forEach(out::println);
        for (int i = 0; i < jobs.size(); i++) {
            JobProgress j = jobs.get(i);
            String key = j.jobState() + " " + j.counts();
            if (!key.equals(lastPlain.get(i))) {
                lastPlain.set(i, key);
                out.println(ProgressView.line(j, now));
            }
        }
        out.flush();
    }
}
