/*
 * The small C helpers Substrate VM images call by name (GraalVM ships them as liblibchelper.a, which no
 * registry carries). Each function keeps the name and signature the builder's @CFunction declarations use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "svm_locale.h"

extern char **environ;

char **getEnviron(void) { return environ; }

int getThreadId(void) { return (int) syscall(SYS_gettid); }

/* User CPU time of thread tid in nanoseconds, from /proc (field 14 of stat, in clock ticks). */
long getThreadUserTimeSlow(int tid) {
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
    FILE *f = fopen(path, "r");
    if (f == NULL) return -1;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may contain spaces */
    if (p == NULL) return -1;
    unsigned long utime = 0;
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu", &utime) != 1) return -1;
    return (long) (utime * (1000000000L / sysconf(_SC_CLK_TCK)));
}

/* Fixed-arity wrappers: the image calls them without varargs. */
int openSII(const char *path, int flags, int mode) { return open(path, flags, mode); }
int openatISII(int dirfd, const char *path, int flags, int mode) { return openat(dirfd, path, flags, mode); }
int fprintfSD(FILE *f, const char *format, const char *s, int d) { return fprintf(f, format, s, d); }
void *mremapP(void *old, size_t old_size, size_t new_size, int flags, void *new_address) {
    return mremap(old, old_size, new_size, flags, new_address);
}

/* ---- time zone: TZ, then /etc/timezone, then where /etc/localtime points into zoneinfo ---- */

static char *zone_from_path(const char *path) {
    const char *marker = strstr(path, "zoneinfo/");
    return marker == NULL ? NULL : strdup(marker + strlen("zoneinfo/"));
}

/* The tz mappings argument only matters on Windows. Returns a malloc'd zone id or NULL (meaning GMT). */
char *SVM_FindJavaTZmd(const char *tz_mappings, int length) {
    (void) tz_mappings; (void) length;
    const char *tz = getenv("TZ");
    if (tz != NULL && *tz != 0) {
        if (*tz == ':') tz++;
        if (strncmp(tz, "posix/", 6) == 0) tz += 6;
        if (*tz == '/') { char *z = zone_from_path(tz); if (z != NULL) return z; }
        return strdup(tz);
    }
    FILE *f = fopen("/etc/timezone", "r");
    if (f != NULL) {
        char line[256];
        char *ok = fgets(line, sizeof(line), f);
        fclose(f);
        if (ok != NULL) {
            line[strcspn(line, " \t\r\n")] = 0;
            if (line[0] != 0) return strdup(line);
        }
    }
    char target[PATH_MAX];
    ssize_t n = readlink("/etc/localtime", target, sizeof(target) - 1);
    if (n > 0) {
        target[n] = 0;
        return zone_from_path(target);
    }
    return NULL;
}

/* ---- locale: language/country/variant from LC_ALL, LC_CTYPE or LANG ("en_US.UTF-8@euro") ---- */

static svm_locale_props_t locale_props;

static void parse_locale(const char *value, char **language, char **country, char **variant) {
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", value);
    char *at = strchr(buf, '@');
    if (at != NULL) { *at = 0; *variant = strdup(at + 1); }
    char *dot = strchr(buf, '.');
    if (dot != NULL) *dot = 0;
    char *us = strchr(buf, '_');
    if (us != NULL) { *us = 0; *country = strdup(us + 1); }
    if (strcmp(buf, "C") == 0 || strcmp(buf, "POSIX") == 0 || buf[0] == 0) {
        *language = strdup("en");
    } else {
        *language = strdup(buf);
    }
}

int svm_initialize_locale(void) {
    const char *value = getenv("LC_ALL");
    if (value == NULL || *value == 0) value = getenv("LC_CTYPE");
    if (value == NULL || *value == 0) value = getenv("LANG");
    if (value == NULL || *value == 0) return SVM_LOCALE_INITIALIZATION_USE_DEFAULT;
    parse_locale(value, &locale_props.format_language, &locale_props.format_country, &locale_props.format_variant);
    parse_locale(value, &locale_props.display_language, &locale_props.display_country, &locale_props.display_variant);
    return SVM_LOCALE_INITIALIZATION_SUCCEEDED;
}

svm_locale_props_t *svm_get_locale(void) { return &locale_props; }

/* ---- sun.misc.Signal: the C handler counts signals and wakes the dispatcher thread ---- */

static sem_t signal_semaphore;
static volatile int pending_signals[NSIG];

int cSunMiscSignal_open(void) { return sem_init(&signal_semaphore, 0, 0); }
int cSunMiscSignal_close(void) { return sem_destroy(&signal_semaphore); }

int cSunMiscSignal_awaitSemaphore(void) {
    int r;
    while ((r = sem_wait(&signal_semaphore)) == -1 && errno == EINTR) { }
    return r;
}

int cSunMiscSignal_signalSemaphore(void) { return sem_post(&signal_semaphore); }

int cSunMiscSignal_signalRangeCheck(int signo) { return signo > 0 && signo < NSIG; }

/* Returns one pending signal number (taking it off the count) or -1 when none is pending. */
int cSunMiscSignal_checkPendingSignal(void) {
    for (int s = 1; s < NSIG; s++) {
        int n = pending_signals[s];
        while (n > 0) {
            if (__sync_bool_compare_and_swap(&pending_signals[s], n, n - 1)) return s;
            n = pending_signals[s];
        }
    }
    return -1;
}

static void count_signal(int signo) {
    if (cSunMiscSignal_signalRangeCheck(signo)) {
        __sync_fetch_and_add(&pending_signals[signo], 1);
        sem_post(&signal_semaphore); /* async-signal-safe */
    }
}

void *cSunMiscSignal_signalHandlerFunctionPointer(void) { return (void *) count_signal; }
