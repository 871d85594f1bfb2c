/* SPDX-License-Identifier: Apache-2.0 */
/* race.h -- what the racing mutator harness (race.c) and the calls it races (race_calls.c) share:
 * an input region, a call, the calls of the op under test, and small helpers. */
#ifndef TX_RACE_H
#define TX_RACE_H

#include "op_examples.h"
#include "../../frontend/args.h"
#include "../../fuzz/opcodec.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NEX (sizeof tx_op_examples / sizeof tx_op_examples[0])
#define MAX_REGIONS 40

/* The harness's own failures (counting_alloc.h calls it too). */
static inline void die(const char *what) {
    fprintf(stderr, "race: %s\n", what);
    abort();
}

/* ---- random numbers: xorshift64*, one state per thread ---- */
static inline uint64_t rnd(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static inline double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One input's bytes: memory this program owns, wrapped in place. */
typedef struct region {
    unsigned char *buf;  /* what the library reads */
    unsigned char *orig; /* the bytes as made, put back before each call */
    size_t n, es;        /* bytes; element size (1 for a string tensor's bytes) */
    tx_dtype dt;         /* the elements' dtype; TX_STRING for a string tensor's bytes */
    bool integer;        /* bool, integer, quantized: lo and hi hold the range as made */
    int64_t lo, hi;
} region;

/* One call of an op, its inputs' regions and what running it gave. */
typedef struct rcall {
    op_args args;
    char label[128]; /* op #example variant, or what a made call holds */
    region reg[MAX_REGIONS];
    size_t nreg;
    double clean_s; /* the call's time with no writer */
    tx_status clean_st;
    long tries, ok;
    /* The call prepared (docs/prepared.md), where its op has a prepared form: its runs read the
     * same input memory, into outputs of this program's. */
    tx_op *prepared;
    const void *prepared_in[MAX_REGIONS];
    void *prepared_out[TX_OP_MAX_OUTPUTS];
} rcall;

/* The low es bytes of v, in host order. */
static inline void int_put(unsigned char *p, size_t es, int64_t v) {
    uint64_t u = (uint64_t)v;
    switch (es) {
    case 1: { uint8_t w = (uint8_t)u; memcpy(p, &w, 1); break; }
    case 2: { uint16_t w = (uint16_t)u; memcpy(p, &w, 2); break; }
    case 4: { uint32_t w = (uint32_t)u; memcpy(p, &w, 4); break; }
    default: memcpy(p, &u, 8); break;
    }
}

/* n bytes (at least 1), 64-byte aligned. */
static inline unsigned char *own(size_t n) {
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 1)) die("out of memory");
    return p;
}

/* The calls of the op under test (race_calls.c makes them). */
extern rcall *calls;
extern size_t ncalls;

/* Fills calls with op d's calls. */
void make_calls(const op_def *d, uint64_t *rs);
/* The bytes of c's inputs. */
size_t input_bytes(const rcall *c);
/* Frees c's arguments and regions. */
void free_call(rcall *c);
/* Runs a's op into o, with no error left from before. */
tx_status run_args(const op_args *a, op_outputs *o);

#endif
