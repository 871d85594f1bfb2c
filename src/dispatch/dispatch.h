/* SPDX-License-Identifier: Apache-2.0 */
/* dispatch.h -- the table of kernels chosen for the CPU (struct tx__kernels), filled once per
 * instruction-set level with the portable kernels first and then each SIMD level's overrides
 * (dav1d's pattern).  Ops fetch the table with tx__kernels_get(); they reach kernels only through
 * it.  A kernel is a line in its family's list (kernels/<family>.inc); a new kind of kernel is a
 * line in TX__SLOTS here (docs/kernels.md). */
#ifndef TX_DISPATCH_DISPATCH_H
#define TX_DISPATCH_DISPATCH_H

#include "core/internal.h"
#include "kernels/copy.h"
#include "kernels/transpose.h"
#include "kernels/cast.h"
#include "kernels/gather.h"
#include "kernels/hash_probe.h"
#include "kernels/crc32c.h"
#include "kernels/pack.h"

/* Index of an element width in the per-width arrays below (1, 2, 4, 8, 16 -> 0..4); -1 otherwise. */
static inline int tx__width_index(size_t width) {
    switch (width) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    }
    return -1;
}
#define TX_NUM_WIDTHS 5

/* The slots of the table: X(slot, key), one line each, where key says how a list line's key picks
 * the slot's entry: ONE (a single kernel; key 0), WIDTH (an array by element width,
 * tx__width_index), PAIR (an array by tx__cast_pair), SWAP (an array by tx__swap_index).  The
 * slot's function type is tx__<slot>_ft (the family header). */
#define TX__SLOTS(X)                                                                             \
    X(bulk_copy, ONE)            /* large contiguous copies (memcpy) */                          \
    X(bulk_copy_stream, ONE)     /* the same with streaming stores */                            \
    X(copy_runs, ONE)            /* strided runs of other widths, ordinary stores */             \
    X(copy_runs_stream, ONE)     /* strided runs of >= 64 bytes, streaming stores */             \
    X(copy_reversed, WIDTH)      /* dst[k] = src[-k] */                                          \
    X(copy_reversed_stream, WIDTH) /* the same with streaming stores */                          \
    X(transpose2d, WIDTH)        /* 2-D transposes */                                            \
    X(transpose2d_any, ONE)      /* 2-D transposes of any other element width */                 \
    X(cast, PAIR)                /* the hot cast pairs */                                        \
    X(cast_stream, PAIR)         /* the same with streaming stores */                            \
    X(byteswap, SWAP)            /* decode_raw's byte swaps */                                   \
    X(byteswap_stream, SWAP)     /* the same with streaming stores */                            \
    X(probe32, ONE)              /* unique's hash lookups, keys of <= 4 bytes */                 \
    X(gather, ONE)               /* the gather family (kernels/gather.h) */                      \
    X(gather_nd, ONE)                                                                            \
    X(partition, ONE)                                                                            \
    X(stitch, ONE)                                                                               \
    X(mask, ONE)                                                                                 \
    X(fill, ONE)                                                                                 \
    X(one_hot, ONE)                                                                              \
    X(gather_strided, ONE)       /* strided elements to contiguous ones */                       \
    X(scatter_strided, ONE)      /* contiguous elements to strided ones */                       \
    X(crc32c, ONE)               /* TFRecord's checksums */                                      \
    X(subbyte_pack, ONE)         /* the packed form of the 2- and 4-bit dtypes */                \
    X(subbyte_unpack, ONE)

#define TX__SLOT_DIM_ONE
#define TX__SLOT_DIM_WIDTH [TX_NUM_WIDTHS]
#define TX__SLOT_DIM_PAIR [TX__CP_COUNT]
#define TX__SLOT_DIM_SWAP [TX__SWAP_WIDTHS]

typedef struct tx__kernels {
    tx_isa_level level; /* the level this table was filled for */
#define TX__SLOT_FIELD(slot, key) tx__##slot##_ft *slot TX__SLOT_DIM_##key;
    TX__SLOTS(TX__SLOT_FIELD)
#undef TX__SLOT_FIELD
} tx__kernels;

/* The slots by number, in TX__SLOTS' order. */
typedef enum tx__slot {
#define TX__SLOT_ID(slot, key) TX__SLOT_##slot,
    TX__SLOTS(TX__SLOT_ID)
#undef TX__SLOT_ID
    TX__SLOT_COUNT
} tx__slot;

/* A kernel as any function pointer (the list's kernels stored together). */
typedef void (*tx__any_fn)(void);

/* One line of the kernel lists, with the names the lines spell. */
typedef struct tx__listed {
    tx_isa_level level;
    tx__slot slot;
    size_t key;          /* width, cast pair or 0, as the line gives it */
    const char *key_name; /* the key as the line spells it ("4", "TX__CP_F32_F16") */
    const char *name;    /* the kernel's function name */
    tx__any_fn fn;
} tx__listed;

/* Every line of the family lists (kernels/<family>.inc), in list order. */
TX_HIDDEN extern const tx__listed tx__kernel_list[];
TX_HIDDEN extern const size_t tx__kernel_list_count;
/* The slot's name ("cast") and the kernel table t holds for a slot and a list key; NULL when the
 * key has no entry in the slot. */
TX_HIDDEN const char *tx__slot_name(tx__slot slot);
TX_HIDDEN tx__any_fn tx__kernels_entry(const tx__kernels *t, tx__slot slot, size_t key);

/* The one way to a cast kernel: the kernel converting `numel` elements of `from` to `to` at the
 * level in use.  tf.cast's rules (saturate false): the level's kernel of a hot pair
 * (kernels/cast.h), with streaming stores when the larger side reaches tx__stream_seq_min_bytes
 * (pass numel 0 for blocks that stay in cache), else the portable kernel of the pair
 * (kernels/scalar/convert.h); NULL when the pair has no conversion (string).  saturate_cast's
 * clamp fused into the cast (saturate true): the kernel of TX__CP_SAT_F32_U8 for float32 ->
 * uint8, NULL for any other pair. */
TX_HIDDEN tx__cast_fn tx__cast_select(tx_dtype from, tx_dtype to, bool saturate, int64_t numel);

/* The table for the level in use (tx_cpu_level()). */
TX_HIDDEN const tx__kernels *tx__kernels_get(void);
/* The table of the highest level the CPU has at or below `level` (tx__cpu_best_at_most), for
 * tests and benchmarks. */
TX_HIDDEN const tx__kernels *tx__kernels_at(tx_isa_level level);

#endif
