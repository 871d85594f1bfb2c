/* SPDX-License-Identifier: Apache-2.0 */
/* cpu.c -- detection of the x86-64 instruction-set levels (cpuid for the features, xgetbv for the
 * register state the OS saves, as dav1d does: a CPU with AVX2 under an OS that does not save YMM
 * registers must not run AVX2 code; AVX512_BF16 is one more level above AVX-512, so that no kernel
 * asks the CPU itself and the cap reaches it) and of aarch64's Advanced SIMD (baseline: every
 * aarch64 CPU and OS has it, nothing to ask), the level cap from tx_set_cpu_mask() / TENSORX_CPU,
 * and the public introspection calls tx_cpu_detected_level / tx_cpu_level / tx_isa_level_name. */
#include "dispatch/cpu.h"

#include <pthread.h>
#include <stdlib.h>
#include <strings.h>

#if defined(TX_HAVE_X86_SIMD) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#define TX_X86 1
#endif

static pthread_once_t detect_once = PTHREAD_ONCE_INIT;
static tx_isa_level detected = TX_ISA_SCALAR;
static atomic_int cap = TX__ISA_TOP; /* set from TENSORX_CPU in detect_run */
/* The level ops use, best_at_most(cap), kept so that each op call reads one atomic: set by
 * detect_run, then by tx_set_cpu_mask (under mask_lock, which orders cap and active). */
static atomic_int active = TX_ISA_SCALAR;
static atomic_bool detect_done;
static pthread_mutex_t mask_lock = PTHREAD_MUTEX_INITIALIZER;

#ifdef TX_X86
static uint64_t xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static tx_isa_level detect_x86(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d) || a < 7) return TX_ISA_SCALAR;
    __get_cpuid(1, &a, &b, &c, &d);
    bool osxsave = c & (1u << 27), avx = c & (1u << 28), fma = c & (1u << 12),
         f16c = c & (1u << 29);
    if (!(osxsave && avx)) return TX_ISA_SCALAR;
    uint64_t xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) return TX_ISA_SCALAR; /* XMM and YMM state */
    __get_cpuid_count(7, 0, &a, &b, &c, &d);
    bool avx2 = b & (1u << 5), bmi2 = b & (1u << 8);
    if (!(avx2 && bmi2 && fma && f16c)) return TX_ISA_SCALAR;
    bool f = b & (1u << 16), dq = b & (1u << 17), bw = b & (1u << 30), vl = b & (1u << 31);
    /* opmask, upper halves of ZMM0-15 and ZMM16-31 */
    if (!(f && dq && bw && vl && (xcr0 & 0xE6) == 0xE6)) return TX_ISA_AVX2;
    if (a < 1) return TX_ISA_AVX512; /* no subleaf 1 */
    __get_cpuid_count(7, 1, &a, &b, &c, &d);
    return a & (1u << 5) ? TX_ISA_AVX512_BF16 : TX_ISA_AVX512;
}
#endif

int tx__cpu_parse_level(const char *name) {
    if (name == NULL) return -1;
    if (strcasecmp(name, "scalar") == 0) return TX_ISA_SCALAR;
    if (strcasecmp(name, "avx2") == 0) return TX_ISA_AVX2;
    if (strcasecmp(name, "avx512") == 0) return TX_ISA_AVX512;
    if (strcasecmp(name, "avx512_bf16") == 0) return TX_ISA_AVX512_BF16;
    if (strcasecmp(name, "neon") == 0) return TX_ISA_NEON;
    return -1;
}

/* The architecture a SIMD level belongs to: 1 x86-64, 2 aarch64 (0 for scalar). */
static int level_arch(int level) {
    if (level == TX_ISA_AVX2 || level == TX_ISA_AVX512 || level == TX_ISA_AVX512_BF16) return 1;
    if (level == TX_ISA_NEON) return 2;
    return 0;
}

/* Whether a CPU detected at level d has level l, and the best level at most `level` it has. */
static bool level_has(int d, int l) {
    if (l == TX_ISA_SCALAR) return true;
    return l <= d && level_arch(l) != 0 && level_arch(l) == level_arch(d);
}
static int best_at_most(int d, int level) {
    int l = level > TX__ISA_TOP ? TX__ISA_TOP : level;
    for (; l > TX_ISA_SCALAR; l--)
        if (level_has(d, l)) return l;
    return TX_ISA_SCALAR;
}

static void detect_run(void) {
#ifdef TX_X86
    detected = detect_x86();
#endif
#if defined(TX_HAVE_ARM_NEON) && defined(__aarch64__)
    detected = TX_ISA_NEON; /* Advanced SIMD is part of the aarch64 base architecture */
#endif
    int lv = tx__cpu_parse_level(getenv("TENSORX_CPU"));
    if (lv >= 0) atomic_store(&cap, lv);
    atomic_store(&active, best_at_most((int)detected, atomic_load(&cap)));
    atomic_store_explicit(&detect_done, true, memory_order_release);
}

tx_isa_level tx__cpu_detect(void) {
    if (!atomic_load_explicit(&detect_done, memory_order_acquire))
        pthread_once(&detect_once, detect_run);
    return detected;
}

bool tx__cpu_has(tx_isa_level level) { return level_has((int)tx__cpu_detect(), (int)level); }

tx_isa_level tx__cpu_best_at_most(tx_isa_level level) {
    return (tx_isa_level)best_at_most((int)tx__cpu_detect(), (int)level);
}

tx_isa_level tx__cpu_active(void) {
    tx__cpu_detect(); /* first: it sets the cap from TENSORX_CPU */
    return (tx_isa_level)atomic_load_explicit(&active, memory_order_relaxed);
}

tx_isa_level tx_cpu_detected_level(void) { return tx__cpu_detect(); }
tx_isa_level tx_cpu_level(void) { return tx__cpu_active(); }

tx_isa_level tx_set_cpu_mask(tx_isa_level max_level) {
    tx__cpu_detect(); /* the environment's cap must not overwrite this one later */
    int c = (int)max_level;
    if (c < TX_ISA_SCALAR) c = TX_ISA_SCALAR;
    if (c > TX__ISA_TOP) c = TX__ISA_TOP;
    pthread_mutex_lock(&mask_lock);
    atomic_store(&cap, c);
    atomic_store(&active, (int)tx__cpu_best_at_most((tx_isa_level)c));
    pthread_mutex_unlock(&mask_lock);
    return tx__cpu_active();
}

const char *tx_isa_level_name(tx_isa_level level) {
    switch (level) {
    case TX_ISA_SCALAR: return "scalar";
    case TX_ISA_AVX2: return "avx2";
    case TX_ISA_AVX512: return "avx512";
    case TX_ISA_NEON: return "neon";
    case TX_ISA_AVX512_BF16: return "avx512_bf16";
    }
    return "unknown";
}
