/* SPDX-License-Identifier: Apache-2.0 */
/* cpu.h -- CPU feature detection (cpuid + xgetbv) into the instruction-set levels of tensorx.h
 * (scalar, AVX2 bundle, AVX-512 bundle) and the cap that tx_set_cpu_mask / TENSORX_CPU put on
 * them.  Used by dispatch.c to choose kernels; no kernel code here. */
#ifndef TX_DISPATCH_CPU_H
#define TX_DISPATCH_CPU_H

#include "core/internal.h"

/* What the CPU and the OS support (computed once; thread-safe). */
TX_HIDDEN tx_isa_level tx__cpu_detect(void);
/* The level kernels should use now: min(detected, cap). */
TX_HIDDEN tx_isa_level tx__cpu_active(void);
/* Parses "scalar" / "avx2" / "avx512" (case-insensitive); returns -1 for anything else. */
TX_HIDDEN int tx__cpu_parse_level(const char *name);

#endif
