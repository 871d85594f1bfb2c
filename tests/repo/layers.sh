#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The library's dependencies run one way, and every include names its file from one root.
#   src/: core -> kernels -> dispatch -> exec -> ops -> io.  A file may include the public headers
#   (include/) and headers of its own layer or of the layers before it, always as "layer/path.h"
#   from src/.
#   frontend/ (the op spec and the argument parser) -> tools/ (the CLI): a file includes the public
#   header, headers of its own folder and, in tools/, the frontend's; never the library's internals.
#   No circle of files there: a file (X.c with its X.h) that includes Y.h needs Y, and Y must not
#   need it back, directly or through others.
# Usage: layers.sh [ROOT]   (ROOT: a tree to check, default the repository; the test runs it
# on copies with a wrong include and with a circle, to show that it can fail.)
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
layers=(core kernels dispatch exec ops io)
rank() {
  local i
  for i in "${!layers[@]}"; do [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo -1
}

bad=()
while IFS= read -r f; do
  rel=${f#src/}
  from=$(rank "${rel%%/*}")
  [ "$from" -ge 0 ] || { bad+=("$f: not in a layer folder (${layers[*]})"); continue; }
  while IFS=: read -r line inc; do
    [ -f "include/$inc" ] && continue
    if [ ! -f "src/$inc" ]; then
      bad+=("$f:$line: \"$inc\" is not a path from src/ (one include root: write \"layer/file.h\")")
      continue
    fi
    to=$(rank "${inc%%/*}")
    if [ "$to" -gt "$from" ]; then
      bad+=("$f:$line: ${rel%%/*} must not include ${inc%%/*} (\"$inc\"): the layers run ${layers[*]}")
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed -E 's/^([0-9]+):.*"([^"]+)".*/\1:\2/')
done < <(find src -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' -o -name '*.inc' \) | sort)

# frontend/ and tools/: the folders a file may include from (its own first), and the edges
# "file needs file" (X.c and X.h are one file, X) for the circle check.
edges=()
for dir in frontend tools; do
  allowed=frontend
  [ "$dir" = tools ] && allowed="tools frontend"
  while IFS= read -r f; do
    base=${f%.*}
    while IFS=: read -r line inc; do
      [ "$inc" = tensorx.h ] && continue
      found=
      for d in $allowed; do
        if [ -f "$d/$inc" ]; then found="$d/${inc%.h}"; break; fi
      done
      if [ -z "$found" ]; then
        bad+=("$f:$line: $dir/ includes only tensorx.h and headers of ${allowed// /, }, not \"$inc\"")
      elif [ "$found" != "$base" ]; then
        edges+=("$base $found")
      fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed -E 's/^([0-9]+):.*"([^"]+)".*/\1:\2/')
  done < <(find "$dir" -type f \( -name '*.c' -o -name '*.h' \) | sort)
done
# tsort names the files of any circle on stderr.
if [ ${#edges[@]} -gt 0 ]; then
  while IFS= read -r loop; do
    bad+=("a circle of files (each includes the next one's header, the last the first's): $loop")
  done < <(printf '%s\n' "${edges[@]}" | sort -u | tsort 2>&1 >/dev/null |
           awk '/input contains a loop/ {if (l) print l; l = ""; next} {sub(/^tsort: /, ""); l = l (l ? " -> " : "") $0} END {if (l) print l}')
fi

if [ ${#bad[@]} -gt 0 ]; then
  printf 'layers: %s\n' "${bad[@]}"
  exit 1
fi

# The check must be able to fail: a kernel that includes the thread pool is refused, and so is a
# circle in tools/ (the conformance runner including the CLI, which includes it).
if [ $# -eq 0 ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cp -r include src tools frontend "$tmp/"
  printf '#include "exec/pool.h"\n' >>"$tmp/src/kernels/copy.h"
  if bash "$0" "$tmp" >/dev/null 2>&1; then
    echo "layers: the check accepted kernels/copy.h including exec/pool.h"
    exit 1
  fi
  rm -rf "$tmp"/*
  cp -r include src tools frontend "$tmp/"
  printf '#include "cli.h"\n' >>"$tmp/tools/conform.c"
  if bash "$0" "$tmp" >/dev/null 2>&1; then
    echo "layers: the check accepted tools/conform.c including cli.h (cli.c includes conform.h)"
    exit 1
  fi
fi
echo "layers: $(find src -name '*.[ch]' | wc -l) library files follow ${layers[*]}; $(find frontend tools -name '*.[ch]' | wc -l) frontend and tool files follow frontend -> tools, with no circle"
