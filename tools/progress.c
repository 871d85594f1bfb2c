/* SPDX-License-Identifier: Apache-2.0 */
/* progress.c -- the progress bar on a terminal for long work (progress.h): a thread redraws the
 * line ten times a second from the count the work sets. */
#include "progress.h"

#include "console.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
    bool active;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    bool drawn;
    const char *label;
    uint64_t total;
    _Atomic uint64_t done;
    struct timespec start;
    double delay;
} pg = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static double since(const struct timespec *t0) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void human(char *buf, size_t cap, double bytes) {
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) bytes /= 1024, u++;
    snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

static void draw(double elapsed) {
    enum { WIDTH = 30 };
    char bar[WIDTH + 1];
    uint64_t done = atomic_load(&pg.done);
    char line[256];
    if (pg.total) {
        double frac = done >= pg.total ? 1.0 : (double)done / (double)pg.total;
        int fill = (int)(frac * WIDTH);
        for (int i = 0; i < WIDTH; i++) bar[i] = i < fill ? '#' : '.';
        bar[WIDTH] = '\0';
        char a[32], b[32];
        human(a, sizeof a, (double)done);
        human(b, sizeof b, (double)pg.total);
        snprintf(line, sizeof line, "tensorx %s [%s] %3d%%  %s / %s  %.1f s", pg.label, bar,
                 (int)(frac * 100), a, b, elapsed);
    } else {
        int pos = (int)(elapsed * 10) % (2 * (WIDTH - 3));
        if (pos >= WIDTH - 3) pos = 2 * (WIDTH - 3) - pos;
        for (int i = 0; i < WIDTH; i++) bar[i] = i >= pos && i < pos + 3 ? '=' : ' ';
        bar[WIDTH] = '\0';
        snprintf(line, sizeof line, "tensorx %s [%s] %.1f s", pg.label, bar, elapsed);
    }
    fprintf(cli_err(), "\r%s\033[K", line);
    fflush(cli_err());
    pg.drawn = true;
}

static void *progress_thread(void *arg) {
    (void)arg;
    pthread_mutex_lock(&pg.mu);
    while (!pg.stop) {
        double e = since(&pg.start);
        if (e >= pg.delay) draw(e);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&pg.cv, &pg.mu, &until);
    }
    pthread_mutex_unlock(&pg.mu);
    return NULL;
}

void progress_start(const char *label, uint64_t total) {
    if (pg.active || !isatty(fileno(cli_err()))) return;
    const char *off = getenv("TENSORX_NO_PROGRESS");
    if (off && *off && strcmp(off, "0") != 0) return;
    const char *d = getenv("TENSORX_PROGRESS_DELAY");
    pg.delay = d && *d ? strtod(d, NULL) : 1.0;
    pg.label = label;
    pg.total = total;
    atomic_store(&pg.done, 0);
    pg.stop = false;
    pg.drawn = false;
    clock_gettime(CLOCK_MONOTONIC, &pg.start);
    if (pg.delay <= 0) draw(0); /* no delay asked: show it at once, however short the work */
    pg.active = pthread_create(&pg.thread, NULL, progress_thread, NULL) == 0;
    if (!pg.active && pg.drawn) fputs("\r\033[K", cli_err());
}

void progress_set(uint64_t done) { atomic_store(&pg.done, done); }

void progress_stop(void) {
    if (!pg.active) return;
    pthread_mutex_lock(&pg.mu);
    pg.stop = true;
    pthread_cond_signal(&pg.cv);
    pthread_mutex_unlock(&pg.mu);
    pthread_join(pg.thread, NULL);
    pg.active = false;
    if (pg.drawn) {
        fputs("\r\033[K", cli_err());
        fflush(cli_err());
    }
}
