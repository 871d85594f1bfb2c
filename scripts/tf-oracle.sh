#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The live TensorFlow oracle (tests/tf/README.md): tensorx against TensorFlow 2.21 and OpenVINO
# 2026.4 (tests/tf/requirements.txt), in a virtual environment from the package index.
# Usage: scripts/tf-oracle.sh [--venv DIR] [COMMAND [ARGS...]]
#   run [oracle.py args]  the random run, every op (default --cases 500 for seeds 1-4; figures in
#                         docs/tensorflow.md); ARGS go to tests/tf/oracle.py instead
#   record                records TF's answers as tests/conformance/tf/<op>.json (tests/tf/record.py)
#   ci                    what CI runs: the recorded suites regenerated and compared (record.py
#                         --check, which is also the live oracle on the recorded cases), the frame's
#                         own tests, and a random sample (seed 1, 30 cases an op)
#   --venv DIR            the environment (default build/tf/venv): created by install-python.sh
#                         --index when missing (tensorx, NumPy 2, ml_dtypes...), then TensorFlow and
#                         OpenVINO added from the package index (their wheels kept in
#                         $TX_PIP_WHEELS, default build/pip-wheels, as install-python.sh keeps its)
# TX_TF_NO_INSTALL=1 uses the venv as it is (tensorx and TF already there).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build/tf/venv
if [ "${1:-}" = --venv ]; then venv=${2:?"--venv needs a folder"}; shift 2; fi
cmd=${1:-run}
[ $# -gt 0 ] && shift
case $cmd in run|record|ci) ;; *) echo "usage: scripts/tf-oracle.sh [--venv DIR] [run|record|ci] [ARGS...]" >&2; exit 2 ;; esac
case $venv in /*) ;; *) venv=$PWD/$venv ;; esac
if [ "${TX_TF_NO_INSTALL:-0}" != 1 ]; then
  [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import tensorx' 2>/dev/null ||
    bash scripts/install-python.sh --index --venv "$venv"
  wheels=${TX_PIP_WHEELS:-$PWD/build/pip-wheels}
  export PIP_DISABLE_PIP_VERSION_CHECK=1
  "$venv/bin/python" -m pip download -q -d "$wheels" -r tests/tf/requirements.txt
  "$venv/bin/python" -m pip install -q --no-index --find-links "$wheels" -r tests/tf/requirements.txt
fi
py=$venv/bin/python
root=$PWD
export TF_CPP_MIN_LOG_LEVEL=3 PYTHONDONTWRITEBYTECODE=1
# From / so that python/tensorx (no extension) cannot shadow the installed package.
cd /
case $cmd in
  run)
    if [ $# -gt 0 ]; then exec "$py" "$root/tests/tf/oracle.py" "$@"; fi
    status=0
    for seed in 1 2 3 4; do "$py" "$root/tests/tf/oracle.py" --seed $seed --cases 500 || status=1; done
    exit $status ;;
  record)
    exec "$py" "$root/tests/tf/record.py" "$@" ;;
  ci)
    "$py" "$root/tests/tf/record.py" --check
    "$py" -m pytest -q -p no:cacheprovider "$root/tests/tf"
    "$py" "$root/tests/tf/oracle.py" --seed 1 --cases 30 ;;
esac
