/*
 * Open-loop HTTP/1.1 load at a fixed rate over kept-alive connections, measured the way wrk2 does: request i is due at
 * start + i/rate and goes out on connection i % connections when due (or as soon as that connection is free, if late);
 * its latency counts from the due time, so a slow server cannot hide its queueing (no coordinated omission).
 * Written in C, one thread on epoll, because the load generator must not be what it measures: a JVM client at
 * 25,000-30,000 requests/s on one core showed stalls of its own (its JIT, its GC) even against nginx.
 * A warm-up schedule of 2 s runs first and is drained before the measured one starts; it is not counted.
 *
 *   paced-load host port path-prefix keys rate seconds [connections=32]
 * Each request asks for path-prefix + a random key in 1..keys. Prints, as the benchmark reads them:
 *   PACED  <rate> req/s for <s> s over <c> connections: <n> answered, <e> errors, p50 <ms> ms, p99 <ms> ms
 *   SLOW   <n> requests over 5 ms, in <w> of <W> windows of 100 ms; worst windows (s: count) [...]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BUF (64 * 1024)

typedef struct {
    int fd;
    long request;    /* the request it is on, or sends next */
    int busy;
    size_t have;     /* bytes of the response so far */
    unsigned int seed;
    char in[BUF];
} lane_t;

static const char *host, *prefix;
static int port, keys, nlanes;
static int epfd;
static long errors;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void lane_connect(lane_t *l) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &a.sin_addr);
    l->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (l->fd < 0 || connect(l->fd, (struct sockaddr *) &a, sizeof a) != 0) {
        perror("paced-load: connect");
        exit(1);
    }
    int one = 1;
    setsockopt(l->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = l};
    epoll_ctl(epfd, EPOLL_CTL_ADD, l->fd, &ev);
    l->busy = 0;
    l->have = 0;
}

/* The status of a complete response in l->in (headers and Content-Length body), 0 while incomplete, -1 if malformed. */
static int complete(lane_t *l) {
    char *end = memmem(l->in, l->have, "\r\n\r\n", 4);
    if (!end) {
        return l->have == BUF ? -1 : 0;
    }
    size_t headers = (size_t) (end - l->in) + 4;
    long length = 0;
    for (char *line = l->in; line < end; ) {
        char *eol = memmem(line, (size_t) (end + 2 - line), "\r\n", 2);
        if (!eol) {
            break;
        }
        if (eol - line > 15 && strncasecmp(line, "content-length:", 15) == 0) {
            length = strtol(line + 15, NULL, 10);
        }
        line = eol + 2;
    }
    if (headers + (size_t) length > BUF) {
        return -1;
    }
    if (l->have < headers + (size_t) length || l->have < 12) {
        return 0;
    }
    return atoi(l->in + 9);
}

/* Counts the lane's request as failed, reconnects it and moves it on. */
static void failed(lane_t *l) {
    errors++;
    epoll_ctl(epfd, EPOLL_CTL_DEL, l->fd, NULL);
    close(l->fd);
    lane_connect(l);
    l->request += nlanes;
}

