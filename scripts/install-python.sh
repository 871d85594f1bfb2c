#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the tensorx Python package (python/) with Debian's tools only: python3-dev,
# python3-setuptools, python3-numpy, python3-pip and python3-venv from apt
# (scripts/install-deps.sh --python), then `pip install --no-build-isolation --no-index ./python`
# (pip fetches nothing: setuptools and numpy are Debian's; setup.py builds the library with CMake).
# Usage: scripts/install-python.sh [--venv DIR]
#   without --venv: into the interpreter $TX_PYTHON (default /usr/bin/python3, Debian's, not one a
#     pyenv puts first on PATH); Debian marks its python3 "externally managed" (PEP 668), so when
#     that interpreter is not a virtual environment pip is given --break-system-packages and
#     installs under /usr/local/lib/python3*/dist-packages, beside (not over) Debian's packages;
#   --venv DIR: creates DIR (python3 -m venv --system-site-packages, so it sees Debian's numpy)
#     if it is not there, and installs into it.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${TX_PYTHON:-/usr/bin/python3}
venv=""
if [ "${1:-}" = "--venv" ]; then
  venv=${2:?"--venv needs a folder"}
  case $venv in /*) ;; *) venv=$PWD/$venv ;; esac # the check below runs from /
elif [ $# -gt 0 ]; then
  echo "usage: scripts/install-python.sh [--venv DIR]" >&2
  exit 2
fi
bash scripts/install-deps.sh --python
if [ -n "$venv" ]; then
  [ -x "$venv/bin/python" ] || "$python" -m venv --system-site-packages "$venv"
  python=$(cd "$venv" && pwd)/bin/python # absolute: the last check runs from /
fi
flags=(--no-build-isolation --no-index)
if [ "$("$python" -c 'import sys; print(sys.prefix == sys.base_prefix)')" = True ]; then
  flags+=(--break-system-packages)
fi
TENSORX_JOBS=${TENSORX_JOBS:-$(nproc 2>/dev/null || echo 2)} \
  "$python" -m pip install "${flags[@]}" ./python
(cd / && "$python" -c 'import tensorx as t; print("tensorx", t.__version__, "at", t.__file__)')
