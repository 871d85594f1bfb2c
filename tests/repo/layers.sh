#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The library's dependencies run one way, and every include names its file from one root.
#   src/: core -> kernels -> dispatch -> exec -> ops -> io.  A file may include the public headers
#   (include/) and headers of its own layer or of the layers before it, always as "layer/path.h"
#   from src/.
#   tools/: the public header and the tools' own headers, never the library's internals.
# Usage: layers.sh [ROOT]   (ROOT: a tree to check, default the repository; the test runs it
# once on a copy with a wrong include, to show that it can fail.)
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

while IFS= read -r f; do
  while IFS=: read -r line inc; do
    [ "$inc" = tensorx.h ] && continue
    [ -f "tools/$inc" ] || bad+=("$f:$line: tools include only tensorx.h and tools/ headers, not \"$inc\"")
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed -E 's/^([0-9]+):.*"([^"]+)".*/\1:\2/')
done < <(find tools -type f \( -name '*.c' -o -name '*.h' \) | sort)

if [ ${#bad[@]} -gt 0 ]; then
  printf 'layers: %s\n' "${bad[@]}"
  exit 1
fi

# The check must be able to fail: a kernel that includes the thread pool is refused.
if [ $# -eq 0 ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cp -r src tools "$tmp/"
  printf '#include "exec/pool.h"\n' >>"$tmp/src/kernels/copy.h"
  if bash "$0" "$tmp" >/dev/null 2>&1; then
    echo "layers: the check accepted kernels/copy.h including exec/pool.h"
    exit 1
  fi
fi
echo "layers: $(find src -name '*.[ch]' | wc -l) library files and $(find tools -name '*.[ch]' | wc -l) tool files follow ${layers[*]}"
