/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm.h -- what the parts of checkasm share: the kernel under test (a line of the family
 * lists, tx__kernel_list), the failure count, the random bytes, the guarded destinations and the
 * benchmark row, all in checkasm.c; and each slot's check_<slot> and bench_<slot>, in the family's
 * file (checkasm_copy.c, checkasm_transpose.c, checkasm_probe.c, checkasm_cast.c,
 * checkasm_gather.c, checkasm_crc32c.c, checkasm_pack.c). */
#ifndef TX_TESTS_CHECKASM_H
#define TX_TESTS_CHECKASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/tuning.h"
#include "dispatch/cpu.h"
#include "dispatch/dispatch.h"

typedef tx__listed kernel;

#define GUARD 128
#define GUARD_BYTE 0xA5
#define COUNT_OF(a) (sizeof(a) / sizeof *(a))

extern const kernel *current; /* the kernel the failures name */
extern long failures, checks;

/* Counts a failure of `current` and prints it (the first 50). */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* xorshift64: the same bytes on every run. */
uint64_t rnd(void);
/* malloc that exits on failure (status 2). */
void *xmalloc(size_t n);
void fill_random(unsigned char *p, size_t n);
/* A source of n random bytes at `off` bytes into a block that ends where the source ends. */
unsigned char *source(size_t n, size_t off, unsigned char **block);

/* Two destinations of n bytes, each GUARD + mis bytes into a 64-byte aligned block (mis 0: the
 * destination starts on a cache line) with at least GUARD bytes after it, both filled with the
 * same bytes: `want` for the naive loop, `got` for the kernel. */
typedef struct dest {
    unsigned char *want_block, *got_block, *want, *got;
    size_t n, mis, size;
} dest;
dest dest_new(size_t n, size_t mis);
/* Compares the whole blocks (guards included) and frees them; false on a difference. */
bool dest_check(dest *d, const char *what);

/* The benchmarks' sizes, their names, and the row of one kernel's best time on one size. */
extern const size_t BENCH_BYTES[3];
#define NBENCH 3
void size_name(char *buf, size_t cap, size_t bytes);
void bench_row(const kernel *k, const char *size, double bytes, void (*run)(void *), void *arg);

/* Each slot's check (against a naive loop) and benchmark. */
#define CHECKASM_SLOT(slot, key)                                                                 \
    void check_##slot(const kernel *k);                                                          \
    void bench_##slot(const kernel *k);
TX__SLOTS(CHECKASM_SLOT)
#undef CHECKASM_SLOT

#endif
