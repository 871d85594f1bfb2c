#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# version.sh -- `tensorx --version` and the shared library's SONAME follow the version of
# include/tensorx.h.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

ver() { sed -n "s/^#define TX_VERSION_$1 \([0-9]*\)$/\1/p" "$ROOT/include/tensorx.h"; }
expect "version" "tensorx $(ver MAJOR).$(ver MINOR).$(ver PATCH)" -- --version

# The shared library's SONAME: libtensorx.so.0.MINOR before 1.0 (a 0.x minor release may break the
# ABI), libtensorx.so.MAJOR from 1.0 on (CHANGELOG.md).
so=$(dirname "$TX")/libtensorx.so
if [ "$(ver MAJOR)" = 0 ]; then soname=libtensorx.so.0.$(ver MINOR); else soname=libtensorx.so.$(ver MAJOR); fi
if [ -e "$so" ] && command -v readelf >/dev/null; then
    check "SONAME is $soname" bash -c "readelf -d '$so' | grep 'SONAME' | grep -qF '[$soname]'"
fi
finish