/* Runs one schedule of `total` requests at `rate`; latency[i] in ms, NAN where request i failed. */
static void pace(lane_t *lanes, long total, int rate, double *latency) {
    for (long i = 0; i < total; i++) {
        latency[i] = NAN;
    }
    for (int c = 0; c < nlanes; c++) {
        lanes[c].request = c;
    }
    long long start = now_ns() + 100000000LL, deadline = start + (total / rate + 62LL) * 1000000000LL;
    long finished = 0;
    char out[2048];
    struct epoll_event evs[256];
    while (finished < total && now_ns() < deadline) {
        long long now = now_ns(), next = -1;
        for (int c = 0; c < nlanes; c++) {
            lane_t *l = &lanes[c];
            if (l->busy || l->request >= total) {
                continue;
            }
            long long due = start + l->request * 1000000000LL / rate;
            if (due <= now) {
                int n = snprintf(out, sizeof out, "GET %s%d HTTP/1.1\r\nHost: %s:%d\r\nAccept: application/json\r\n\r\n",
                                 prefix, 1 + (int) (rand_r(&l->seed) % (unsigned) keys), host, port);
                if (write(l->fd, out, (size_t) n) != n) {
                    failed(l);
                    finished++;
                    continue;
                }
                l->busy = 1;
            } else if (next < 0 || due < next) {
                next = due;
            }
        }
        long long wait = next < 0 ? 100000000LL : next - now_ns();
        int timeout = wait >= 1000000LL ? (int) (wait / 1000000LL) : 0;
        int ready = epoll_wait(epfd, evs, 256, timeout);
        if (ready == 0 && timeout == 0 && wait > 0) {
            struct timespec t = {0, (long) wait};
            nanosleep(&t, NULL);
            continue;
        }
        for (int e = 0; e < ready; e++) {
            lane_t *l = evs[e].data.ptr;
            ssize_t n = read(l->fd, l->in + l->have, BUF - l->have);
            if (n <= 0) {
                if (n < 0 && errno == EAGAIN) {
                    continue;
                }
                failed(l);
                finished++;
                continue;
            }
            l->have += (size_t) n;
            int status = complete(l);
            if (status == 0) {
                continue;
            }
            if (status >= 200 && status < 400) {
                latency[l->request] = (now_ns() - (start + l->request * 1000000000LL / rate)) / 1e6;
            } else {
                errors++;
            }
            l->have = 0;
            l->busy = 0;
            l->request += nlanes;
            finished++;
        }
    }
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 7) {
        fprintf(stderr, "usage: paced-load host port path-prefix keys rate seconds [connections=32]\n");
        return 2;
    }
    host = argv[1];
    port = atoi(argv[2]);
    prefix = argv[3];
    keys = atoi(argv[4]);
    int rate = atoi(argv[5]) > 0 ? atoi(argv[5]) : 1;
    int seconds = atoi(argv[6]);
    nlanes = argc > 7 ? atoi(argv[7]) : 32;
    epfd = epoll_create1(0);
    lane_t *lanes = calloc((size_t) nlanes, sizeof *lanes);
    for (int c = 0; c < nlanes; c++) {
        lanes[c].seed = (unsigned) c + 1;
        lane_connect(&lanes[c]);
    }
    double *warm = malloc(sizeof(double) * (size_t) rate * 2);
    pace(lanes, (long) rate * 2, rate, warm);
    errors = 0;
    long total = (long) rate * seconds;
    double *latency = malloc(sizeof(double) * (size_t) total), *sorted = malloc(sizeof(double) * (size_t) total);
    pace(lanes, total, rate, latency);
    long answered = 0, slow = 0;
    int windows = seconds * 10;
    long *per_window = calloc((size_t) windows + 1, sizeof(long));
    for (long i = 0; i < total; i++) {
        if (!isnan(latency[i])) {
            sorted[answered++] = latency[i];
            if (latency[i] > 5) {
                slow++;
                per_window[i * 10 / rate]++;
            }
        }
    }
    qsort(sorted, (size_t) answered, sizeof(double), by_value);
#define PCT(p) (answered ? sorted[(long) fmin(answered - 1, ceil((p) / 100.0 * answered) - 1)] : NAN)
    printf("PACED    %d req/s for %d s over %d connections (half of the maximum): %ld answered, %ld errors, p50 %.2f ms, p99 %.2f ms\n",
           rate, seconds, nlanes, answered, errors, PCT(50), PCT(99));
    int slow_windows = 0;
    for (int w = 0; w < windows; w++) {
        slow_windows += per_window[w] > 0;
    }
    printf("SLOW     %ld requests over 5 ms, in %d of %d windows of 100 ms; worst windows (s: count) [", slow, slow_windows, windows);
    for (int k = 0; k < 5; k++) {
        int worst = -1;
        for (int w = 0; w < windows; w++) {
            if (per_window[w] > 0 && (worst < 0 || per_window[w] > per_window[worst])) {
                worst = w;
            }
        }
        if (worst < 0) {
            break;
        }
        printf("%s%.1f: %ld", k ? ", " : "", worst / 10.0, per_window[worst]);
        per_window[worst] = 0;
    }
    printf("]\n");
    return 0;
}
