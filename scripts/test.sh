#!/usr/bin/env bash
# Builds tensorx and runs every test: once in a Release build with -Werror, once under
# AddressSanitizer + UndefinedBehaviorSanitizer.  Installs what it needs first (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DTX_WERROR=ON
cmake --build build/release -j"$jobs"
ctest --test-dir build/release --output-on-failure -j"$jobs"

# ASan aborts on allocations beyond its limit unless told to return NULL; tensorx must then
# report resource_exhausted, which the tests check.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DTX_WERROR=ON -DTX_SANITIZE='address;undefined'
cmake --build build/asan -j"$jobs"
ctest --test-dir build/asan --output-on-failure -j"$jobs"
echo "tensorx: all tests passed (release and address;undefined builds)"
