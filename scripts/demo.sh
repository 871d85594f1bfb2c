#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: builds tensorx and runs the CLI on the bundled example data in examples/data/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
bash examples/demo.sh build/release/tensorx
