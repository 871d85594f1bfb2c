#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cpu.sh -- `tensorx info --cpu`: the level in use, the detected one, the cap (TENSORX_CPU), then
# one line per dispatch slot naming the kernel the level runs; the cap shows in the names.
source "$(dirname "$0")/lib.sh"

env -u TENSORX_CPU "$TX" info --cpu >"$TX_TMP/top" 2>&1 || echo "exit $?" >>"$TX_TMP/top"
TENSORX_CPU=scalar "$TX" info --cpu >"$TX_TMP/scalar" 2>&1 || echo "exit $?" >>"$TX_TMP/scalar"
detected=$(sed -n 's/^detected: //p' "$TX_TMP/top")
slots() { tail -n +4 "$1" | cut -d' ' -f1; }

check detected_named grep -qE '^detected: (scalar|avx2|avx512|avx512_bf16|neon)$' "$TX_TMP/top"
check level_uncapped grep -qx "level: $detected" "$TX_TMP/top"
check cap_none grep -qx "cap: none" "$TX_TMP/top"
check level_scalar grep -qx "level: scalar" "$TX_TMP/scalar"
check cap_env grep -qx "cap: TENSORX_CPU=scalar" "$TX_TMP/scalar"
# every slot, at every level: the same lines, each "slot[key] kernel"
check same_slots diff <(slots "$TX_TMP/top") <(slots "$TX_TMP/scalar")
check slot_count test "$(slots "$TX_TMP/scalar" | sort -u | wc -l)" -ge 45
check line_form bash -c 'tail -n +4 "$1" | grep -vE "^[a-z0-9_]+(\[[A-Z0-9_]+\])? tx__[a-z0-9_]+\$" | { ! grep .; }' _ "$TX_TMP/top"
check scalar_kernels bash -c 'tail -n +4 "$1" | { ! grep -E "_(avx2|avx512|avx512bf16|neon)\$"; }' _ "$TX_TMP/scalar"
check key_pair grep -qx 'cast\[F32_BF16\] tx__cast_f32_bf16_scalar' "$TX_TMP/scalar"
check key_width grep -qx 'transpose2d\[4\] tx__transpose2d_w4' "$TX_TMP/scalar"
check key_none grep -qx 'transpose2d_any tx__transpose2d_any' "$TX_TMP/scalar"
# float32 -> bfloat16 with vcvtne2ps2bf16 only at the AVX512_BF16 level, below it the AVX-512 one
if [ "$detected" = avx512_bf16 ]; then
    TENSORX_CPU=avx512 "$TX" info --cpu >"$TX_TMP/avx512"
    check bf16_top grep -qx 'cast\[F32_BF16\] tx__cast_f32_bf16_avx512bf16' "$TX_TMP/top"
    check bf16_capped grep -qx 'cast\[F32_BF16\] tx__cast_f32_bf16_avx512' "$TX_TMP/avx512"
    check bf16_capped_level grep -qx 'level: avx512' "$TX_TMP/avx512"
fi
expect_fail cpu_extra usage "takes one file" -- info --cpu x

finish
