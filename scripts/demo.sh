#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: builds tensorx and runs the CLI on the bundled example data in examples/data/.
set -euo pipefail
cd "$(dirname "$0")/.."
# A C compiler and CMake are all the demo needs (scripts/test.sh installs what the tests need).
bash scripts/install-deps.sh --minimal
cmake -S . -B build/demo -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build/demo -j"$(nproc 2>/dev/null || echo 2)" --target tensorx_cli >/dev/null
bash examples/demo.sh build/demo/tensorx
