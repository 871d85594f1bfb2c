#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The test valgrind.shutdown: programs that end with tx_shutdown() are memcheck-clean, with every
# leak kind counted as an error (possibly lost and still reachable included).
#   run.sh SHUTDOWN_CLEAN DATA_DIR [EXAMPLE...]
# 1. SHUTDOWN_CLEAN DATA_DIR (tests/valgrind/shutdown_clean.c: threads, cached blocks, a mapped
#    file, then tx_shutdown) must give no memcheck report at all;
# 2. the same program with --no-shutdown must be reported (memcheck exits 99 and names possibly
#    lost memory), so a run that found nothing in step 1 did look at threads and cached blocks;
# 3. every EXAMPLE DATA_DIR must give no report.
# Exits 77 (ctest: skipped) when valgrind is not installed.
set -uo pipefail
if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind is not installed: test skipped (scripts/install-deps.sh valgrind installs it)"
  exit 77
fi
prog=$1 data=$2
shift 2
log=$(mktemp /tmp/tx-valgrind.XXXXXX)
trap 'rm -f "$log"' EXIT
fails=0

# memcheck PROGRAM ARGS...: runs it; the status is memcheck's (99: a report) or the program's.
memcheck() {
  valgrind --tool=memcheck --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
    --error-exitcode=99 --num-callers=30 --log-file="$log" "$@" >/dev/null
}

clean() {
  memcheck "$@"
  local rc=$?
  if [ $rc -ne 0 ] || grep -qE "possibly lost: [1-9]|still reachable: [1-9]|definitely lost: [1-9]|indirectly lost: [1-9]" "$log"; then
    echo "FAIL: $* under memcheck (exit $rc):"
    cat "$log"
    fails=$((fails + 1))
  else
    echo "PASS: $* is memcheck-clean"
  fi
}

clean "$prog" "$data"

memcheck "$prog" "$data" --no-shutdown
rc=$?
if [ $rc -eq 99 ] && grep -q "possibly lost: [1-9]" "$log" && grep -q "still reachable: [1-9]" "$log"; then
  echo "PASS: without tx_shutdown memcheck reports the worker thread (possibly lost) and the cache (still reachable)"
else
  echo "FAIL: without tx_shutdown memcheck should report possibly lost and still reachable memory (exit $rc):"
  cat "$log"
  fails=$((fails + 1))
fi

for ex in "$@"; do clean "$ex" "$data"; done

[ $fails -eq 0 ] || { echo "$fails program run(s) failed"; exit 1; }
