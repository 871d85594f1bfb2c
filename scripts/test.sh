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

cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DTX_WERROR=ON -DTX_SANITIZE='address;undefined'
cmake --build build/asan -j"$jobs"
ctest --test-dir build/asan --output-on-failure -j"$jobs"
echo "tensorx: all tests passed (release and address;undefined builds)"
