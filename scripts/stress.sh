#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the stress test (tests/stress/stress.c): THREADS threads (default twice the online CPUs)
# calling every op at random, valid and invalid calls, on shared inputs for SECONDS (default 60),
# with allocations failing at random and a 4 MiB tensor limit; every result is compared with a
# single-threaded run of the same call, and no memory may be left at the end.  Usage:
#   scripts/stress.sh [--tsan|--asan] [SECONDS] [THREADS] [tx_stress options]
#     (none)   build/release (Release)
#     --tsan   build/tsan, ThreadSanitizer (the build scripts/valgrind.sh --tsan uses)
#     --asan   build/asan, AddressSanitizer + UndefinedBehaviorSanitizer (scripts/test.sh's build)
#   tx_stress options: --pool N (the library's threads, default 4), --seed N, --max-bytes N.
# A build dir that exists is only built (target tx_stress), with the options it has.  Prints calls
# per second, allocation failures injected and mismatches; exits non-zero on a mismatch, a leak or
# a sanitizer report.  Environment: TX_STRESS_BUILD (build dir), TX_STRESS_JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=release
args=()
for a in "$@"; do
  case $a in
    --tsan) mode=tsan ;;
    --asan) mode=asan ;;
    *) args+=("$a") ;;
  esac
done
[ ${#args[@]} -eq 0 ] && args=(60)
case $mode in
  release) build=build/release; opts=(-DCMAKE_BUILD_TYPE=Release) ;;
  tsan) build=build/tsan; opts=(-DCMAKE_BUILD_TYPE=Debug -DTX_SANITIZE=thread -DTX_BUILD_BENCH=OFF) ;;
  asan) build=build/asan; opts=(-DCMAKE_BUILD_TYPE=Debug "-DTX_SANITIZE=address;undefined") ;;
esac
build=${TX_STRESS_BUILD:-$build}
if [ ! -f "$build/CMakeCache.txt" ]; then
  bash scripts/install-deps.sh
  cmake -S . -B "$build" "${opts[@]}" >/dev/null
fi
cmake --build "$build" -j"${TX_STRESS_JOBS:-2}" --target tx_stress >/dev/null

export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "== stress ($mode, $build): ${args[*]}"
exec "$build/tests/tx_stress" "${args[@]}"
