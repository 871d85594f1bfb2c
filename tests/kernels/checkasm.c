/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm.c -- every kernel of every family list (src/kernels/<family>.inc) at every CPU level
 * this machine has, against a naive loop written here (dav1d's checkasm, XNNPACK's per-kernel
 * tests): destinations with guard bytes on both sides (checked untouched), unaligned source and
 * destination starts, every tail length around the vector widths, sizes past each streaming
 * threshold, and the source allocated to its exact end so that ASan sees any over-read.  Also
 * checks that each level's dispatch table holds the list's kernel for every slot.  A kernel of a
 * level this CPU lacks is skipped, and named.
 *   checkasm              run the checks; exit status 1 on any failure
 *   checkasm --bench      time every kernel on a few sizes and print a table (no checks)
 *   checkasm [--bench] PATTERN   only the kernels whose function name contains PATTERN
 * A kernel added to a list is covered here without any change to these files; a new slot needs
 * its check_<slot> and bench_<slot> (checkasm.h). */
#include "checkasm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const kernel *current;
long failures, checks;

/* The key as printed: w<width>, the cast pair's name, or - for none. */
static const char *key_label(const kernel *k, char *buf, size_t cap) {
    if (strncmp(k->key_name, "TX__CP_", 7) == 0) snprintf(buf, cap, "%s", k->key_name + 7);
    else if (k->key) snprintf(buf, cap, "w%zu", k->key);
    else snprintf(buf, cap, "-");
    return buf;
}

void fail(const char *fmt, ...) {
    failures++;
    if (failures > 50) return;
    va_list ap;
    va_start(ap, fmt);
    char key[32];
    fprintf(stderr, "FAIL %s (%s, %s, %s): ", current->name, tx_isa_level_name(current->level),
            tx__slot_name(current->slot), key_label(current, key, sizeof key));
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "checkasm: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

/* Eight bytes per draw: the large cases fill hundreds of MB, which under valgrind is most of the
 * program's time when it is done a byte at a time. */
void fill_random(unsigned char *p, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t r = rnd();
        memcpy(p + i, &r, 8);
    }
    if (i < n) {
        const uint64_t r = rnd();
        memcpy(p + i, &r, n - i);
    }
}

unsigned char *source(size_t n, size_t off, unsigned char **block) {
    *block = xmalloc(off + n);
    fill_random(*block, off + n);
    return *block + off;
}

dest dest_new(size_t n, size_t mis) {
    const size_t size = (GUARD + mis + n + GUARD + 63) / 64 * 64;
    dest d = {aligned_alloc(64, size), aligned_alloc(64, size), NULL, NULL, n, mis, size};
    if (!d.want_block || !d.got_block) {
        fprintf(stderr, "checkasm: out of memory (%zu bytes)\n", size);
        exit(2);
    }
    memset(d.want_block, GUARD_BYTE, size);
    d.want = d.want_block + GUARD + mis;
    d.got = d.got_block + GUARD + mis;
    fill_random(d.want, n); /* bytes the kernel must overwrite, or leave as they are */
    memcpy(d.got_block, d.want_block, size);
    return d;
}

bool dest_check(dest *d, const char *what) {
    bool ok = true;
    checks++;
    const bool differ = memcmp(d->want_block, d->got_block, d->size) != 0;
    for (size_t i = 0; differ && i < d->size; i++) { /* where they first differ */
        if (d->want_block[i] != d->got_block[i]) {
            const long long at = (long long)i - (long long)(GUARD + d->mis);
            fail("%s: first difference at byte %lld of the destination (%s)", what, at,
                 at < 0 || at >= (long long)d->n ? "a guard byte" : "inside");
            ok = false;
            break;
        }
    }
    free(d->want_block);
    free(d->got_block);
    return ok;
}

/* ---- benchmarks -------------------------------------------------------------------------------- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Calls run(arg) until about 0.1 s has passed (at least 3 times) and prints the best time. */
void bench_row(const kernel *k, const char *size, double bytes, void (*run)(void *), void *arg) {
    double best = 1e30, start = now();
    for (int it = 0; it < 3 || (now() - start < 0.1 && it < 100000); it++) {
        double t0 = now();
        run(arg);
        double t = now() - t0;
        if (t < best) best = t;
    }
    char slot[48], key[32];
    if (strcmp(key_label(k, key, sizeof key), "-") != 0)
        snprintf(slot, sizeof slot, "%s[%s]", tx__slot_name(k->slot), key);
    else snprintf(slot, sizeof slot, "%s", tx__slot_name(k->slot));
    printf("%-11s %-26s %-38s %-22s %10.2f %8.2f\n", tx_isa_level_name(k->level), slot, k->name,
           size, best * 1e6, bytes / best / 1e9);
}

