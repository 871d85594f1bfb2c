#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the tensorx benchmark side by side with its peers in one run and prints the table: per
# workload tensorx's median (allocating call and into-existing-memory call), each peer's median
# (NumPy, pandas, PyTorch at 1 and 2 threads, ONNX Runtime, XNNPACK: Debian's and, with
# --xnnpack-src, a current build), tensorx/best-peer, bytes moved, GB/s and the ratio to this
# machine's memcpy measured in the same run.  Installs the peers when they are missing (Debian
# packages; onnxruntime-node from npm into bench/node_modules).
# The txpy column is tensorx itself through the Python package, installed into the venv
# $build/pyvenv (made with --system-site-packages, so it sees Debian's numpy/torch/pandas) and
# reinstalled only when python/, src/, include/, tools/ or the CMake files changed since the last
# install; bench/peers.py runs with that venv's python.  After the table: the per-call overhead of
# a view op and of a 16-element cast for txpy, NumPy and PyTorch.
# The current peers (the main table and --sweep; --no-current leaves them out): the package
# index's NumPy 2, pandas, PyTorch 2, TensorFlow, JAX, ONNX Runtime's Python API and OpenVINO,
# pinned in bench/requirements-current.txt and run by bench/peers_current.py from the venv
# $build/curvenv (TX_BENCH_CURVENV), with txpy_cur (tensorx built against NumPy 2); every one is
# checked against tensorx before it is timed.  The main table also gets the copy floor of each
# workload (tensorx_bench --floor) and the bars of docs/performance.md.
#
# Usage: scripts/bench.sh [--quick] [--filter SUBSTR] [--json] [--threads N] [--no-install] [--no-current]
#                         [--peers numpy,pandas,torch1,torch2,ort,xnnpack,xnnpack_cur,txpy]
#                         [--xnnpack-src PATH]
#        scripts/bench.sh --sweep [--quick] [--filter FAMILY] [--json] [--no-install]
#                         [--peers ...] [--xnnpack-src PATH]
#        scripts/bench.sh --files [--quick] [--filter SUBSTR] [--json] [--no-install]
#        scripts/bench.sh --datasets [--quick] [--filter SECTIONS] [--json] [--no-install]
#   --files   the file workloads instead (bench/files.py): .npy files of 1 GiB in the page cache
#             through load + op + save, for the tensorx CLI, the C API, NumPy, PyTorch and cp,
#             with wall time and peak RssAnon / RSS; inputs in build-bench/files, removed after
#   --datasets  the dataset files instead (bench/datasets.py): TFRecord -> tensors, safetensors,
#             .npz and .npy files read by tensorx's Python package, TensorFlow's tf.data, the
#             tfrecord and safetensors packages and NumPy; --filter takes section names
#             (tfrecord,safetensors,npz).  They run in the venv $build/dsvenv (TX_BENCH_DSVENV), made
#             with scripts/install-python.sh --index and then tensorflow-cpu (the version of
#             tests/tf/requirements.txt), safetensors and tfrecord from the package index (wheels
#             kept in TX_PIP_WHEELS, default build/pip-wheels); tensorx is reinstalled there when its
#             sources changed.  Inputs in $build/datasets, removed after
#   --sweep   the size sweep instead (bench/sweep.py): each op family from 4 KiB to 256 MiB, table
#             and the plot $build/sweep.png; --filter takes family names (comma-separated);
#             --quick stops at 1 MiB
#   --xnnpack-src PATH (or TX_XNNPACK_SRC=PATH)  also run XNNPACK built from this source tree (a
#             snapshot of google/XNNPACK) as the peer xnnpack_cur, next to Debian's xnnpack:
#             scripts/build-xnnpack.sh builds it into $build/xnnpack-current (its cpuinfo,
#             pthreadpool and FXdiv sources: CPUINFO_SOURCE_DIR, PTHREADPOOL_SOURCE_DIR,
#             FXDIV_SOURCE_DIR when Debian's are too old)
#   --quick   smaller sizes and fewer runs (under a minute); the full run takes a few minutes
#   --json    one JSON object per workload (the format in docs/performance.md)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TX_BENCH_BUILD_DIR:-$root/build-bench}
quick=() filter=() json=() threads=() peers=() install=1 files=0 sweep=0 datasets=0 current=1
xnnpack_src=${TX_XNNPACK_SRC:-}
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --files) files=1 ;;
    --datasets) datasets=1 ;;
    --sweep) sweep=1 ;;
    --xnnpack-src) xnnpack_src=$2; shift ;;
    --json) json=(--json) ;;
    --filter) filter=(--filter "$2"); shift ;;
    --threads) threads=(--threads "$2"); shift ;;
    --peers) peers=(--peers "$2"); shift ;;
    --no-install) install=0 ;;
    --no-current) current=0 ;;
    *) echo "usage: $0 [--files | --datasets | --sweep] [--quick] [--filter SUBSTR] [--json] [--threads N]" \
            "[--no-install] [--no-current] [--peers LIST] [--xnnpack-src PATH]" >&2
       exit 2 ;;
  esac
  shift
