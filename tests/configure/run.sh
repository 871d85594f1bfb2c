#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configure tests: tensorx configures and builds with what a fresh machine has, and warning-free
# with the compilers and flags people use.  Run by scripts/test.sh (stage "configure"); each check
# builds from scratch in $TX_CONFIGURE_BUILD/<check> (default build/configure), so they are too
# heavy for ctest.
#   bare        a library-only configure (BUILD_TESTING=OFF) where pkg-config finds nothing and the
#               DLPack header is hidden: configures with one DLPack message, builds the library and
#               the CLI, and the DLPack functions return TX_UNIMPLEMENTED naming TX_WITH_DLPACK
#               (tests/configure/no_dlpack.c)
#   skips       configure only, with the tests: without cmocka, python3, numpy or DLPack, each
#               missing thing gives one message and its tests are left out, the others stay;
#               TX_WITH_DLPACK=ON without the header fails with a clear message; the same for zlib
#               (TX_WITH_ZLIB, compressed TFRecord files)
#   subproject  add_subdirectory from a project with tests of its own (tests/configure/subproject):
#               only the library is added (no test, no test target), static unless the parent
#               asks for shared, and the parent's build type is left alone
#   clang       CC=clang with default options builds everything without a warning
#   dpkg        gcc with Debian's dpkg-buildflags (CFLAGS, CPPFLAGS, LDFLAGS; build type None, as
#               debhelper builds packages) builds everything without a warning
# usage: tests/configure/run.sh [CHECK...]   (default: all of them, in that order)
# Environment: TX_CONFIGURE_BUILD (build folder), TX_CONFIGURE_JOBS (build jobs, default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
base=${TX_CONFIGURE_BUILD:-build/configure}
jobs=${TX_CONFIGURE_JOBS:-2}
checks=("$@")
[ ${#checks[@]} -eq 0 ] && checks=(bare skips subproject clang dpkg)
ver() { sed -n "s/^#define TX_VERSION_$1 \([0-9]*\)$/\1/p" include/tensorx.h; }
version=$(ver MAJOR).$(ver MINOR).$(ver PATCH)
mkdir -p "$base"
base=$(cd "$base" && pwd)

fail() { echo "FAIL configure.$check: $*"; exit 1; }
ok() { echo "   ok: $*"; }
# fresh DIR: an empty build folder.
fresh() { rm -rf "$1"; mkdir -p "$1"; }
# count PATTERN FILE: how many lines of FILE match PATTERN.
count() { grep -c -- "$1" "$2" || true; }
# once PATTERN LOG: PATTERN is in exactly one line of LOG.
once() { [ "$(count "$1" "$2")" = 1 ] || fail "expected one configure message '$1', got $(count "$1" "$2"):
$(grep -- "tensorx:" "$2" || true)"; }
# absent PATTERN LOG
absent() { ! grep -q -- "$1" "$2" || fail "unexpected '$1' in $2: $(grep -- "$1" "$2" | head -3)"; }
# build DIR LOG [TARGET...]: builds, and fails on a warning anywhere in the output.
build() {
  local dir=$1 log=$2; shift 2
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake --build "$dir" -j"$jobs" "${targets[@]}" >"$log" 2>&1 || { tail -40 "$log"; fail "build failed ($log)"; }
  if grep -q "warning:" "$log"; then
    grep -B2 -A8 "warning:" "$log" | head -60
    fail "$(count "warning:" "$log") warning(s) while building ($log)"
  fi
}
# tests DIR: the names ctest would run.
tests() { ctest --test-dir "$1" -N | sed -n 's/^ *Test *#[0-9]*: //p'; }

check_bare() {
  local d=$base/bare
  fresh "$d"
  PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= cmake -S "$src" -B "$d" -DBUILD_TESTING=OFF \
    -DTX_DLPACK_INCLUDE_DIR=/nonexistent >"$d.configure.log" 2>&1 || { cat "$d.configure.log"; fail "configure failed"; }
  once "building without DLPack" "$d.configure.log"
  absent "cmocka" "$d.configure.log"
  absent "python3" "$d.configure.log"
  ok "configures without pkg-config's packages, without DLPack, with BUILD_TESTING=OFF"
  build "$d" "$d.build.log"
  [ ! -e "$d/tests" ] || fail "tests were configured with BUILD_TESTING=OFF"
  [ "$("$d/tensorx" --version)" = "tensorx $version" ] || fail "tensorx --version: $("$d/tensorx" --version)"
  ok "builds the library and the CLI without a warning; tensorx --version says $version"
  cc -std=c11 -Wall -Wextra -Werror -I include tests/configure/no_dlpack.c -o "$d/no_dlpack" \
    -L"$d" -ltensorx -Wl,-rpath,"$d" || fail "no_dlpack.c does not build against the library"
  "$d/no_dlpack" || fail "the DLPack functions of a build without DLPack"
  ok "without DLPack, tx_tensor_from_dlpack and tx_tensor_to_dlpack return TX_UNIMPLEMENTED"
}

check_skips() {
  local d=$base/skips
  fresh "$d"
  # Nothing for pkg-config (no cmocka), no python3, no DLPack header: tests still configure.
  PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= cmake -S "$src" -B "$d/none" -DTX_PYTHON3=/nonexistent \
    -DTX_DLPACK_INCLUDE_DIR=/nonexistent >"$d/none.log" 2>&1 || { cat "$d/none.log"; fail "configure failed"; }
  once "cmocka not found" "$d/none.log"
  once "python3 not found" "$d/none.log"
  once "building without DLPack" "$d/none.log"
  tests "$d/none" >"$d/none.tests"
  for t in unit.test_core unit.test_levels oracle.test_casting docs.c_examples bench.peers_merge \
           example.dlpack_roundtrip fuzz.dlpack; do
    ! grep -qx "$t" "$d/none.tests" || fail "$t is registered though what it needs is missing"
  done
  for t in cli.casting fuzz.npy fuzz.ops example.sensor_be install bench.smoke repo.spdx; do
    grep -qx "$t" "$d/none.tests" || fail "$t is not registered, though it needs none of what is missing"
  done
  ok "without cmocka, python3 and DLPack: one message each; $(wc -l <"$d/none.tests") tests remain"
  # python3 without numpy (-S: no site-packages): the oracle tests go, docs.c_examples stays.
  printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' >"$d/python3-no-numpy"
  chmod +x "$d/python3-no-numpy"
  cmake -S "$src" -B "$d/nonumpy" -DTX_PYTHON3="$d/python3-no-numpy" >"$d/nonumpy.log" 2>&1 ||
    { cat "$d/nonumpy.log"; fail "configure failed"; }
  once "numpy not found" "$d/nonumpy.log"
  absent "cmocka not found" "$d/nonumpy.log"
  tests "$d/nonumpy" >"$d/nonumpy.tests"
  ! grep -q "^oracle\." "$d/nonumpy.tests" || fail "oracle tests registered without numpy"
  grep -qx "docs.c_examples" "$d/nonumpy.tests" || fail "docs.c_examples needs python3 only"
  grep -qx "unit.test_core" "$d/nonumpy.tests" || fail "unit tests missing though cmocka is there"
  ok "python3 without numpy: one message, the oracle tests are left out"
  # TX_WITH_DLPACK=ON insists; a value other than AUTO/ON/OFF is refused.
  if cmake -S "$src" -B "$d/on" -DBUILD_TESTING=OFF -DTX_WITH_DLPACK=ON -DTX_DLPACK_INCLUDE_DIR=/nonexistent \
      >"$d/on.log" 2>&1; then
    fail "TX_WITH_DLPACK=ON configured without the header"
  fi
  once "TX_WITH_DLPACK=ON but" "$d/on.log"
  if cmake -S "$src" -B "$d/bogus" -DBUILD_TESTING=OFF -DTX_WITH_DLPACK=maybe >"$d/bogus.log" 2>&1; then
    fail "TX_WITH_DLPACK=maybe was accepted"
  fi
  once "it must be AUTO, ON or OFF" "$d/bogus.log"
  ok "TX_WITH_DLPACK=ON without the header, and TX_WITH_DLPACK=maybe, fail with a clear message"
  # zlib the same way: hidden, AUTO says so once and configures; ON fails naming the option.
  cmake -S "$src" -B "$d/nozlib" -DBUILD_TESTING=OFF -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON \
    >"$d/nozlib.log" 2>&1 || { cat "$d/nozlib.log"; fail "configure without zlib failed"; }
  once "zlib not found: building without it" "$d/nozlib.log"
  if cmake -S "$src" -B "$d/zlibon" -DBUILD_TESTING=OFF -DTX_WITH_ZLIB=ON \
      -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON >"$d/zlibon.log" 2>&1; then
    fail "TX_WITH_ZLIB=ON configured without zlib"
  fi
  once "TX_WITH_ZLIB=ON but zlib was not found" "$d/zlibon.log"
  ok "without zlib: one message with AUTO, a clear failure with TX_WITH_ZLIB=ON"
}

check_subproject() {
  local d=$base/subproject
  fresh "$d"
  cmake -S tests/configure/subproject -B "$d/static" -DTX_SOURCE_DIR="$src" >"$d/static.log" 2>&1 ||
    { cat "$d/static.log"; fail "configure failed"; }
  grep "tensorx as a subproject" "$d/static.log" | sed 's/^-- /   /'
  cmake -S tests/configure/subproject -B "$d/shared" -DTX_SOURCE_DIR="$src" -DBUILD_SHARED_LIBS=ON \
    >"$d/shared.log" 2>&1 || { cat "$d/shared.log"; fail "configure with BUILD_SHARED_LIBS=ON failed"; }
  grep "tensorx as a subproject" "$d/shared.log" | sed 's/^-- /   /'
  build "$d/static" "$d/static.build.log"
  [ "$(tests "$d/static")" = "uses_tensorx" ] || fail "ctest lists more than the parent's test: $(tests "$d/static" | head)"
  ctest --test-dir "$d/static" --output-on-failure >"$d/static.ctest.log" 2>&1 ||
    { cat "$d/static.ctest.log"; fail "the parent's test failed"; }
  ok "add_subdirectory adds the library only (static; shared with BUILD_SHARED_LIBS=ON), no tests"
}

check_clang() {
  local d=$base/clang
  fresh "$d"
  CC=clang cmake -S "$src" -B "$d" >"$d.configure.log" 2>&1 || { cat "$d.configure.log"; fail "configure failed"; }
  build "$d" "$d.build.log"
  ok "clang, default options: everything builds without a warning ($(tests "$d" | wc -l) tests configured)"
}

check_dpkg() {
  local d=$base/dpkg
  fresh "$d"
  command -v dpkg-buildflags >/dev/null || fail "dpkg-buildflags is missing (Debian: dpkg-dev)"
  CC=gcc CFLAGS="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)" \
    LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" \
    cmake -S "$src" -B "$d" -DCMAKE_BUILD_TYPE=None >"$d.configure.log" 2>&1 ||
    { cat "$d.configure.log"; fail "configure failed"; }
  grep -q -- "-D_FORTIFY_SOURCE" "$d/CMakeCache.txt" || fail "dpkg-buildflags' CPPFLAGS did not reach the build"
  build "$d" "$d.build.log"
  ok "gcc with dpkg-buildflags: everything builds without a warning"
}

for check in "${checks[@]}"; do
  declare -F "check_$check" >/dev/null || { echo "unknown check '$check'"; exit 2; }
  echo "== configure.$check ($(date +%T))"
  "check_$check"
done
echo "${#checks[@]} configure checks passed"
