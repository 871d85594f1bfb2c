#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: builds tensorx and runs the CLI on the bundled example data in examples/data/.
# It says what it does while it builds; CMake's own output goes to build/demo/build.log (printed
# if a step fails).  The CLI it builds stays at build/demo/tensorx.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
say() { echo "demo: $*"; }
# A C compiler and CMake are all the demo needs (scripts/test.sh installs what the tests need).
say "installing a C compiler and CMake if they are missing (scripts/install-deps.sh --minimal)..."
bash scripts/install-deps.sh --minimal
mkdir -p build/demo
log=build/demo/build.log
: >"$log"
logged() {
  "$@" >>"$log" 2>&1 || { cat "$log"; say "failed: $* (its output is above and in $log)"; exit 1; }
}
start=$SECONDS
say "configuring build/demo (CMake, Release; its output goes to $log)..."
logged cmake -S . -B build/demo -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
say "building the library and the tensorx CLI with $jobs jobs (the first time: about a minute on 2 idle cores, more on busy ones)..."
logged cmake --build build/demo -j"$jobs" --target tensorx_cli
say "built build/demo/tensorx in $((SECONDS - start)) s; it stays there (build/demo/tensorx help lists every op)"
bash examples/demo.sh build/demo/tensorx
