/* SPDX-License-Identifier: Apache-2.0 */
/* cpu.h -- CPU feature detection (x86-64: cpuid + xgetbv; aarch64: Advanced SIMD is baseline)
 * into the instruction-set levels of tensorx.h (scalar, AVX2 bundle, AVX-512 bundle, AVX-512 with
 * BF16, NEON) and
 * the cap that tx_set_cpu_mask / TENSORX_CPU put on them.  A CPU has scalar and the levels of its
 * own architecture up to the detected one; the enum's order serves the cap only.  Used by
 * dispatch.c to choose kernels; no kernel code here. */
#ifndef TX_DISPATCH_CPU_H
#define TX_DISPATCH_CPU_H

#include "core/internal.h"

/* The highest level of the enum. */
#define TX__ISA_TOP TX_ISA_AVX512_BF16

/* The best level the CPU and the OS support (computed once; thread-safe). */
TX_HIDDEN tx_isa_level tx__cpu_detect(void);
/* Whether the CPU has `level`: scalar, or a level of the detected one's architecture up to it
 * (x86-64: AVX2 <= AVX512 <= AVX512_BF16; aarch64: NEON). */
TX_HIDDEN bool tx__cpu_has(tx_isa_level level);
/* The highest level the CPU has at or below `level` (scalar at least). */
TX_HIDDEN tx_isa_level tx__cpu_best_at_most(tx_isa_level level);
/* The level kernels should use now: tx__cpu_best_at_most(cap). */
TX_HIDDEN tx_isa_level tx__cpu_active(void);
/* Parses "scalar" / "avx2" / "avx512" / "avx512_bf16" / "neon" (case-insensitive); returns -1
 * for anything else. */
TX_HIDDEN int tx__cpu_parse_level(const char *name);

#endif
