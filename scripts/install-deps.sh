#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what the build and the tests need on a fresh Debian machine (CI included).  The library
# itself needs only build-essential and cmake; cmocka, pkg-config, python3-numpy and the DLPack
# header are for the tests (each is optional: configure leaves out the tests that need it).
# Usage: scripts/install-deps.sh [--minimal | --bench] [PACKAGE...]
#   --minimal: only what the library and the CLI need to build (scripts/demo.sh);
#   --bench adds the benchmark peers; further names are extra Debian packages a script needs
#   (scripts/fuzz.sh: clang and its runtimes, scripts/valgrind.sh: valgrind).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libcmocka-dev python3 python3-numpy libdlpack-dev)
if [ "${1:-}" = "--minimal" ]; then
  pkgs=(build-essential cmake)
  shift
elif [ "${1:-}" = "--bench" ]; then
  pkgs+=(python3-torch libxnnpack-dev nodejs npm)
  shift
fi
pkgs+=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