const size_t BENCH_BYTES[3] = {(size_t)16 << 10, (size_t)1 << 20, (size_t)32 << 20};

void size_name(char *buf, size_t cap, size_t bytes) {
    if (bytes >= (1u << 20)) snprintf(buf, cap, "%zu MiB", bytes >> 20);
    else snprintf(buf, cap, "%zu KiB", bytes >> 10);
}

/* ---- the lists ----------------------------------------------------------------------------------- */

static void (*const CHECK[])(const kernel *) = {
#define CHECK_OF(slot, key) check_##slot,
    TX__SLOTS(CHECK_OF)
#undef CHECK_OF
};
static void (*const BENCH[])(const kernel *) = {
#define BENCH_OF(slot, key) bench_##slot,
    TX__SLOTS(BENCH_OF)
#undef BENCH_OF
};

#define KERNELS tx__kernel_list
#define NKERNELS tx__kernel_list_count

/* Each level's table holds, for every slot, the kernel of the highest list level up to its own
 * that the CPU has; every slot has a scalar kernel (the tables start from them). */
static void check_tables(void) {
    for (size_t i = 0; i < NKERNELS; i++) {
        bool scalar = false;
        for (size_t j = 0; j < NKERNELS; j++)
            scalar |= KERNELS[j].level == TX_ISA_SCALAR && KERNELS[j].key == KERNELS[i].key &&
                      KERNELS[j].slot == KERNELS[i].slot;
        checks++;
        if (!scalar) {
            current = &KERNELS[i];
            fail("the slot has no scalar kernel in the list");
        }
    }
    for (int lv = TX_ISA_SCALAR; lv <= TX__ISA_TOP; lv++) {
        if (!tx__cpu_has((tx_isa_level)lv)) continue;
        const tx__kernels *t = tx__kernels_at((tx_isa_level)lv);
        for (size_t i = 0; i < NKERNELS; i++) {
            const kernel *k = &KERNELS[i], *best = NULL;
            if (!tx__cpu_has(k->level) || (int)k->level > lv) continue;
            for (size_t j = 0; j < NKERNELS; j++) {
                const kernel *o = &KERNELS[j];
                if (o->slot != k->slot || o->key != k->key || (int)o->level > lv ||
                    !tx__cpu_has(o->level))
                    continue;
                if (o != k && o->level == k->level) {
                    current = k;
                    fail("the list has two kernels for this slot and level (also %s)", o->name);
                }
                if (!best || o->level > best->level) best = o;
            }
            checks++;
            if (best == k && tx__kernels_entry(t, k->slot, k->key) != k->fn) {
                current = k;
                fail("not in the %s table", tx_isa_level_name((tx_isa_level)lv));
            }
        }
    }
}

int main(int argc, char **argv) {
    bool bench = false;
    const char *pattern = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0) {
            bench = true;
        } else if (argv[i][0] == '-' || pattern) {
            fprintf(stderr, "usage: checkasm [--bench] [PATTERN]\n");
            return 2;
        } else {
            pattern = argv[i];
        }
    }
    if (bench)
        printf("%-11s %-26s %-38s %-22s %10s %8s\n", "level", "slot", "kernel", "size", "best us",
               "GB/s");
    else
        check_tables();
    int ran = 0, skipped = 0;
    for (size_t i = 0; i < NKERNELS; i++) {
        const kernel *k = &KERNELS[i];
        if (pattern && !strstr(k->name, pattern)) continue;
        char key[32];
        if (!tx__cpu_has(k->level)) {
            printf("skip %-11s %-22s %-10s %s (this CPU has no %s)\n", tx_isa_level_name(k->level),
                   tx__slot_name(k->slot), key_label(k, key, sizeof key), k->name,
                   tx_isa_level_name(k->level));
            skipped++;
            continue;
        }
        current = k;
        long before = failures;
        if (bench) {
            BENCH[k->slot](k);
        } else {
            CHECK[k->slot](k);
            printf("%-4s %-11s %-22s %-10s %s\n", failures == before ? "ok" : "FAIL",
                   tx_isa_level_name(k->level), tx__slot_name(k->slot),
                   key_label(k, key, sizeof key), k->name);
        }
        ran++;
    }
    if (ran + skipped == 0) {
        fprintf(stderr, "checkasm: no kernel's name contains \"%s\"\n", pattern);
        return 2;
    }
    if (!bench)
        printf("checkasm: %d kernels checked (%ld checks), %d of levels this CPU (%s) lacks "
               "skipped, %ld failures\n",
               ran, checks, skipped, tx_isa_level_name(tx_cpu_detected_level()), failures);
    tx_shutdown();
    return failures ? 1 : 0;
}
