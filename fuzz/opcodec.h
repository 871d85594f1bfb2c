/* SPDX-License-Identifier: Apache-2.0 */
/* opcodec.h -- the byte encoding of one op call for the generic op fuzzer (fuzz_ops.c) and its
 * seed maker (mkseed.c).  The op comes from the op spec (frontend/opreg.h), so every op that
 * has a table row is fuzzed with no change here.  Layout, every field read with fuzz.h's reader
 * (missing bytes read as 0):
 *
 *   u16 op      an op whose name hashes (fz_op_hash) to this value, else op_at(op % count)
 *   u8  fail_k  0, or: fail the fail_k-th library allocation of the op's run
 *   u8  flags   bit 0: run at the scalar CPU level (fuzz_ops; fuzz_ops_diff runs every level)
 *               bits 1-7: scaling, read by fz_op_decode_scaled only (fuzz_ops_diff, the stress
 *               test): bits 1-3 a size class: 0 about 1 KiB, 1 none, then about 96 B, 16 KiB,
 *               300 KiB, 1.06 MiB, 2.5 MiB, 9 MiB; bits 4-5 which tensor parameters grow: 0-2 the
 *               parameter of that index among those the input gave (modulo their count; a tensor
 *               list counts as one and all its tensors grow), 3 all of them; bits 6-7 along which
 *               dims: 0 every dim (about the rank-th root of the factor each), 1 the last, 2 the
 *               first, 3 the second.  Every picked tensor of rank >= 1 with elements is tiled
 *               (numpy.tile) by the same factor, so that together they reach the class's size:
 *               shapes of one rank that had to agree still agree, and the fuzzed values repeat
 *               through the whole tensor.  A tensor the limit refuses stays as it was.
 *   then per parameter, in the op_def's order:
 *   u8  absent  bit 7 set, or the input ended: leave it out (the op sees its default); else
 *               its value follows:
 *     P_TENSOR       tensor (below)
 *     P_TENSOR_LIST  u8 count (mod 16), then that many tensors
 *     P_INT          fz_int
 *     P_BOOL         u8, bit 0
 *     P_STRING       u8 c: c < 0x80: c bytes follow; else a known word (CONSTANT, NHWC, ...)
 *     P_DTYPE        u8, index into fz_dtypes (two invalid values included)
 *     P_INT_LIST     u8 count (mod 32), then that many fz_int
 *   tensor:  u8 dtype (index into fz_dtypes, mod 21); u8 r: rank r & 7 if r < 0xF8, else a
 *            second u8 is the rank (0..255); rank x fz_dim; u8 fill:
 *            0 raw (numbers: the next nbytes; strings: per element u8 length, 255 = u16 length
 *              follows, then the bytes), 1 one signed byte per element as its value (a
 *              quarter of it for floating dtypes),
 *            2 element i = i, 3 one signed byte for every element (1-3: the first 4096
 *            elements; the rest stay 0 or empty).
 *
 * Dims may be negative, huge, or multiply past int64: the decoder asks tensorx to make such a
 * tensor, requires a refusal, and stops there (the op is not run).  Tensors above 4 MiB are
 * refused by the limit fz_alloc_setup sets (16 MiB in fuzz_ops_diff). */
#ifndef TX_FUZZ_OPCODEC_H
#define TX_FUZZ_OPCODEC_H

#include "../frontend/opreg.h"
#include "fuzz.h"

typedef struct fz_op_case {
    const op_def *def;
    op_args args;
    long fail_k;
    uint8_t flags;
} fz_op_case;

uint16_t fz_op_hash(const char *name);
const op_def *fz_op_select(uint16_t selector);
size_t fz_op_count(void);

/* Decodes one case; false (and nothing left allocated) when the input makes no case. */
bool fz_op_decode(const uint8_t *data, size_t size, fz_op_case *c);
/* The same, then the tensors the flags pick are scaled up (see the layout above). */
bool fz_op_decode_scaled(const uint8_t *data, size_t size, fz_op_case *c);

typedef struct fz_buf {
    uint8_t *p;
    size_t n, cap;
} fz_buf;
void fz_buf_put(fz_buf *b, const void *data, size_t n);
void fz_buf_u8(fz_buf *b, uint8_t v);
/* Encodes the values of a (as parsed from CLI text) so that fz_op_decode gives them back (raw
 * fill; strings longer than 65535 bytes and lists longer than the counts allow are cut). */
void fz_op_encode(const op_args *a, long fail_k, uint8_t flags, fz_buf *b);

#endif
