#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source, script and build file of the repository carries the licence's SPDX line in its
# first three lines (after a shebang); data files (fuzz corpora, .npy, .json) do not.
set -euo pipefail
cd "$(dirname "$0")/../.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard)
else
  mapfile -t files < <(find . -path ./build -prune -o -type f -print | sed 's|^\./||')
fi
checked=0 missing=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  case "$f" in
    */corpora/*|build/*|*/node_modules/*) continue ;;
    *.c|*.h|*.def|*.inc|*.js|*.sh|*.py|*.cmake|*.in|*CMakeLists.txt|.ci/run|*.1) ;;
    *) continue ;;
  esac
  checked=$((checked + 1))
  head -3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || missing+=("$f")
done
if [ ${#missing[@]} -gt 0 ]; then
  printf 'no SPDX-License-Identifier line in: %s\n' "${missing[@]}"
  echo "0 passed, 1 failed"
  exit 1
fi
[ -f LICENSE ] && grep -q 'Apache License' LICENSE || { echo "LICENSE is missing"; exit 1; }
echo "spdx: $checked files carry the licence line"
