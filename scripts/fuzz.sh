#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) and runs each for
# SECONDS (default 30).  Usage:
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: npy args decode string_pack string_layout dlpack ops
#                                              ops_diff tfrecord safetensors idx example tensorproto npz
#                                              (default: all)
# Environment: TX_FUZZ_BUILD (build dir, default build/fuzz), TX_FUZZ_JOBS (build jobs, default 2),
# TX_FUZZ_FLAGS (extra libFuzzer flags), TX_FUZZ_PARALLEL (targets run at once, default one per
# core), TX_FUZZ_SEED (libFuzzer's -seed; scripts/test.sh sets one so that CI's short runs are
# reproducible).  New inputs go to $TX_FUZZ_BUILD/corpus/<target> (the seeds in
# fuzz/corpora/<target> are read, never written); a crash is saved as
# $TX_FUZZ_BUILD/artifacts/<target>-crash-<sha1>, and the script exits non-zero after running all
# targets.  Each target's CPU time is logged to $TX_FUZZ_BUILD/fuzz_<target>.cpu every 5 minutes
# (for the fuzzing ledger).  See docs/reliability.md for minimising a crash and adding it to the corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=30
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then secs=$1; shift; fi
all=(npy args decode string_pack string_layout dlpack ops ops_diff tfrecord safetensors idx example tensorproto npz)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
build=${TX_FUZZ_BUILD:-build/fuzz}
jobs=${TX_FUZZ_JOBS:-2}
. scripts/lib/cpu-watch.sh

# clang and its sanitizer/libFuzzer runtimes, plus what the build's tests directory configures.
bash scripts/install-deps.sh clang libclang-rt-14-dev

# -O1 keeps the fuzzers fast while the Debug build type keeps assert() on.
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="-O1 -fsanitize=fuzzer-no-link" \
  -DTX_SANITIZE='address;undefined' -DTX_BUILD_FUZZ=ON -DTX_WERROR=OFF -DTX_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$jobs" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# One target's run; its summary goes to $build/fuzz_$t.result, its log to $build/fuzz_$t.log.
run_target() {
  local t=$1 start timeout seeds pid status cpu
  mkdir -p "$build/corpus/$t" "$build/artifacts"
  rm -f "$build/fuzz_$t.cpu"
  start=$(date +%s)
  # ops_diff reads the ops seeds too (the same encoding) in runs of 10 minutes and more: loading
  # them (2,200 inputs, each at nine configurations) takes 2-3 minutes, a short run's whole time,
  # and the ctest fuzz.ops_diff replays them anyway.
  seeds=("fuzz/corpora/$t")
  [ "$t" = ops_diff ] && [ "$secs" -ge 600 ] && seeds+=(fuzz/corpora/ops)
  # A hang is a call past 10 s; ops_diff makes each call up to nine times (four x86-64 levels,
  # AVX512_BF16 one of them, x 1 and several threads, and streaming everything).
  timeout=10
  [ "$t" = ops_diff ] && timeout=90
  # shellcheck disable=SC2086
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=$timeout -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$t-" ${TX_FUZZ_SEED:+-seed=$TX_FUZZ_SEED} ${TX_FUZZ_FLAGS:-} "$build/corpus/$t" "${seeds[@]}" \
      >"$build/fuzz_$t.log" 2>&1 &
  pid=$!
  # Its CPU time for the ledger ($build/fuzz_$t.cpu), also when the run is ended from outside.
  cpu_watch "$pid" "$build/fuzz_$t.cpu" &
  status=0
  wait "$pid" || status=$?
  wait $! 2>/dev/null || true
  cpu=$(tail -1 "$build/fuzz_$t.cpu" | awk '{print $5}')
  if [ "$status" -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$build/fuzz_$t.log"; then
    # ended by hand (SIGINT): libFuzzer prints its stats and exits 72; not a crash
    echo "   interrupted after $(( $(date +%s) - start ))s (${cpu:-?} s of CPU): $(grep -E '^stat::number_of_executed_units' "$build/fuzz_$t.log" | awk '{print $2}') runs" >"$build/fuzz_$t.result"
  elif [ "$status" -eq 0 ]; then
    echo "   ok in $(( $(date +%s) - start ))s (${cpu:-?} s of CPU): $(grep -E '^stat::number_of_executed_units' "$build/fuzz_$t.log" | awk '{print $2}') runs," \
         "$(grep -cE '^#[0-9]+.*(NEW|REDUCE)' "$build/fuzz_$t.log" || true) new/reduced inputs" >"$build/fuzz_$t.result"
  else
    { echo "   CRASH (status $status, log: $build/fuzz_$t.log):"
      grep -E 'ERROR|INVARIANT|runtime error|Test unit written' "$build/fuzz_$t.log" | head -5 | sed 's/^/   /'
    } >"$build/fuzz_$t.result"
    return 1
  fi
}

# The targets run TX_FUZZ_PARALLEL at a time (default: one per core), each for SECONDS of its own
# (libFuzzer is single-threaded), so a run takes SECONDS x targets / cores.
par=${TX_FUZZ_PARALLEL:-$(nproc 2>/dev/null || echo 1)}
running=0
for t in "${targets[@]}"; do
  rm -f "$build/fuzz_$t.result"
  if [ "$running" -ge "$par" ]; then wait -n || true; running=$((running - 1)); fi
  run_target "$t" &
  running=$((running + 1))
done
wait || true
failed=()
for t in "${targets[@]}"; do
  echo "== fuzz_$t: ${secs}s"
  cat "$build/fuzz_$t.result" 2>/dev/null || echo "   no result (the run did not finish)"
  grep -qE '^   (ok|interrupted) ' "$build/fuzz_$t.result" 2>/dev/null || failed+=("$t")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} target(s) crashed: ${failed[*]}"
  echo "${#targets[@]} fuzzers: $(( ${#targets[@]} - ${#failed[@]} )) passed, ${#failed[@]} failed"
  exit 1
fi
echo "${#targets[@]} passed, 0 failed"
