#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds a current XNNPACK from an upstream source tree (a snapshot of google/XNNPACK that lives
# outside this repository) for the benchmark's second XNNPACK peer, tensorx_xnn_peer_current
# (bench/xnn_peer.c; see docs/performance.md).  Release build of the static library target only:
# no tests, no benchmarks, no KleidiAI (Arm-only), no downloads.  cpuinfo and pthreadpool come
# from Debian (XNNPACK_USE_SYSTEM_LIBS) when its packages are new enough, else from source trees
# given with --cpuinfo-src / --pthreadpool-src / --fxdiv-src (or CPUINFO_SOURCE_DIR,
# PTHREADPOOL_SOURCE_DIR, FXDIV_SOURCE_DIR: snapshots of pytorch/cpuinfo, google/pthreadpool and
# Maratyszcza/FXdiv, which pthreadpool's build needs).
# The result is BUILD_DIR/prefix: include/ (xnnpack.h, pthreadpool.h) and lib/ (the static
# libraries to link), the directory CMake's TX_XNNPACK_CURRENT_DIR takes.  A second run with the
# same source only rebuilds what changed.
#
# Usage: scripts/build-xnnpack.sh SRC_DIR [BUILD_DIR] [--cpuinfo-src DIR] [--pthreadpool-src DIR]
#                                 [--fxdiv-src DIR] [--jobs N]
#   BUILD_DIR defaults to build-bench/xnnpack-current (relative to the repository root).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src="" build="" jobs=2
cpuinfo_src=${CPUINFO_SOURCE_DIR:-}
pthreadpool_src=${PTHREADPOOL_SOURCE_DIR:-}
fxdiv_src=${FXDIV_SOURCE_DIR:-}
while [ $# -gt 0 ]; do
  case "$1" in
    --cpuinfo-src) cpuinfo_src=$2; shift ;;
    --pthreadpool-src) pthreadpool_src=$2; shift ;;
    --fxdiv-src) fxdiv_src=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    -*) echo "usage: $0 SRC_DIR [BUILD_DIR] [--cpuinfo-src DIR] [--pthreadpool-src DIR]" \
             "[--fxdiv-src DIR] [--jobs N]" >&2
        exit 2 ;;
    *) if [ -z "$src" ]; then src=$1; elif [ -z "$build" ]; then build=$1; else
         echo "$0: one SRC_DIR and one BUILD_DIR" >&2; exit 2; fi ;;
  esac
  shift
done
say() { echo "build-xnnpack.sh: $*" >&2; }
if [ -z "$src" ] || [ ! -f "$src/CMakeLists.txt" ] || [ ! -f "$src/include/xnnpack.h" ]; then
  echo "$0: SRC_DIR must be an XNNPACK source tree (CMakeLists.txt, include/xnnpack.h)" >&2
  exit 2
fi
src=$(cd "$src" && pwd)
build=${build:-$root/build-bench/xnnpack-current}

# Debian bookworm's cpuinfo (2022) and pthreadpool (2021) predate functions current XNNPACK calls
# (pthreadpool_parallelize_2d_tile_1d_dynamic, cpuinfo_has_x86_avx_vnni_int8), so the system
# libraries are used only when their headers declare them.
system_ok() {
  local pp=/usr/include/pthreadpool.h ci=/usr/include/cpuinfo.h
  [ -f "$pp" ] && [ -f "$ci" ] && grep -q pthreadpool_parallelize_2d_tile_1d_dynamic "$pp" &&
    grep -q cpuinfo_has_x86_avx_vnni_int8 "$ci"
}
deps=()
if [ -n "$cpuinfo_src" ] && [ -n "$pthreadpool_src" ]; then
  if [ -z "$fxdiv_src" ]; then
    echo "$0: pthreadpool's build needs FXdiv: give --fxdiv-src (a snapshot of" \
         "Maratyszcza/FXdiv)" >&2
    exit 2
  fi
  deps=(-DXNNPACK_USE_SYSTEM_LIBS=OFF -DCPUINFO_SOURCE_DIR="$(cd "$cpuinfo_src" && pwd)"
        -DPTHREADPOOL_SOURCE_DIR="$(cd "$pthreadpool_src" && pwd)"
        -DFXDIV_SOURCE_DIR="$(cd "$fxdiv_src" && pwd)")
  say "cpuinfo from $cpuinfo_src, pthreadpool from $pthreadpool_src, FXdiv from $fxdiv_src"
elif system_ok; then
  deps=(-DXNNPACK_USE_SYSTEM_LIBS=ON)
  say "cpuinfo and pthreadpool from the system"
else
  echo "$0: the system's cpuinfo/pthreadpool are missing or too old for this XNNPACK; give" \
       "snapshots of pytorch/cpuinfo, google/pthreadpool and Maratyszcza/FXdiv with" \
       "--cpuinfo-src, --pthreadpool-src and --fxdiv-src (or CPUINFO_SOURCE_DIR," \
       "PTHREADPOOL_SOURCE_DIR, FXDIV_SOURCE_DIR)" >&2
  exit 2
fi

mkdir -p "$build"
build=$(cd "$build" && pwd)
say "configuring $src into $build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DXNNPACK_LIBRARY_TYPE=static \
  -DXNNPACK_BUILD_TESTS=OFF -DXNNPACK_BUILD_BENCHMARKS=OFF -DXNNPACK_ENABLE_KLEIDIAI=OFF \
  -DXNNPACK_BUILD_ALL_MICROKERNELS=OFF -DXNNPACK_BUILD_YNNPACK=OFF \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON "${deps[@]}" > "$build/configure.log"
say "building the XNNPACK target with $jobs jobs (log: $build/build.log)"
cmake --build "$build" -j"$jobs" --target XNNPACK > "$build/build.log" 2>&1 ||
  { tail -30 "$build/build.log" >&2; exit 1; }

# The prefix the benchmark links against: headers and the static libraries in link order.
prefix=$build/prefix
rm -rf "$prefix" # nothing left over from a build with the other kind of dependencies
mkdir -p "$prefix/include" "$prefix/lib"
cp "$src/include/xnnpack.h" "$prefix/include/"
libs=(libXNNPACK.a libxnnpack-microkernels-prod.a)
if [ "${deps[0]}" = -DXNNPACK_USE_SYSTEM_LIBS=OFF ]; then
  cp "$(cd "$pthreadpool_src" && pwd)/include/pthreadpool.h" "$prefix/include/"
  libs+=(pthreadpool/libpthreadpool.a cpuinfo/libcpuinfo.a)
fi
for l in "${libs[@]}"; do cp "$build/$l" "$prefix/lib/"; done
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ]; then
  git -C "$src" rev-parse HEAD > "$prefix/source-commit"
else
  echo "unknown (not a git checkout)" > "$prefix/source-commit"
fi
say "done: $prefix (configure with -DTX_XNNPACK_CURRENT_DIR=$prefix)"
