/* SPDX-License-Identifier: Apache-2.0 */
/* replay.c -- runs fuzz inputs through a target without libFuzzer, so that the corpora are
 * ordinary regression tests (ctest fuzz.<target>) in every build, sanitized or not.
 * Usage: replay_<target> FILE|DIR...  (a DIR is read in name order; an empty one is an error, so
 * the test cannot pass on nothing).  Sets fz_replay_mode, in which targets also sweep
 * allocation failures.  A broken invariant aborts, so the test fails with the file named last.
 * TX_REPLAY_SAMPLE=N (N > 1) runs one input of a DIR in N, those whose name hashes to 0 mod N,
 * and at least one: scripts/valgrind.sh sets it, where each input costs 30-50 times its native
 * time (the release and sanitizer builds replay every input). */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fprintf(stderr, "%s: out of memory\n", path);
            return -1;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    /* A copy of exactly n bytes, so that ASan sees any read past the input. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    fprintf(stderr, "replay: %s\n", path);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* FNV-1a of a file name: which inputs a sample keeps, the same on every machine. */
static uint32_t name_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    fz_replay_mode = true;
    const char *sample_env = getenv("TX_REPLAY_SAMPLE");
    const long sample = sample_env ? strtol(sample_env, NULL, 10) : 1;
    long files = 0, skipped = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]) != 0) return 1;
            files++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            perror(argv[i]);
            return 1;
        }
        char **names = NULL;
        size_t n = 0, cap = 0;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                char **nn = realloc(names, cap * sizeof *nn);
                if (!nn) return 1;
                names = nn;
            }
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[n] = malloc(len);
            if (!names[n]) return 1;
            snprintf(names[n++], len, "%s/%s", argv[i], e->d_name);
        }
        closedir(d);
        if (n == 0) {
            fprintf(stderr, "replay: %s holds no input\n", argv[i]);
            return 1;
        }
        qsort(names, n, sizeof *names, cmp);
        long ran = 0;
        for (size_t k = 0; k < n; k++) {
            const char *base = strrchr(names[k], '/') + 1;
            if (sample > 1 && name_hash(base) % (uint32_t)sample != 0 && (ran > 0 || k + 1 < n)) {
                skipped++;
            } else {
                if (run_file(names[k]) != 0) return 1;
                files++;
                ran++;
            }
            free(names[k]);
        }
        free(names);
    }
    if (files == 0) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    if (skipped)
        printf("%ld passed, 0 failed (%ld left out: one in %ld sampled)\n", files, skipped, sample);
    else printf("%ld passed, 0 failed\n", files);
    return 0;
}
