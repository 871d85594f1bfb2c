/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.h -- what the fuzz targets share: a byte reader that never runs past its input (missing
 * bytes read as zero), a checking allocator installed for the whole process (counts live blocks,
 * checks the size given back on free, fails the k-th allocation on request), output checks that
 * touch every byte and every string of a result, and fz_die() for a broken invariant.  The targets
 * (fuzz_*.c) define LLVMFuzzerTestOneInput and are linked either with libFuzzer (clang,
 * scripts/fuzz.sh) or with replay.c, which runs a corpus as an ordinary test.  Only tensorx.h and
 * the frontend's and the CLI's headers (frontend/, tools/) are used: the fuzzers test the public surface. */
#ifndef TX_FUZZ_H
#define TX_FUZZ_H

#include "tensorx.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Set by the replay driver: targets that can afford it also sweep every allocation failure. */
extern bool fz_replay_mode;

/* ---- input reader ---- */
typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

uint8_t fz_u8(fz_in *in);
uint16_t fz_u16(fz_in *in);
uint64_t fz_u64(fz_in *in);
/* An integer attribute: one byte for small values (-112..111), one byte for an edge value from
 * fz_special (0xE0..0xFE), or 0xFF followed by 8 raw bytes. */
int64_t fz_int(fz_in *in);
/* A dimension: one byte 0..223, an edge value (0xE0..0xFE, negatives included), or 0xFF + 8 bytes. */
int64_t fz_dim(fz_in *in);
/* Up to `max` bytes (fewer at the end of the input); returns how many, *out points into the input. */
size_t fz_bytes(fz_in *in, size_t max, const uint8_t **out);

#define FZ_NSPECIAL 31
extern const int64_t fz_special[FZ_NSPECIAL];

/* All dtypes (TF's numbers), then two invalid values (0 and 99) for the attribute paths. */
#define FZ_NDTYPES 21
extern const tx_dtype fz_dtypes[FZ_NDTYPES + 2];

/* ---- checking allocator ---- */
/* Installs it (once; later calls do nothing) and sets a small tensor byte limit so that hostile
 * sizes are refused instead of allocated. */
void fz_alloc_setup(void);
/* The input as a file: one memfd (or an unlinked temporary file) per process, rewritten with
 * data; *fd receives its descriptor (at offset 0 after the write), the result its path
 * (/proc/self/fd/N), valid until the next call. */
const char *fz_file_of(const uint8_t *data, size_t size, int *fd);
/* The size bytes at data gzip'd (zstream.h's writer), in a malloc'd buffer of *n bytes the caller
 * frees; NULL in a build without zlib. */
uint8_t *fz_gzip(const uint8_t *data, size_t size, size_t *n);
/* The checking allocator itself, to set again after code that installs its own (the CLI). */
const tx_allocator *fz_allocator(void);
/* Fails the k-th allocation from now (1-based); 0 = never. */
void fz_alloc_fail_at(long k);
/* Allocations since the last fz_alloc_fail_at, and whether the armed failure happened. */
long fz_alloc_count(void);
bool fz_alloc_failed(void);
long fz_alloc_live(void);

/* ---- invariants ---- */
void fz_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Reads every byte of t (and every string's bytes): a result of the wrong size or a string that
 * points into freed storage shows up under ASan.  Checks dtype, rank, dims and nbytes agree. */
void fz_check_tensor(tx_tensor *t, const char *what);
/* A failed call: the status is one of tensorx's and a message was set. */
void fz_check_failure(tx_status st, const char *what, const char *message);

#endif
