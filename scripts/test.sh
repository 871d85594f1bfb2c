#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds tensorx and runs every test, in stages (all by default; this is the README's test command and
# what CI runs):
#   release   Release build with -Werror, the whole ctest suite
#   asan      the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer
#   tsan      the threaded tests under ThreadSanitizer             (scripts/valgrind.sh --tsan), then
#             the stress test for TX_STRESS_SECONDS (30) under TSan and under ASan (scripts/stress.sh)
#   fuzz      every libFuzzer target for TX_FUZZ_SECONDS (30) each, seed TX_FUZZ_SEED (1)
#   valgrind  the whole suite under valgrind memcheck, one CLI call in TX_VALGRIND_CLI_SAMPLE (25)
#             from the shell and Python tests, every other program always (scripts/valgrind.sh)
# TX_TEST_STAGES="release asan" runs a subset (for iterating; CI runs all).  Installs what it needs
# first (Debian packages).  About 20 minutes on a quiet 2-core machine, 45 under load.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
stages=${TX_TEST_STAGES:-release asan tsan fuzz valgrind}
has() { [[ " $stages " == *" $1 "* ]]; }
stage() { echo "== tensorx test stage: $1 ($(date +%T))"; }

if has release; then
  stage release
  cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DTX_WERROR=ON
  cmake --build build/release -j"$jobs"
  ctest --test-dir build/release --output-on-failure -j"$jobs"
fi

if has asan; then
  stage asan
  # ASan aborts on allocations beyond its limit unless told to return NULL; tensorx must then
  # report resource_exhausted, which the tests check.
  ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1} bash -c '
    cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DTX_WERROR=ON -DTX_SANITIZE="address;undefined" &&
    cmake --build build/asan -j"$1" &&
    ctest --test-dir build/asan --output-on-failure -j"$1"' _ "$jobs"
fi

if has tsan; then
  stage tsan
  bash scripts/valgrind.sh --tsan
  # Every op from many threads at once, allocations failing at random: 30 s under each sanitizer.
  bash scripts/stress.sh --tsan "${TX_STRESS_SECONDS:-30}"
  bash scripts/stress.sh --asan "${TX_STRESS_SECONDS:-30}"
fi

if has fuzz; then
  stage fuzz
  # A fixed seed keeps this short run reproducible; long random runs are `scripts/fuzz.sh 3600`.
  TX_FUZZ_SEED=${TX_FUZZ_SEED:-1} bash scripts/fuzz.sh "${TX_FUZZ_SECONDS:-30}"
fi

if has valgrind; then
  stage valgrind
  TX_VALGRIND_CLI_SAMPLE=${TX_VALGRIND_CLI_SAMPLE:-25} bash scripts/valgrind.sh
fi
echo "tensorx: all tests passed (stages: $stages)"
