/* SPDX-License-Identifier: Apache-2.0 */
/* dispatch.c -- fills one struct tx__kernels per instruction-set level, once (pthread_once): the
 * scalar kernels, then the AVX2 overrides, then the AVX-512 ones (x86-64), or the NEON ones
 * (aarch64), each only if the CPU has the level.  The kernels and their levels come from the
 * family lists (kernels/<family>.inc, one line per kernel).  tx__kernels_get() returns the table
 * of the level in use, so tx_set_cpu_mask() takes effect for every op started afterwards without
 * refilling anything. */
#include "dispatch/dispatch.h"

#include <pthread.h>

#include "dispatch/cpu.h"

static pthread_once_t fill_once = PTHREAD_ONCE_INIT;
static atomic_bool fill_done; /* so that a call after the first reads one flag */
static tx__kernels tables[TX__ISA_TOP + 1];

/* One kernel into its slot: the per-width slots by the width's index, the cast slots by pair. */
static void put_bulk_copy(tx__kernels *k, size_t w, tx__bulk_copy_fn fn) {
    (void)w;
    k->bulk_copy = fn;
}
static void put_copy_runs_stream(tx__kernels *k, size_t w, tx__runs_copy_fn fn) {
    (void)w;
    k->copy_runs_stream = fn;
}
static void put_copy_reversed(tx__kernels *k, size_t w, tx__reverse_fn fn) {
    int i = tx__width_index(w);
    if (i >= 0) k->copy_reversed[i] = fn;
}
static void put_copy_reversed_stream(tx__kernels *k, size_t w, tx__reverse_fn fn) {
    int i = tx__width_index(w);
    if (i >= 0) k->copy_reversed_stream[i] = fn;
}
static void put_probe32(tx__kernels *k, size_t w, tx__probe32_fn fn) {
    (void)w;
    k->probe32 = fn;
}
static void put_transpose2d(tx__kernels *k, size_t w, tx__transpose2d_fn fn) {
    int i = tx__width_index(w);
    if (i >= 0) k->transpose2d[i] = fn;
}

static void put_cast(tx__kernels *k, size_t pair, tx__cast_fn fn) {
    if (pair < TX__CP_COUNT) k->cast[pair] = fn;
}
static void put_cast_stream(tx__kernels *k, size_t pair, tx__cast_fn fn) {
    if (pair < TX__CP_COUNT) k->cast_stream[pair] = fn;
}
static void put_byteswap(tx__kernels *k, size_t w, tx__cast_fn fn) {
    int i = tx__swap_index(w);
    if (i >= 0) k->byteswap[i] = fn;
}
static void put_byteswap_stream(tx__kernels *k, size_t w, tx__cast_fn fn) {
    int i = tx__swap_index(w);
    if (i >= 0) k->byteswap_stream[i] = fn;
}

/* The gather family's slots take their widths as arguments. */
static void put_gather(tx__kernels *k, size_t w, tx__gather_fn fn) {
    (void)w;
    k->gather = fn;
}
static void put_gather_nd(tx__kernels *k, size_t w, tx__gather_nd_fn fn) {
    (void)w;
    k->gather_nd = fn;
}
static void put_partition(tx__kernels *k, size_t w, tx__partition_fn fn) {
    (void)w;
    k->partition = fn;
}
static void put_stitch(tx__kernels *k, size_t w, tx__stitch_fn fn) {
    (void)w;
    k->stitch = fn;
}
static void put_mask(tx__kernels *k, size_t w, tx__mask_fn fn) {
    (void)w;
    k->mask = fn;
}
static void put_fill(tx__kernels *k, size_t w, tx__fill_fn fn) {
    (void)w;
    k->fill = fn;
}
static void put_one_hot(tx__kernels *k, size_t w, tx__one_hot_fn fn) {
    (void)w;
    k->one_hot = fn;
}
static void put_gather_strided(tx__kernels *k, size_t w, tx__strided_fn fn) {
    (void)w;
    k->gather_strided = fn;
}
static void put_scatter_strided(tx__kernels *k, size_t w, tx__strided_fn fn) {
    (void)w;
    k->scatter_strided = fn;
}

/* Every kernel of `level` (the lines of the family lists, kernels/<family>.inc), over what the
 * levels below put there. */
static void fill_level(tx__kernels *k, tx_isa_level level) {
#define TX__KERNEL(lv, slot, width, fn)                                                          \
    if (TX_ISA_##lv == level) put_##slot(k, (width), fn);
#include "kernels/copy.inc"
#include "kernels/transpose.inc"
#include "kernels/hash_probe.inc"
#include "kernels/cast.inc"
#include "kernels/gather.inc"
#undef TX__KERNEL
}

/* Table lv: the scalar kernels, then each level up to lv that the CPU has (x86-64: AVX2, AVX512;
 * aarch64: NEON; each architecture compiles only its own levels' lines). */
static void fill_all(void) {
    for (int lv = TX_ISA_SCALAR; lv <= TX__ISA_TOP; lv++) {
        tx__kernels *k = &tables[lv];
        for (int l = TX_ISA_SCALAR; l <= lv; l++) {
            if (!tx__cpu_has((tx_isa_level)l)) continue;
            fill_level(k, (tx_isa_level)l);
            k->level = (tx_isa_level)l;
        }
    }
    atomic_store_explicit(&fill_done, true, memory_order_release);
}

static void fill_tables(void) {
    if (!atomic_load_explicit(&fill_done, memory_order_acquire)) pthread_once(&fill_once, fill_all);
}

const tx__kernels *tx__kernels_at(tx_isa_level level) {
    fill_tables();
    int lv = (int)level;
    if (lv < TX_ISA_SCALAR) lv = TX_ISA_SCALAR;
    return &tables[tx__cpu_best_at_most((tx_isa_level)lv)];
}

/* tx__cpu_active is a level the CPU has: its table directly. */
const tx__kernels *tx__kernels_get(void) {
    fill_tables();
    return &tables[tx__cpu_active()];
}
