#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the tensorx Python package (python/: the extension and the `tensorx` CLI), by one of two
# routes (docs/python.md):
#   Debian's (the default): Debian's python3-dev, python3-numpy, python3-pip, python3-venv,
#     python3-pytest, python3-dask, python3-distributed from apt (scripts/install-deps.sh --python),
#     then `pip install --no-build-isolation --no-index ./python`: pip fetches nothing, the
#     extension is built against Debian's NumPy 1.24 (python/backend/tensorx_build.py builds the
#     CMake project python/CMakeLists.txt; Debian has no scikit-build-core).
#   the package index's (--index, with --venv): a new virtual environment without Debian's
#     packages, the newest NumPy, ml_dtypes, dask[array], distributed, pytest and mypy, and
#     onnx 1.23.2 and onnxruntime 1.32.0 (pinned: the ONNX cast mode's references), and
#     safetensors (test_safetensors.py's reference), from the index (the newest for $TX_PYTHON:
#     NumPy 2.5 needs Python 3.12, Debian 12's is 3.11), then
#     `pip install ./python` with build isolation (scikit-build-core and numpy>=2 as build
#     dependencies, from the index too).  The wheels are kept in $TX_PIP_WHEELS (default
#     build/pip-wheels): a second run downloads only what the index has newer.
# Usage: scripts/install-python.sh [--venv DIR] [--index] [--build-dir DIR|none]
#   without --venv: into the interpreter $TX_PYTHON (default /usr/bin/python3, Debian's, not one a
#     pyenv puts first on PATH); Debian marks its python3 "externally managed" (PEP 668), so when
#     that interpreter is not a virtual environment pip is given --break-system-packages and
#     installs under /usr/local/lib/python3*/dist-packages, beside (not over) Debian's packages;
#   --venv DIR: creates DIR with $TX_PYTHON if it is not there (Debian's route: --system-site-packages,
#     so it sees Debian's numpy; --index: without them) and installs into it;
#   --build-dir DIR: a configured build tree of the repository whose archives (tx_frontend, the
#     library's objects) and CLI are brought up to date there and put in the package, instead of a
#     build of the library from scratch (TENSORX_BUILD_DIR); default build/release when it is
#     configured (scripts/test.sh's release stage), `none` for a build of the package's own.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() {
  echo "usage: scripts/install-python.sh [--venv DIR] [--index] [--build-dir DIR|none]" >&2
  exit 2
}
python=${TX_PYTHON:-/usr/bin/python3}
venv="" index=0 build_dir=""
if [ -n "${TENSORX_BUILD_DIR:-}" ]; then
  build_dir=$TENSORX_BUILD_DIR
elif [ -f build/release/CMakeCache.txt ]; then
  build_dir=build/release
fi
while [ $# -gt 0 ]; do
  case $1 in
    --venv) venv=${2:?"--venv needs a folder"}; shift 2 ;;
    --index) index=1; shift ;;
    --build-dir) build_dir=${2:?"--build-dir needs a folder (or none)"}; shift 2 ;;
    *) usage ;;
  esac
done
[ "$build_dir" = none ] && build_dir=""
if [ -n "$build_dir" ]; then
  [ -f "$build_dir/CMakeCache.txt" ] ||
    { echo "install-python.sh: --build-dir $build_dir is not a configured CMake build tree" >&2; exit 2; }
  build_dir=$(cd "$build_dir" && pwd)
fi
if [ $index = 1 ] && [ -z "$venv" ]; then
  echo "install-python.sh: --index installs into a virtual environment of its own: add --venv DIR" >&2
  exit 2
fi
case $venv in /*|"") ;; *) venv=$PWD/$venv ;; esac # the check below runs from /
bash scripts/install-deps.sh --python
if [ -n "$venv" ]; then
  if [ ! -x "$venv/bin/python" ]; then
    if [ $index = 1 ]; then
      "$python" -m venv "$venv"
    else
      "$python" -m venv --system-site-packages "$venv"
    fi
  elif [ $index = 1 ] && grep -qi '^include-system-site-packages *= *true' "$venv/pyvenv.cfg"; then
    echo "install-python.sh: $venv sees the system's packages; --index needs a venv without them" >&2
    exit 2
  fi
  python=$(cd "$venv" && pwd)/bin/python # absolute: the last check runs from /
fi
export TENSORX_JOBS=${TENSORX_JOBS:-$(nproc 2>/dev/null || echo 2)}
if [ -n "$build_dir" ]; then
  export TENSORX_BUILD_DIR=$build_dir
  echo "install-python.sh: reusing the build tree $build_dir (--build-dir none builds the library anew)"
else
  unset TENSORX_BUILD_DIR
fi
if [ $index = 1 ]; then
  # pip's own HTTP cache stays empty where the index answers without caching headers (as this
  # workplace's does), so the downloads are kept as files instead: `pip download` fills the
  # wheelhouse (a file already there is not fetched again) and the installs take only from it.
  wheels=${TX_PIP_WHEELS:-$PWD/build/pip-wheels}
  # dask's extras name distributed, so pip takes one version of both (asked for apart, it paired
  # the newest dask with distributed 2021.4, the last without a pin on dask's version).
  # onnx and onnxruntime are the references of the ONNX cast mode's tests (test_onnx_cast.py), pinned:
  # their rules differ between versions (docs/casting.md, "ONNX Cast").  safetensors is the reference
  # of tests/oracle/test_safetensors.py (CMake: -DTX_SAFETENSORS_PYTHON=<this venv>/bin/python).
  reqs=(numpy ml_dtypes "dask[array,distributed]" pytest mypy onnx==1.23.2 onnxruntime==1.32.0
        safetensors)
  # The isolated build's requirements (scikit-build-core, numpy>=2), from pyproject.toml.
  mapfile -t build_reqs < <("$python" -c 'import re
text = open("python/pyproject.toml").read()
block = re.search(r"^requires *= *\[(.*?)\]", text, re.M | re.S).group(1)
print("\n".join(re.findall(r"\"([^\"]+)\"", block)))')
  export PIP_DISABLE_PIP_VERSION_CHECK=1
  "$python" -m pip download -q -d "$wheels" "${reqs[@]}" "${build_reqs[@]}"
  "$python" -m pip install -q --no-index --find-links "$wheels" "${reqs[@]}"
  PIP_NO_INDEX=1 PIP_FIND_LINKS=$wheels "$python" -m pip install ./python
else
  flags=(--no-build-isolation --no-index)
  if [ "$("$python" -c 'import sys; print(sys.prefix == sys.base_prefix)')" = True ]; then
    flags+=(--break-system-packages)
  fi
  "$python" -m pip install "${flags[@]}" ./python
fi
# From outside the tree, so that python/tensorx (no extension) cannot shadow the installed package.
# The wheel's version (pyproject.toml's, from include/tensorx.h), the library's and the CLI's agree.
bin=$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
cli_version=$("$bin/tensorx" --version)
(cd / && "$python" - "$cli_version" "$bin/tensorx" <<'EOF'
import importlib.metadata, sys
import numpy, tensorx as t
wheel = importlib.metadata.version("tensorx")
print(f"tensorx {t.__version__} (wheel {wheel}) at {t.__file__}, NumPy {numpy.__version__}; "
      f"{sys.argv[2]} --version: {sys.argv[1]}")
if wheel != t.__version__ or sys.argv[1] != f"tensorx {wheel}":
    sys.exit("install-python.sh: the wheel, the library and the CLI name different versions")
EOF
)
