#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# No file of the repository points outside it: every relative Markdown link resolves to a file or
# folder inside the repository, and no text names the folder beside the clone (../shared).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard | grep -v '/corpora/')
else
  mapfile -t files < <(find . -path ./build -prune -o -type f -print | sed 's|^\./||' | grep -v '/corpora/')
fi
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  [ "$f" = tests/repo/links.sh ] && continue
  if grep -Iq . "$f" 2>/dev/null && grep -n '\.\./shared\b' "$f" >/dev/null; then
    bad+=("$f: names ../shared")
  fi
  case "$f" in *.md) ;; *) continue ;; esac
  dir=$(dirname "$f")
  # Markdown links [text](target): targets without a scheme or a leading '#' are repository paths.
  while IFS= read -r target; do
    target=${target%%#*}
    [ -z "$target" ] && continue
    case "$target" in http://*|https://*|mailto:*) continue ;; esac
    path=$(realpath -m "$dir/$target")
    if [[ "$path" != "$root"/* ]]; then bad+=("$f: link '$target' leaves the repository")
    elif [ ! -e "$path" ]; then bad+=("$f: link '$target' does not exist"); fi
  done < <(grep -o '\]([^) ]*)' "$f" | sed 's/^](//; s/)$//')
done
if [ ${#bad[@]} -gt 0 ]; then
  printf '%s\n' "${bad[@]}"
  exit 1
fi
echo "links: ${#files[@]} files, every link stays inside the repository"
