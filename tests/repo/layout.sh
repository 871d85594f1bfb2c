#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README.md's Layout table matches the tree: every folder under the top-level folders below has a
# row of its own (| `path/` | ...) or is named (`name/`) in its parent's row, and every folder the
# table names exists.
set -euo pipefail
cd "$(dirname "$0")/../.."
roots=(include src frontend tools tests fuzz bench scripts docs cmake examples python .ci)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- "${roots[@]}")
else
  mapfile -t files < <(find "${roots[@]}" -type f 2>/dev/null)
fi
# Every folder holding a tracked file, and each of its parents up to the top-level one.
declare -A dirs=()
for f in "${files[@]}"; do
  [[ $f == */* && -e $f ]] || continue
  d=${f%/*}
  while [ -z "${dirs[$d]+x}" ]; do
    dirs[$d]=1
    [[ $d == */* ]] || break
    d=${d%/*}
  done
done
# The table's rows: path -> the row's text.
declare -A rows=()
while IFS= read -r line; do
  path=${line#'| `'}
  path=${path%%'/`'*}
  rows[$path]=$line
done < <(sed -n '/^## Layout$/,/^## /p' README.md | grep '^| `[^`]*/` |')
bad=()
[ ${#rows[@]} -gt 0 ] || bad+=("README.md: no Layout table (rows | \`folder/\` | ...)")
for d in "${!dirs[@]}"; do
  [ -n "${rows[$d]+x}" ] && continue
  parent=$(dirname "$d")
  if [ -n "${rows[$parent]+x}" ] && [[ ${rows[$parent]} == *"\`$(basename "$d")/\`"* ]]; then continue; fi
  bad+=("README.md: the Layout table does not name $d/")
done
for p in "${!rows[@]}"; do
  [ -d "$p" ] || bad+=("README.md: the Layout table names $p/, which does not exist")
  # Subfolders named in the row (`name/`) must exist under it.
  rest=${rows[$p]#*'/` |'}
  while IFS= read -r name; do
    [ -d "$p/$name" ] || bad+=("README.md: the $p/ row names $name/, but $p/$name/ does not exist")
  done < <(grep -o '`[A-Za-z0-9_.-]*/`' <<<"$rest" | tr -d '`' | sed 's|/$||')
done
if [ ${#bad[@]} -gt 0 ]; then
  printf '%s\n' "${bad[@]}" | sort
  exit 1
fi
echo "layout: README.md's Layout table names all ${#dirs[@]} folders, and each exists"