done
say() { echo "bench.sh: $*" >&2; }
# Prints a file of the tensorx package's sources (or of the extra paths given) newer than STAMP,
# nothing when none is: a venv's tensorx is reinstalled only when its sources changed.
changed_since() {
  local stamp=$1; shift
  [ -f "$stamp" ] || { echo "$stamp"; return; }
  find "$root/python" "$root/src" "$root/include" "$root/tools" "$root/cmake" \
    "$root/CMakeLists.txt" "$@" -newer "$stamp" -type f \
    -not -path "$root/python/build/*" -not -path "*.egg-info/*" \
    -not -path "*/__pycache__/*" -not -path "$root/python/tests/*" -print -quit 2>/dev/null
}

# The Debian peers and ONNX Runtime (not --datasets: its peers come from the package index, below).
if [ "$install" = 1 ] && [ "$datasets" = 0 ]; then
  pkgs=(build-essential cmake pkg-config python3 python3-numpy python3-torch python3-pandas
        libxnnpack-dev libpthreadpool-dev python3-dev python3-setuptools python3-pip python3-venv
        python3-matplotlib)
  command -v node > /dev/null || pkgs+=(nodejs)
  command -v npm > /dev/null || pkgs+=(npm)
  missing=()
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq >&2
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
      say "some peers could not be installed; they are left out"
  fi
  if command -v npm > /dev/null && [ ! -d "$root/bench/node_modules/onnxruntime-node" ]; then
    say "installing onnxruntime-node into bench/node_modules"
    ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$root/bench" --no-save --no-audit --no-fund \
      onnxruntime-node >&2 || say "onnxruntime-node could not be installed; ONNX Runtime is left out"
  fi
fi

# The current XNNPACK (--xnnpack-src): built by its script, then the benchmark's CMake points at it.
# Without a path the cache variable is emptied, so the run is exactly Debian's XNNPACK as before.
xnn_cur_dir=""
if [ -n "$xnnpack_src" ]; then
  if "$root/scripts/build-xnnpack.sh" "$xnnpack_src" "$build/xnnpack-current"; then
    xnn_cur_dir=$build/xnnpack-current/prefix
  else
    say "the current XNNPACK could not be built; xnnpack_cur is left out"
  fi
fi
say "building (Release) in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DTX_BUILD_BENCH=ON \
  -DTX_XNNPACK_CURRENT_DIR="$xnn_cur_dir" > /dev/null
if [ "$datasets" = 1 ]; then
  dsvenv=${TX_BENCH_DSVENV:-$build/dsvenv}
  stamp=$dsvenv/.tensorx-installed
  log=$build/dsinstall.log
  if [ "$install" = 1 ] && [ -n "$(changed_since "$stamp")" ]; then
    say "installing tensorx, TensorFlow, safetensors and tfrecord into $dsvenv (log: $log)"
    wheels=${TX_PIP_WHEELS:-$root/build/pip-wheels}
    tf_req=$(grep -m1 '^tensorflow-cpu==' "$root/tests/tf/requirements.txt")
    touch "$build/dsstamp.new"
    (cd "$root" && TX_PIP_WHEELS=$wheels bash scripts/install-python.sh --venv "$dsvenv" --index \
       --build-dir "$build" &&
     "$dsvenv/bin/python" -m pip download -q -d "$wheels" "$tf_req" safetensors tfrecord crc32c &&
     "$dsvenv/bin/python" -m pip install -q --no-index --find-links "$wheels" "$tf_req" \
       safetensors tfrecord crc32c) > "$log" 2>&1 &&
      mv "$build/dsstamp.new" "$stamp" ||
      say "the venv could not be made complete (see $log); what is missing is left out"
  fi
  [ -x "$dsvenv/bin/python" ] || { say "no venv $dsvenv"; exit 1; }
  say "running the dataset files (inputs in $build/datasets)"
  args=(--dir "$build/datasets" "${quick[@]}" "${json[@]}")
  [ "${#filter[@]}" -gt 0 ] && args+=(--sections "${filter[1]}")
  cd / # so that python/tensorx in the tree cannot shadow the installed package
  exec "$dsvenv/bin/python" "$root/bench/datasets.py" "${args[@]}"
