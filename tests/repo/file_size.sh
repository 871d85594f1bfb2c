#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# No source file over 700 lines: a file that grows past that holds more than one topic and is split
# by topic (the public header into include/tensorx/, a test by op family).
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=700
roots=(include src frontend tools tests fuzz bench scripts examples python)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- "${roots[@]}" | grep -E '\.(c|h|cpp|py|sh)$')
else
  mapfile -t files < <(find "${roots[@]}" -type f 2>/dev/null | grep -E '\.(c|h|cpp|py|sh)$')
fi
over() {  # the files among "$@" (.c .h .cpp .py .sh) longer than $limit lines
  for f in "$@"; do
    case $f in *.c | *.h | *.cpp | *.py | *.sh) ;; *) continue ;; esac
    [ -f "$f" ] || continue
    n=$(wc -l <"$f")
    [ "$n" -le $limit ] || echo "$f: $n lines (more than $limit)"
  done
}
# The check can fail: a file of limit+1 lines is reported.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seq $((limit + 1)) >"$tmp/long.c"
[ -n "$(over "$tmp/long.c")" ] || { echo "FAIL the check did not report a file of $((limit + 1)) lines"; exit 1; }
bad=$(over "${files[@]}")
if [ -n "$bad" ]; then
  echo "$bad" | sed 's/^/FAIL /'
  echo "0 passed, 1 failed"
  exit 1
fi
echo "file_size: ${#files[@]} source files, none over $limit lines"
