#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the test suite under valgrind memcheck, or the threaded tests under ThreadSanitizer.
#
#   scripts/valgrind.sh [CTEST_ARGS...]         every ctest test of a plain (non-sanitized) Debug
#                                               build, each test program under memcheck
#   scripts/valgrind.sh --tsan [CTEST_ARGS...]  a -DTX_SANITIZE=thread build; runs the unit tests
#                                               that use threads (test_parallel, test_reentrancy,
#                                               and the gather family's: test_unique's per-thread
#                                               chunks and test_one_hot's split rows at 1-5
#                                               threads, test_gather, test_gather_limits,
#                                               test_partition)
#
# memcheck: any memcheck error or definite or indirect leak (--leak-check=full,
# --errors-for-leak-kinds=definite,indirect) makes the program exit 99, so the test that ran it
# fails; each report is also kept in $BUILD/valgrind-logs/, and the script fails at the end if any
# report was written (a CLI call that a test expects to fail, e.g. through expect_fail, would
# otherwise hide one).  Programs that ctest starts itself (unit tests, fuzz corpus replays,
# examples, `tensorx conform`) run through CMAKE_CROSSCOMPILING_EMULATOR; the shell and Python tests
# call the CLI as $TX, which ctest points at the built tensorx, so after the build that file is
# replaced by a wrapper that runs the real binary (tensorx.real) under memcheck.  Extra ctest
# arguments pass through (e.g. -R unit, -E oracle).
# Environment: TX_VALGRIND_BUILD (default build/valgrind or build/tsan), TX_VALGRIND_JOBS (default
# 2), TX_VALGRIND_OPTS (extra valgrind options, e.g. --track-origins=yes), TX_VALGRIND_CLI_SAMPLE=N
# (default 1: every $TX call runs under memcheck; N > 1: one call in N, chosen by a hash of its
# arguments, the others natively -- the oracle tests make thousands of calls),
# TX_VALGRIND_REPLAY_SAMPLE=N (default 4: the fuzz.<target> replays run one corpus input in N,
# chosen by a hash of its name -- the 3,500 ops_diff inputs, each at five configurations, passed
# the 600 s timeout under memcheck; the release and sanitizer builds replay them all),
# TX_VALGRIND_CHECKASM_SAMPLE=N (default 4: checkasm's two largest cast checks take one case in N:
# about 1,180 of the valgrind stage's 1,300 s were checkasm; the other stages check them all).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=memcheck
if [ "${1:-}" = "--tsan" ]; then mode=tsan; shift; fi
jobs=${TX_VALGRIND_JOBS:-2}

if [ $mode = memcheck ]; then bash scripts/install-deps.sh valgrind; else bash scripts/install-deps.sh; fi

if [ $mode = tsan ]; then
  build=${TX_VALGRIND_BUILD:-build/tsan}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DTX_WERROR=ON -DTX_SANITIZE=thread -DTX_BUILD_BENCH=OFF >/dev/null
  targets=()
  for t in test_parallel test_reentrancy test_gather test_gather_limits test_unique test_partition \
    test_one_hot; do [ -f "tests/unit/$t.c" ] && targets+=("$t"); done
  cmake --build "$build" -j"$jobs" --target "${targets[@]}" >/dev/null
  # halt_on_error: the first race fails the test.  die_after_fork=0: test_parallel checks that a
  # forked child gets a fresh pool, which TSan otherwise refuses to let it start.
  export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:die_after_fork=0}
  regex="^unit\\.($(IFS='|'; echo "${targets[*]}"))\$"
  exec ctest --test-dir "$build" --output-on-failure -R "$regex" "$@"
fi

build=${TX_VALGRIND_BUILD:-build/valgrind}
mkdir -p "$build"
build=$(cd "$build" && pwd)
logs=$build/valgrind-logs
rm -rf "$logs"
mkdir -p "$logs"

# The runner: memcheck with the options above; a report goes to stderr and to $logs.
runner=$build/valgrind-run
{
  echo '#!/bin/sh'
  echo '# Runs a program under memcheck for scripts/valgrind.sh (generated).'
  echo "log=\$(mktemp \"$logs/run.XXXXXX\")"
  echo "valgrind --tool=memcheck --quiet --error-exitcode=99 --leak-check=full \\"
  echo "  --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \\"
  echo "  --num-callers=30 --log-file=\"\$log\" ${TX_VALGRIND_OPTS:-} \"\$@\""
  echo 'rc=$?'
  echo 'if [ -s "$log" ]; then'
  echo '  { echo "== valgrind: $*"; cat "$log"; } >&2'
  echo '  { echo "== $*"; cat "$log"; } >"$log.report"'
  echo 'fi'
  echo 'rm -f "$log"'
  echo 'exit $rc'
} >"$runner"
chmod +x "$runner"

# -O1 -g, as valgrind's manual advises (-O0 made memcheck's run several times longer; above -O1
# it may report false uninitialised values); Debug keeps assert() on.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1" -DTX_WERROR=ON \
  -DTX_SANITIZE= -DTX_BUILD_BENCH=OFF "-DCMAKE_CROSSCOMPILING_EMULATOR=$runner" >/dev/null
cmake --build "$build" -j"$jobs" >/dev/null

# $TX for the shell and Python tests: the real CLI under memcheck (one call in N when sampling).
if [ "$(head -c 4 "$build/tensorx" | tail -c 3)" = ELF ]; then
  mv -f "$build/tensorx" "$build/tensorx.real"
fi
sample=${TX_VALGRIND_CLI_SAMPLE:-1}
{
  echo '#!/bin/sh'
  echo '# The CLI under memcheck for scripts/valgrind.sh (generated); the real binary is tensorx.real.'
  if [ "$sample" -gt 1 ]; then
    echo "if [ \$(( \$(printf '%s' \"\$*\" | cksum | cut -d' ' -f1) % $sample )) -ne 0 ]; then"
    echo "  exec \"$build/tensorx.real\" \"\$@\""
    echo 'fi'
  fi
  echo "exec \"$runner\" \"$build/tensorx.real\" \"\$@\""
} >"$build/tensorx"
chmod +x "$build/tensorx"

export TX_REPLAY_SAMPLE=${TX_VALGRIND_REPLAY_SAMPLE:-4} # fuzz/replay.c
export TX_CHECKASM_SAMPLE=${TX_VALGRIND_CHECKASM_SAMPLE:-4} # tests/kernels/checkasm_cast.c

# Many CLI calls per test, each several times slower under valgrind: generous timeouts.
rc=0
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 3000 "$@" || rc=$?
reports=$(find "$logs" -name '*.report' | wc -l)
if [ "$reports" -gt 0 ]; then
  echo "valgrind: $reports program run(s) had memcheck errors or leaks:"
  cat "$logs"/*.report | head -300
  rc=1
fi
if [ $rc -eq 0 ]; then
  echo "valgrind: the suite ran under memcheck with no error and no leak ($build)"
fi
exit $rc
