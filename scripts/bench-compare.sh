#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Before/after benchmark of a change: builds tensorx's benchmark at a git revision (the "before",
# in a worktree under build/) and from the working tree (the "after"), then runs every workload
# with both binaries in one run, alternating before, after, before, after ... so that the
# machine's drift hits both sides alike, and prints each workload's best time of each side and
# after/before (below 1: faster).  No peers: scripts/bench.sh compares against those.
#
# Usage: scripts/bench-compare.sh REV [--quick] [--filter SUBSTR] [--rounds N]
#   REV        the revision to compare against (a commit, tag or branch)
#   --quick    the benchmark's smaller sizes
#   --filter   only the workloads whose name contains SUBSTR
#   --rounds   how many times each side runs each workload (default 3; the best is kept)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 REV [--quick] [--filter SUBSTR] [--rounds N]" >&2; exit 2; }
rev=$1
shift
quick=() filter="" rounds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --filter) filter=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    *) echo "usage: $0 REV [--quick] [--filter SUBSTR] [--rounds N]" >&2; exit 2 ;;
  esac
  shift
done
commit=$(git -C "$root" rev-parse --verify "$rev^{commit}")
before_src=$root/build/compare-src-${commit:0:12}
before=$root/build/compare-before-${commit:0:12}
after=$root/build/compare-after

build() { # SOURCE BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DTX_BUILD_BENCH=ON >/dev/null
  cmake --build "$2" -j2 --target tensorx_bench >/dev/null
}
[ -d "$before_src" ] || git -C "$root" worktree add --detach "$before_src" "$commit" >/dev/null 2>&1
echo "bench-compare: before = ${commit:0:12} ($(git -C "$root" log -1 --format=%s "$commit" | cut -c1-60))" >&2
build "$before_src" "$before"
build "$root" "$after"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
mapfile -t names < <("$after/bench/tensorx_bench" --list | awk '{print $2}' | grep -F -- "$filter")
for ((r = 1; r <= rounds; r++)); do
  for w in "${names[@]}"; do
    for side in before after; do
      bin=$before/bench/tensorx_bench
      [ "$side" = after ] && bin=$after/bench/tensorx_bench
      # A workload the before build lacks is left out of that side.
      "$bin" "${quick[@]}" --json --exact "$w" 2>/dev/null | sed "s/^/$side /" >>"$out" || true
    done
  done
done
python3 - "$out" <<'EOF'
import json, math, sys
best = {}
for line in open(sys.argv[1]):
    side, _, text = line.partition(" ")
    if not text.startswith("{"):
        continue
    j = json.loads(text)
    for kind in ("tensorx_s", "tensorx_into_s"):
        t = j.get(kind)
        if t:
            key = (j["workload"], kind, side)
            best[key] = min(best.get(key, t), t)
print(f"{'workload':36} {'call':5} {'before ms':>10} {'after ms':>10} {'after/before':>13}")
ratios = []
for w in dict.fromkeys(k[0] for k in best):
    for kind, label in (("tensorx_s", "alloc"), ("tensorx_into_s", "into")):
        b, a = best.get((w, kind, "before")), best.get((w, kind, "after"))
        if b and a:
            ratios.append(a / b)
            print(f"{w:36} {label:5} {b * 1e3:10.2f} {a * 1e3:10.2f} {a / b:13.2f}")
if ratios:
    g = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"geometric mean after/before: {g:.3f} over {len(ratios)} rows; "
          f"slowest {max(ratios):.2f}, fastest {min(ratios):.2f}")
EOF
