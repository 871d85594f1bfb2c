#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the racing mutator harness (tests/race/race.c): every op of the CLI's table called from one
# thread while THREADS writer threads (default 2) rewrite the bytes of its inputs -- bit flips,
# indices and lengths grown past what was validated, INT32_MAX, INT64_MAX, negatives, bool bytes 1
# and 2..255, TF_TString record fields -- for SECONDS (default 60) in all, an equal share per op.
# Results are not compared; a crash, a sanitizer report or memory left after tx_shutdown() fails.
# Usage:
#   scripts/race.sh [--asan] [SECONDS] [THREADS] [tx_race options]
#     (none)   build/release (Release: only crashes show)
#     --asan   build/asan, AddressSanitizer + UndefinedBehaviorSanitizer (scripts/test.sh's build)
#   tx_race options: -R REGEX (only the ops whose name matches), --seed N, --pool N (the library's
#   threads, default 2), --max-bytes N, -v (each call's size, time and tries).
# A build dir that exists is only built (target tx_race), with the options it has.  A crash names
# the call and after how many tries and seconds on its op it came.  Environment: TX_RACE_BUILD
# (build dir), TX_RACE_JOBS (default 2).  Long runs go into docs/reliability.md's fuzzing ledger.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=release
args=()
for a in "$@"; do
  case $a in
    --asan) mode=asan ;;
    *) args+=("$a") ;;
  esac
done
[ ${#args[@]} -eq 0 ] && args=(60)
case $mode in
  release) build=build/release; opts=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan) build=build/asan; opts=(-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug "-DTX_SANITIZE=address;undefined") ;;
esac
build=${TX_RACE_BUILD:-$build}
if [ ! -f "$build/CMakeCache.txt" ]; then
  if [ $mode = asan ]; then bash scripts/install-deps.sh clang libclang-rt-14-dev; else bash scripts/install-deps.sh; fi
  cmake -S . -B "$build" "${opts[@]}" >/dev/null
fi
cmake --build "$build" -j"${TX_RACE_JOBS:-2}" --target tx_race >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "== race ($mode, $build): ${args[*]}"
exec "$build/tests/tx_race" "${args[@]}"
