/* SPDX-License-Identifier: Apache-2.0 */
/* fault.c -- a SIGBUS in a mapped input or output file turned into an io_error naming the file
 * (fault.h).  Only tensorx.h is used. */
#include "fault.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- faults in mapped files ------------------------------------------------------------------ */

/* What the handler reads: filled before a range can be touched, published by `used` (release),
 * read by the handler (acquire) -- no locks, no allocation, so the handler stays safe. */
#define FAULT_SLOTS 64
#define FAULT_NAME 512
static struct {
    _Atomic int used;
    uintptr_t lo, hi;
    bool output;
    char name[FAULT_NAME];
} watched[FAULT_SLOTS];

/* The temporary output files, for the handler to remove: slots in chunks linked from `temps`,
 * never moved or freed (the handler may walk them at any time), as many as a command has outputs.
 * A slot points at its outfile's name, which outlives the registration. */
#define TMP_CHUNK 64
struct temp_slot {
    _Atomic int used;
    const char *name;
};
typedef struct temp_chunk {
    struct temp_slot slot[TMP_CHUNK];
    struct temp_chunk *_Atomic next;
} temp_chunk;
static temp_chunk temps;

static char fault_op[128];

static size_t cat(char *buf, size_t len, size_t cap, const char *s) {
    while (*s && len + 1 < cap) buf[len++] = *s++;
    buf[len] = '\0';
    return len;
}

static void on_sigbus(int sig, siginfo_t *si, void *uctx) {
    (void)sig;
    (void)uctx;
    uintptr_t a = (uintptr_t)si->si_addr;
    int hit = -1, pending = -1;
    for (int i = 0; i < FAULT_SLOTS; i++) {
        if (!atomic_load_explicit(&watched[i].used, memory_order_acquire)) continue;
        if (watched[i].lo == watched[i].hi) pending = i;
        else if (a >= watched[i].lo && a < watched[i].hi) hit = i;
    }
    if (hit < 0) hit = pending;
    char msg[FAULT_NAME + 256];
    size_t n = cat(msg, 0, sizeof msg, "tensorx: ");
    if (fault_op[0]) n = cat(msg, cat(msg, n, sizeof msg, fault_op), sizeof msg, ": ");
    n = cat(msg, n, sizeof msg, "io_error: ");
    if (hit >= 0) {
        n = cat(msg, n, sizeof msg, "'");
        n = cat(msg, n, sizeof msg, watched[hit].name);
        n = cat(msg, n, sizeof msg, watched[hit].output ? "' changed while it was written"
                                                        : "' changed while it was read");
    } else {
        n = cat(msg, n, sizeof msg, "a mapped file changed while it was read");
    }
    n = cat(msg, n, sizeof msg, " (truncated? the system raised SIGBUS)\n");
    ssize_t w = write(STDERR_FILENO, msg, n);
    (void)w;
    for (temp_chunk *c = &temps; c; c = atomic_load_explicit(&c->next, memory_order_acquire))
        for (int i = 0; i < TMP_CHUNK; i++)
            if (atomic_load_explicit(&c->slot[i].used, memory_order_acquire)) unlink(c->slot[i].name);
    _exit(1);
}

void fault_install(const char *op) {
    snprintf(fault_op, sizeof fault_op, "%s", op ? op : "");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
    signal(SIGXFSZ, SIG_IGN);
}

int fault_watch(const void *p, size_t n, const char *name, bool output) {
    for (int i = 0; i < FAULT_SLOTS; i++) {
        int expect = 0;
        /* 2: being filled (ignored by the handler, which only takes 1) */
        if (!atomic_compare_exchange_strong(&watched[i].used, &expect, 2)) continue;
        watched[i].lo = (uintptr_t)p;
        watched[i].hi = (uintptr_t)p + n;
        watched[i].output = output;
        snprintf(watched[i].name, FAULT_NAME, "%s", name);
        atomic_store_explicit(&watched[i].used, 1, memory_order_release);
        return i;
    }
    return -1;
}

void fault_unwatch(int slot) {
    if (slot >= 0 && slot < FAULT_SLOTS)
        atomic_store_explicit(&watched[slot].used, 0, memory_order_release);
}

void fault_unwatch_all(void) {
    for (int i = 0; i < FAULT_SLOTS; i++) fault_unwatch(i);
}

/* Where fault_watch_temp looks first: the chunk it last took a slot from, back to the first
 * chunk when no temporary file is left (so a command's n outputs take O(n), not O(n^2), to
 * register). */
static temp_chunk *temps_hint = &temps;
static size_t temps_live;

struct temp_slot *fault_watch_temp(const char *name) {
    for (temp_chunk *c = temps_hint;; c = atomic_load(&c->next)) {
        for (int i = 0; i < TMP_CHUNK; i++) {
            int expect = 0;
            /* 2: being filled (ignored by the handler, which only takes 1) */
            if (!atomic_compare_exchange_strong(&c->slot[i].used, &expect, 2)) continue;
            c->slot[i].name = name;
            atomic_store_explicit(&c->slot[i].used, 1, memory_order_release);
            temps_hint = c;
            temps_live++;
            return &c->slot[i];
        }
        if (atomic_load(&c->next) == NULL) {
            temp_chunk *more = calloc(1, sizeof *more); /* reachable from temps: never freed */
            if (more == NULL) return NULL;
            atomic_store_explicit(&c->next, more, memory_order_release);
        }
    }
}

void fault_unwatch_temp(struct temp_slot *slot) {
    if (slot == NULL) return;
    atomic_store_explicit(&slot->used, 0, memory_order_release);
    if (--temps_live == 0) temps_hint = &temps;
}
