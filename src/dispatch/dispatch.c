/* SPDX-License-Identifier: Apache-2.0 */
/* dispatch.c -- fills one struct tx__kernels per instruction-set level, once (pthread_once): the
 * scalar kernels, then the AVX2 overrides, then the AVX-512 ones and the AVX512_BF16 ones
 * (x86-64), or the NEON ones (aarch64), each only if the CPU has the level.  The kernels and their
 * levels come from the family lists (kernels/<family>.inc, one line per kernel), gathered here into
 * tx__kernel_list, which also names the kernels for tx_cpu_kernel_name (tensorx info --cpu).
 * tx__kernels_get() returns the table of the level in use, so tx_set_cpu_mask() takes effect for
 * every op started afterwards without refilling anything. */
#include "dispatch/dispatch.h"

#include <pthread.h>
#include <string.h>

#include "core/tuning.h"
#include "dispatch/cpu.h"

static pthread_once_t fill_once = PTHREAD_ONCE_INIT;
static atomic_bool fill_done; /* so that a call after the first reads one flag */
static tx__kernels tables[TX__ISA_TOP + 1];

/* Every line of the family lists. */
#define TX__KERNEL(lv, slot, key, fn)                                                            \
    {TX_ISA_##lv, TX__SLOT_##slot, (key), #key, #fn, (tx__any_fn)fn},
const tx__listed tx__kernel_list[] = {
#include "kernels/copy.inc"
#include "kernels/transpose.inc"
#include "kernels/hash_probe.inc"
#include "kernels/cast.inc"
#include "kernels/gather.inc"
#include "kernels/crc32c.inc"
#include "kernels/pack.inc"
};
#undef TX__KERNEL
const size_t tx__kernel_list_count = sizeof tx__kernel_list / sizeof *tx__kernel_list;

static const char *const slot_names[] = {
#define SLOT_NAME(slot, key) #slot,
    TX__SLOTS(SLOT_NAME)
#undef SLOT_NAME
};

const char *tx__slot_name(tx__slot slot) {
    return (unsigned)slot < TX__SLOT_COUNT ? slot_names[slot] : "unknown";
}

/* Where a list key puts its kernel in a slot of each kind (TX__SLOTS); -1: nowhere. */
#define INDEX_ONE(key) ((key) == 0 ? 0 : -1)
#define INDEX_WIDTH(key) tx__width_index(key)
#define INDEX_PAIR(key) ((key) < TX__CP_COUNT ? (int)(key) : -1)
#define INDEX_SWAP(key) tx__swap_index(key)

/* The slot's entries in table t, as an array of the slot's function type (one entry for ONE). */
#define ENTRIES(t, slot) ((tx__##slot##_ft **)(void *)&(t)->slot)
#define CONST_ENTRIES(t, slot) ((tx__##slot##_ft *const *)(const void *)&(t)->slot)

static void put(tx__kernels *t, tx__slot slot, size_t key, tx__any_fn fn) {
    switch (slot) {
#define PUT(s, kind)                                                                             \
    case TX__SLOT_##s:                                                                           \
        if (INDEX_##kind(key) >= 0) ENTRIES(t, s)[INDEX_##kind(key)] = (tx__##s##_ft *)fn;      \
        return;
        TX__SLOTS(PUT)
#undef PUT
    case TX__SLOT_COUNT: return;
    }
}

tx__any_fn tx__kernels_entry(const tx__kernels *t, tx__slot slot, size_t key) {
    switch (slot) {
#define GET(s, kind)                                                                             \
    case TX__SLOT_##s:                                                                           \
        return INDEX_##kind(key) >= 0 ? (tx__any_fn)CONST_ENTRIES(t, s)[INDEX_##kind(key)] : NULL;
        TX__SLOTS(GET)
#undef GET
    case TX__SLOT_COUNT: return NULL;
    }
    return NULL;
}

/* Every kernel of `level` (the lines of the family lists), over what the levels below put there. */
static void fill_level(tx__kernels *k, tx_isa_level level) {
    for (size_t i = 0; i < tx__kernel_list_count; i++)
        if (tx__kernel_list[i].level == level)
            put(k, tx__kernel_list[i].slot, tx__kernel_list[i].key, tx__kernel_list[i].fn);
}

/* Table lv: the scalar kernels, then each level up to lv that the CPU has (x86-64: AVX2, AVX512,
 * AVX512_BF16; aarch64: NEON; each architecture compiles only its own levels' lines). */
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

tx__cast_fn tx__cast_select(tx_dtype from, tx_dtype to, bool saturate, int64_t numel) {
    int pair = saturate ? (from == TX_FLOAT32 && to == TX_UINT8 ? TX__CP_SAT_F32_U8 : -1)
                        : tx__cast_pair_of(from, to);
    if (pair < 0) return saturate ? NULL : tx__cast_kernel(from, to);
    const size_t a = tx_dtype_size(from), b = tx_dtype_size(to);
    const int64_t bytes = (int64_t)((uint64_t)numel * (a > b ? a : b)); /* the larger side */
    const tx__kernels *k = tx__kernels_get();
    return bytes >= tx__stream_seq_min_bytes ? k->cast_stream[pair] : k->cast[pair];
}

/* Entry `index` of the table in the list's order: the slots and keys of the scalar lines (every
 * slot has one per key).  The kernel's name is that of the list line holding the table's kernel. */
const char *tx_cpu_kernel_name(size_t index, const char **slot, const char **key) {
    const tx__listed *e = NULL;
    for (size_t i = 0, n = 0; i < tx__kernel_list_count && e == NULL; i++)
        if (tx__kernel_list[i].level == TX_ISA_SCALAR && n++ == index) e = &tx__kernel_list[i];
    if (e == NULL) return NULL;
    const tx__any_fn fn = tx__kernels_entry(tx__kernels_get(), e->slot, e->key);
    const char *name = "unknown";
    for (size_t i = 0; i < tx__kernel_list_count; i++) {
        const tx__listed *o = &tx__kernel_list[i];
        if (o->slot == e->slot && o->key == e->key && o->fn == fn) name = o->name;
    }
    if (slot) *slot = tx__slot_name(e->slot);
    if (key) {
        const char *k = e->key_name;
        *key = strcmp(k, "0") == 0 ? "" : strncmp(k, "TX__CP_", 7) == 0 ? k + 7 : k;
    }
    return name;
}