fi
# The current peers (bench/peers_current.py; --no-current leaves them out): the package index's
# releases pinned in bench/requirements-current.txt, in the venv $curvenv beside the tensorx
# package built against NumPy 2; made once, its tensorx rebuilt when the sources change.
cur_cmd=""
if [ "$current" = 1 ]; then
  curvenv=${TX_BENCH_CURVENV:-$build/curvenv}
  stamp=$curvenv/.tensorx-installed
  log=$build/curinstall.log
  if [ "$install" = 1 ] && [ -n "$(changed_since "$stamp" "$root/bench/requirements-current.txt")" ]; then
    say "installing tensorx and the current peers into $curvenv (several GB the first time; log: $log)"
    touch "$build/curstamp.new"
    (cd "$root" && TX_PIP_WHEELS=${TX_PIP_WHEELS:-$root/build/pip-wheels} \
       bash scripts/install-python.sh --venv "$curvenv" --index --build-dir "$build" &&
     "$curvenv/bin/python" -m pip install -q -r bench/requirements-current.txt) > "$log" 2>&1 &&
      mv "$build/curstamp.new" "$stamp" ||
      say "the current peers' venv could not be made complete (see $log); what is missing is left out"
  fi
  # Its tensorx is the tree's, as txpy's is (below): rebuilt when the sources changed, with or
  # without --no-install (which leaves the peers' packages as they are), from the wheels kept.
  tstamp=$curvenv/.tensorx-built
  if [ -x "$curvenv/bin/python" ] && [ -n "$(changed_since "$tstamp")" ]; then
    say "rebuilding the tensorx package in $curvenv (log: $log)"
    touch "$tstamp.new"
    (cd "$root" && PIP_NO_INDEX=1 PIP_FIND_LINKS=${TX_PIP_WHEELS:-$root/build/pip-wheels} \
       TENSORX_BUILD_DIR=$build "$curvenv/bin/python" -m pip install -q --no-deps \
       --force-reinstall ./python) >> "$log" 2>&1 && mv "$tstamp.new" "$tstamp" ||
      { say "the tensorx package could not be rebuilt in $curvenv (see $log); its txpy_cur would" \
            "be an older tensorx's, so the current peers are left out"; current=0; }
  fi
  [ "$current" = 1 ] && [ -x "$curvenv/bin/python" ] &&
    cur_cmd="$curvenv/bin/python $root/bench/peers_current.py"
fi

cmake --build "$build" -j2 --target tensorx_bench > /dev/null
if [ "$files" = 1 ]; then
  cmake --build "$build" -j2 --target tensorx_cli tensorx_files > /dev/null
  py=/usr/bin/python3; [ -x "$py" ] || py=python3
  say "running the file workloads (inputs in $build/files)"
  cur_py=(); [ -n "$cur_cmd" ] && cur_py=(--current-python "$curvenv/bin/python")
  exec "$py" "$root/bench/files.py" --tensorx "$build/tensorx" --c-api "$build/bench/tensorx_files" \
    --dir "$build/files" "${quick[@]}" "${filter[@]}" "${json[@]}" "${cur_py[@]}"
fi
xnn_cmd=""
if cmake --build "$build" -j2 --target tensorx_xnn_peer > /dev/null 2>&1; then
  xnn_cmd="$build/bench/tensorx_xnn_peer"
