#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what the build and the tests need on a fresh Debian machine (CI included).  The library
# itself needs only build-essential and cmake (zlib1g-dev, optional, reads and writes compressed
# files); cmocka, pkg-config, python3-numpy and the DLPack header are for the tests (each is
# optional: configure leaves out the tests that need it).
# Usage: scripts/install-deps.sh [--minimal | --bench | --cross | --python] [PACKAGE...]
#   --minimal: only what the library and the CLI need to build (scripts/demo.sh);
#   --python adds what the Python package (python/) needs to build, install and test
#   (scripts/install-python.sh): python3-dev, setuptools, pip, venv and pytest, all Debian's, and
#   dask and distributed for tensorx.dask and its cluster tests (python3-dask, python3-distributed);
#   --bench adds the benchmark peers; --cross adds what scripts/test.sh's cross stage needs: the
#   aarch64 and s390x cross compilers, qemu-user, and cmocka for both targets (multiarch packages,
#   after dpkg --add-architecture arm64 s390x); further names are extra Debian packages a script
#   needs (scripts/fuzz.sh: clang and its runtimes, scripts/valgrind.sh: valgrind).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libcmocka-dev python3 python3-numpy libdlpack-dev zlib1g-dev)
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ "${1:-}" = "--minimal" ]; then
  pkgs=(build-essential cmake)
  shift
elif [ "${1:-}" = "--bench" ]; then
  pkgs+=(python3-torch python3-pandas libxnnpack-dev libpthreadpool-dev)
  # Node.js and npm only when missing: a nodesource nodejs bundles npm and conflicts with
  # Debian's npm package.
  command -v node >/dev/null || pkgs+=(nodejs)
  command -v npm >/dev/null || pkgs+=(npm)
  shift
elif [ "${1:-}" = "--python" ]; then
  pkgs+=(python3-dev python3-setuptools python3-pip python3-venv python3-pytest
        python3-dask python3-distributed)
  shift
elif [ "${1:-}" = "--cross" ]; then
  for arch in arm64 s390x; do
    dpkg --print-foreign-architectures | grep -qx "$arch" || $SUDO dpkg --add-architecture "$arch"
  done
  # The cross compilers only recommend their C libraries, which --no-install-recommends leaves out.
  pkgs+=(gcc-aarch64-linux-gnu gcc-s390x-linux-gnu libc6-dev-arm64-cross libc6-dev-s390x-cross
    qemu-user libcmocka-dev:arm64 libcmocka-dev:s390x)
  shift
fi
pkgs+=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
