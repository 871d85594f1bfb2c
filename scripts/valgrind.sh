#!/usr/bin/env bash
# Runs the test suite under valgrind memcheck, or the threaded tests under ThreadSanitizer.
#
#   scripts/valgrind.sh [CTEST_ARGS...]         every ctest test of a plain (non-sanitized) Debug
#                                               build, each test program under memcheck
#   scripts/valgrind.sh --tsan [CTEST_ARGS...]  a -DTX_SANITIZE=thread build; runs the unit tests
#                                               that use threads (test_parallel, test_reentrancy)
#
# memcheck: a test fails on any memcheck error or any definite or indirect leak
# (--error-exitcode, --leak-check=full, --errors-for-leak-kinds=definite,indirect).  Programs that
# ctest starts itself (unit tests, fuzz corpus replays, examples, `tensorx conform`) run through
# CMAKE_CROSSCOMPILING_EMULATOR; the shell and Python tests call the CLI through $TX, which ctest
# points at the built tensorx, so after the build that file becomes a wrapper that runs the real
# binary (tensorx.real) under memcheck.  Extra ctest arguments pass through (e.g. -R unit, -E oracle).
# Environment: TX_VALGRIND_BUILD (default build/valgrind or build/tsan), TX_VALGRIND_JOBS (default
# 2), TX_VALGRIND_OPTS (extra valgrind options, e.g. --track-origins=yes).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=memcheck
if [ "${1:-}" = "--tsan" ]; then mode=tsan; shift; fi
jobs=${TX_VALGRIND_JOBS:-2}

need=(build-essential cmake pkg-config libcmocka-dev python3 python3-numpy)
[ $mode = memcheck ] && need+=(valgrind)
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ $mode = tsan ]; then
  build=${TX_VALGRIND_BUILD:-build/tsan}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DTX_SANITIZE=thread -DTX_BUILD_BENCH=OFF >/dev/null
  targets=()
  for t in test_parallel test_reentrancy; do [ -f "tests/unit/$t.c" ] && targets+=("$t"); done
  cmake --build "$build" -j"$jobs" --target "${targets[@]}" >/dev/null
  # halt_on_error: the first race fails the test; second_deadlock_stack for lock-order reports.
  export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:history_size=4}
  regex="^unit\\.($(IFS='|'; echo "${targets[*]}"))\$"
  exec ctest --test-dir "$build" --output-on-failure -R "$regex" "$@"
fi

build=${TX_VALGRIND_BUILD:-build/valgrind}
mkdir -p "$build"
build=$(cd "$build" && pwd)
runner=$build/valgrind-run
cat >"$runner" <<EOF
#!/bin/sh
# Runs a program under memcheck; exit 99 on any error or definite/indirect leak (scripts/valgrind.sh).
exec valgrind --tool=memcheck --quiet --error-exitcode=99 --leak-check=full \\
  --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \\
  --num-callers=30 ${TX_VALGRIND_OPTS:-} "\$@"
EOF
chmod +x "$runner"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DTX_SANITIZE= -DTX_BUILD_BENCH=OFF \
  "-DCMAKE_CROSSCOMPILING_EMULATOR=$runner" >/dev/null
cmake --build "$build" -j"$jobs" >/dev/null

# $TX for the shell and Python tests: the real CLI under memcheck.
if [ "$(head -c 4 "$build/tensorx" | tail -c 3)" = ELF ]; then
  mv -f "$build/tensorx" "$build/tensorx.real"
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$runner" "$build/tensorx.real" >"$build/tensorx"
  chmod +x "$build/tensorx"
fi
# Many CLI calls per test, each several times slower under valgrind: generous timeouts.
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 3000 "$@"
echo "valgrind: the suite ran under memcheck ($build)"