fi
xnn_cur_cmd=""
if [ -n "$xnn_cur_dir" ]; then
  log=$build/xnn-peer-current.log
  if cmake --build "$build" -j2 --target tensorx_xnn_peer_current > "$log" 2>&1; then
    xnn_cur_cmd="$build/bench/tensorx_xnn_peer_current"
  else
    say "tensorx_xnn_peer_current did not build (see $log); xnnpack_cur is left out"
  fi
fi
ort_cmd=""
if command -v node > /dev/null && [ -d "$root/bench/node_modules/onnxruntime-node" ]; then
  ort_cmd="node $root/bench/ort_peer.js"
fi

py=/usr/bin/python3; [ -x "$py" ] || py=python3
if [ "$sweep" = 1 ]; then
  say "running the size sweep (plot: $build/sweep.png)"
  args=(--tx-bench "$build/bench/tensorx_bench" "${quick[@]}" "${json[@]}"
        --plot "$build/sweep.png")
  [ "${#filter[@]}" -gt 0 ] && args+=(--families "${filter[1]}")
  [ "${#peers[@]}" -gt 0 ] && args+=(--peers "${peers[1]}")
  [ -n "$ort_cmd" ] && args+=(--ort-cmd "$ort_cmd")
  [ -n "$xnn_cmd" ] && args+=(--xnn-cmd "$xnn_cmd")
  [ -n "$xnn_cur_cmd" ] && args+=(--xnn-cur-cmd "$xnn_cur_cmd")
  [ -n "$cur_cmd" ] && args+=(--cur-cmd "$cur_cmd")
  exec "$py" "$root/bench/sweep.py" "${args[@]}"
fi
# The txpy column: the tensorx package in $pyvenv, (re)installed when its sources changed.
# pip builds in python/build (in-tree), so the library's CMake build there is incremental.
peer_list=${peers[1]:-numpy,pandas,torch1,torch2,ort,xnnpack,xnnpack_cur,txpy,numpy_cur,pandas_cur,torch1_cur,torch2_cur,tf,jax,ort_cur,openvino,txpy_cur}
if [[ ",$peer_list," == *,txpy,* ]]; then
  pyvenv=${TX_BENCH_PYVENV:-$build/pyvenv}
  stamp=$pyvenv/.tensorx-installed
  log=$build/pyinstall.log
  fresh=0
  if [ -x "$pyvenv/bin/python" ] && [ -z "$(changed_since "$stamp")" ]; then
    fresh=1
  fi
  ok=1
  if [ "$fresh" = 0 ]; then
    say "installing the tensorx package into $pyvenv (log: $log)"
    : > "$log"
    mkdir -p "$pyvenv" && touch "$stamp.new" # sources changed from now on: newer than the stamp
    { [ -x "$pyvenv/bin/python" ] || "$py" -m venv --system-site-packages "$pyvenv"; } \
      >> "$log" 2>&1 &&
      (cd "$root" && TENSORX_JOBS=2 "$pyvenv/bin/python" -m pip install --no-build-isolation \
         --no-index ./python) >> "$log" 2>&1 &&
      mv "$stamp.new" "$stamp" || ok=0
  fi
  if [ "$ok" = 1 ] && (cd / && "$pyvenv/bin/python" -c "import tensorx") >> "$log" 2>&1; then
    py=$pyvenv/bin/python
  else
    say "the tensorx package could not be built or imported (see $log); txpy is left out"
    peer_list=$(echo ",$peer_list," | sed 's/,txpy,/,/; s/^,//; s/,$//')
  fi
fi

say "running tensorx and the peers, workload by workload (plot: $build/ratios.png)"
args=(--tx-bench "$build/bench/tensorx_bench" "${quick[@]}" "${filter[@]}" "${json[@]}"
      --peers "$peer_list" "${threads[@]}" --plot "$build/ratios.png")
[ -n "$ort_cmd" ] && args+=(--ort-cmd "$ort_cmd")
[ -n "$xnn_cmd" ] && args+=(--xnn-cmd "$xnn_cmd")
[ -n "$xnn_cur_cmd" ] && args+=(--xnn-cur-cmd "$xnn_cur_cmd")
[ -n "$cur_cmd" ] && args+=(--cur-cmd "$cur_cmd")
"$py" "$root/bench/peers.py" "${args[@]}"
