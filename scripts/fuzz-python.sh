#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the Python extension's fuzz target (fuzz/fuzz_python.py) under atheris, libFuzzer for
# Python, for SECONDS (default 30), with the extension and the library built with clang's
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage (-fsanitize=fuzzer-no-link)
# and atheris' ASan + libFuzzer runtime preloaded into Debian's python.  Usage:
#   scripts/fuzz-python.sh [SECONDS] [libFuzzer flags...]
# Environment:
#   TX_FUZZPY_BUILD  its folder (default build/fuzz-python): venv/ (Debian's /usr/bin/python3 with
#                    its NumPy, plus atheris from the package index), corpus/ (new inputs; the
#                    seeds in fuzz/corpora/python are read, never written), artifacts/python-*
#                    (crashes), fuzz.log, cpu.log (the fuzzer's CPU seconds every 5 minutes, so a
#                    run killed from outside still leaves its figure)
#   TX_FUZZPY_LIB    the library's build tree (default build/fuzz, configured as scripts/fuzz.sh
#                    configures it: clang Debug -O1, -fsanitize=fuzzer-no-link, TX_SANITIZE
#                    address;undefined); tx_frontend and the CLI are brought up to date there
#   TX_FUZZPY_JOBS   build jobs (default 2)
#   TX_FUZZPY_NO_INSTALL=1  reuse the extension installed in the venv (no rebuild)
#   TX_FUZZ_SEED     libFuzzer's -seed
#   TX_FUZZPY_RSS_MB libFuzzer's -rss_limit_mb (default 4096)
#   FZ_PYTHON_KNOWN  findings already reported to let pass (fuzz/fuzz_python.py's KNOWN)
# Exits non-zero on a crash (an unexpected exception, a plan that disagrees with its run, a
# sanitizer report: docs/reliability.md, "The Python extension's fuzzer").  A crash is replayed
# without atheris by `python fuzz/fuzz_python.py --replay ARTIFACT` (FZ_VERBOSE=1 prints the call).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=30
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then secs=$1; shift; fi
build=${TX_FUZZPY_BUILD:-build/fuzz-python}
lib=${TX_FUZZPY_LIB:-build/fuzz}
jobs=${TX_FUZZPY_JOBS:-2}
root=$PWD
. scripts/lib/cpu-watch.sh

bash scripts/install-deps.sh --python clang libclang-rt-14-dev
mkdir -p "$build/corpus" "$build/artifacts" "$lib"
build=$(cd "$build" && pwd) lib=$(cd "$lib" && pwd) # absolute: used from other folders below
venv=$build/venv
if [ ! -x "$venv/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
if ! "$venv/bin/python" -c 'import atheris' 2>/dev/null; then
  # atheris ships wheels for CPython 3.11 (Debian 12's); elsewhere pip builds it with clang.
  CC=clang CXX=clang++ "$venv/bin/python" -m pip install -q atheris
fi

if [ "${TX_FUZZPY_NO_INSTALL:-0}" != 1 ]; then
  # The same configuration as scripts/fuzz.sh's, so that the two share one tree.
  CC=clang cmake -S . -B "$lib" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="-O1 -fsanitize=fuzzer-no-link" \
    -DTX_SANITIZE='address;undefined' -DTX_WERROR=OFF -DTX_BUILD_BENCH=OFF >/dev/null
  # The package from a copy of python/ (its build folders stay out of the tree), linked with the
  # tree's archives; CFLAGS gives the extension libFuzzer's coverage too.
  rm -rf "$build/python-src"
  mkdir -p "$build/python-src"
  tar -C python --exclude=./build --exclude='*.egg-info' -cf - . | tar -C "$build/python-src" -xf -
  echo "fuzz-python: building the ASan + UBSan + coverage extension ($lib, $venv)"
  CC=clang LDSHARED="clang -shared" CFLAGS="-fsanitize=fuzzer-no-link" \
    TENSORX_SANITIZE=address,undefined TENSORX_SOURCE_DIR=$root TENSORX_BUILD_DIR=$lib \
    TENSORX_JOBS=$jobs "$venv/bin/python" -m pip install -q --no-build-isolation --no-index \
    --force-reinstall --no-deps "$build/python-src" >"$build/install.log" 2>&1 ||
    { cat "$build/install.log"; echo "fuzz-python: the build failed"; exit 1; }
fi
asan=$("$venv/bin/python" -c 'import atheris; print(atheris.path())')/asan_with_fuzzer.so
[ -f "$asan" ] || { echo "fuzz-python: $asan missing (atheris without its ASan runtime)"; exit 1; }

# detect_leaks=0: CPython's allocations alive at exit look like leaks.  PYTHONMALLOC=malloc: the
# extension's PyMem buffers come from malloc, where ASan watches them.  The quarantine is kept small
# so that RSS stays below -rss_limit_mb over hours.  max_allocation_size_mb: a request above 3 GiB
# gets NULL (tensorx then reports resource_exhausted, as the C fuzzers' checking allocator makes
# it), below libFuzzer's -malloc_limit_mb, which would stop the run.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:quarantine_size_mb=64:max_allocation_size_mb=3072}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export PYTHONMALLOC=malloc
# tensorx's size cap for Python, where the package honours it; the harness also sizes
# each call with tensorx.plan and skips those whose outputs pass 32 MiB.
export TENSORX_MAX_BYTES=${TENSORX_MAX_BYTES:-268435456}
log=$build/fuzz.log
cpu=$build/cpu.log
echo "== fuzz_python: ${secs}s (log $log)"
start=$(date +%s)
# shellcheck disable=SC2086
(cd "$build" && LD_PRELOAD=$asan exec "$venv/bin/python" "$root/fuzz/fuzz_python.py" \
  -max_total_time="$secs" -timeout=20 -rss_limit_mb="${TX_FUZZPY_RSS_MB:-4096}" \
  -malloc_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$build/artifacts/python-" ${TX_FUZZ_SEED:+-seed=$TX_FUZZ_SEED} "$@" \
  "$build/corpus" "$root/fuzz/corpora/python") >"$log" 2>&1 &
pid=$!
cpu_watch "$pid" "$cpu" &
watch=$!
status=0
wait "$pid" || status=$?
wait "$watch" 2>/dev/null || true  # (it ends with the fuzzer, after its last line)
echo "$(date +%FT%T) pid $pid exited $status after $(( $(date +%s) - start ))s" >>"$cpu"
runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
new=$(grep -cE '^#[0-9]+.*(NEW|REDUCE)' "$log" || true)
# Ended by hand (SIGINT: libFuzzer prints its stats and exits 72) is not a crash.
if [ "$status" -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
  echo "   interrupted after $(( $(date +%s) - start ))s: ${runs:-?} runs, $new new/reduced inputs"
elif [ "$status" -eq 0 ]; then
  echo "   ok in $(( $(date +%s) - start ))s: ${runs:-?} runs, $new new/reduced inputs," \
       "corpus $(find "$build/corpus" -type f | wc -l) files"
else
  echo "   CRASH (status $status; log: $log):"
  grep -E 'Finding|ERROR|runtime error|Uncaught Python exception|Test unit written' "$log" |
    head -8 | sed 's/^/   /'
  exit 1
fi
