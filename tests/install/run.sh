#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the build into a temporary prefix, and beside it a library-only build of the other kind
# (a build makes the shared or the static library, as BUILD_SHARED_LIBS says; two builds into one
# prefix install both), then checks the package: the SONAME, the CMake package's version
# compatibility and its shared/static choice, a consumer program built through find_package
# (shared and static) and through pkg-config (shared and static), the example programs out of tree,
# the man page, TX_API's Windows sides and TX_STATIC for static users, the public header alone as
# C11 and as C++, and its experimental section only with TX_EXPERIMENTAL_API.
# usage: run.sh BUILD_DIR SOURCE_DIR [CMAKE_ARGS...]
#   CMAKE_ARGS configure the second build like the first (compiler, build type, flags, options).
set -euo pipefail
trap 'echo "FAIL: tests/install/run.sh:$LINENO: $BASH_COMMAND"' ERR
build=$1
src=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
ver() { sed -n "s/^#define TX_VERSION_$1 \([0-9]*\)$/\1/p" "$src/include/tensorx.h"; }
version=$(ver MAJOR).$(ver MINOR).$(ver PATCH)
if [ "$(ver MAJOR)" = 0 ]; then soname=libtensorx.so.0.$(ver MINOR); else soname=libtensorx.so.$(ver MAJOR); fi

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -1)
libdir=$(dirname "$libdir")
if [ -e "$libdir/libtensorx.so" ]; then other=OFF; else other=ON; fi
cmake -S "$src" -B "$tmp/other" -DBUILD_SHARED_LIBS=$other -DBUILD_TESTING=OFF -DTX_BUILD_CLI=OFF \
  -DTX_BUILD_BENCH=OFF "$@" >/dev/null
cmake --build "$tmp/other" -j2 >/dev/null
cmake --install "$tmp/other" --prefix "$prefix" >/dev/null
test -f "$libdir/libtensorx.a"
test -f "$libdir/libtensorx.so.$version"
export LD_LIBRARY_PATH=$libdir

# The SONAME (the policy is in CHANGELOG.md) and its symlink.
readelf -d "$libdir/libtensorx.so" | grep SONAME | grep -F "[$soname]" >/dev/null
test -L "$libdir/$soname"

# The CMake package: version compatibility and COMPONENTS shared / static.
for kind in shared static; do
  cmake -S "$src/tests/install/package" -B "$tmp/pkg-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
    -DTX_EXPECT_VERSION="$version" -DTX_KIND=$kind >"$tmp/pkg-$kind.log" ||
    { cat "$tmp/pkg-$kind.log"; exit 1; }
done

# find_package(tensorx): the shared library by default, the static one with tensorx_SHARED_LIBS=OFF.
cmake -S "$src/examples/consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/cm" >/dev/null
"$tmp/cm/consumer" > "$tmp/out1"
grep -q "reshape: 2x3 view" "$tmp/out1"
readelf -d "$tmp/cm/consumer" | grep NEEDED | grep -F "[$soname]" >/dev/null
cmake -S "$src/examples/consumer" -B "$tmp/cms" -DCMAKE_PREFIX_PATH="$prefix" -Dtensorx_SHARED_LIBS=OFF >/dev/null
cmake --build "$tmp/cms" >/dev/null
"$tmp/cms/consumer" > "$tmp/out1s"
cmp "$tmp/out1" "$tmp/out1s"
if readelf -d "$tmp/cms/consumer" | grep NEEDED | grep libtensorx; then
  echo "FAIL: the consumer built with tensorx_SHARED_LIBS=OFF needs the shared library"; exit 1
fi

# The static target of the CMake package passes TX_STATIC to its users; the shared one does not.
grep -q 'INTERFACE_COMPILE_DEFINITIONS "TX_STATIC"' "$libdir/cmake/tensorx/tensorx-static-targets.cmake"
if grep -q 'TX_STATIC' "$libdir/cmake/tensorx/tensorx-shared-targets.cmake"; then
  echo "FAIL: the shared tensorx::tensorx defines TX_STATIC"; exit 1
fi

# pkg-config, shared and static.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
test "$(pkg-config --modversion tensorx)" = "$version"
cc -std=c11 -Wall -Wextra -Werror "$src/examples/consumer/consumer.c" -o "$tmp/pc" $(pkg-config --cflags --libs tensorx)
"$tmp/pc" > "$tmp/out2"
cmp "$tmp/out1" "$tmp/out2"
# A static consumer gets TX_STATIC (TX_API's static-library side) from --static, a shared one not.
pkg-config --static --cflags tensorx | grep -qw -- -DTX_STATIC
if pkg-config --cflags tensorx | grep -qw -- -DTX_STATIC; then
  echo "FAIL: pkg-config --cflags tensorx (the shared library) defines TX_STATIC"; exit 1
fi
cc -std=c11 -Wall -Wextra -Werror "$src/examples/consumer/consumer.c" -o "$tmp/pcs" $(pkg-config --static --cflags tensorx) \
   "$libdir/libtensorx.a" $(pkg-config --static --libs-only-l tensorx | sed 's/-ltensorx//')
"$tmp/pcs" > "$tmp/out3"
cmp "$tmp/out1" "$tmp/out3"

# The example programs out of tree: all of them through find_package (examples/CMakeLists.txt run
# on its own), sensor_be also through pkg-config; and the man page is installed.
cmake -S "$src/examples" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/ex" >/dev/null
ctest --test-dir "$tmp/ex" --output-on-failure >/dev/null
cc -std=c11 -Wall -Wextra -Werror "$src/examples/sensor_be.c" -o "$tmp/sensor" $(pkg-config --cflags --libs tensorx)
"$tmp/sensor" "$src/examples/data" | grep -q "8x4 samples"
test -f "$prefix/share/man/man1/tensorx.1"

# TX_API on Windows (the header preprocessed as if for _WIN32): dllimport for a DLL's user,
# dllexport while the DLL is built, nothing for a static library's user.
api() { printf '#include <tensorx.h>\n' | cc -E -P -D_WIN32 "$@" -I"$prefix/include" -x c - |
        grep 'tx_version_number'; }
api | grep -q '__declspec(dllimport) unsigned tx_version_number(void);'
api -DTX_BUILDING_SHARED_LIBRARY | grep -q '__declspec(dllexport) unsigned tx_version_number(void);'
api -DTX_STATIC | grep -q '^ *unsigned tx_version_number(void);'
api -DTX_STATIC -DTX_BUILDING_SHARED_LIBRARY | grep -q '^ *unsigned tx_version_number(void);'

# The header alone, as C11 and as C++, with its initialisers (no warning for a missing member).
cat > "$tmp/h.c" <<'EOF'
#include <tensorx.h>
int main(void) {
    tx_output_info info[2];
    int64_t dims[8], shape[TX_MAX_RANK];
    tx_plan plan = TX_PLAN_INIT(info, 2, dims, 8);
    tx_npy_info npy = TX_NPY_INFO_INIT(shape, TX_MAX_RANK);
    return tx_dtype_size(TX_FLOAT32) == 4 && plan.capacity == 2 && npy.struct_size > 0 ? 0 : 1;
}
EOF
cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$prefix/include" -c "$tmp/h.c" -o "$tmp/h.o"
cp "$tmp/h.c" "$tmp/h.cpp"
c++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$prefix/include" -c "$tmp/h.cpp" -o "$tmp/hpp.o"
# tensorx_dlpack.h, installed beside it, where the system has <dlpack/dlpack.h>.
if printf '#include <dlpack/dlpack.h>\n' | cc -fsyntax-only -x c - 2>/dev/null; then
  printf '#include <tensorx_dlpack.h>\nint main(void) { DLManagedTensorVersioned m = {{1, 0}, 0, 0, DLPACK_FLAG_BITMASK_READ_ONLY, {0}}; return (int)m.version.minor; }\n' >"$tmp/d.c"
  cc -std=c11 -Wall -Wextra -Werror -I"$prefix/include" -c "$tmp/d.c" -o "$tmp/d.o"
fi

# The experimental section: declared only with TX_EXPERIMENTAL_API, also when the header was
# already included without it; and its symbols are exported by the shared library.
cat > "$tmp/x.c" <<'EOF'
#include <tensorx.h>
#define TX_EXPERIMENTAL_API
#include <tensorx.h>
int main(void) {
    tx_alloc_stats st = TX_ALLOC_STATS_INIT;
    return tx_alloc_stats_get(&st) == TX_OK && tx_set_cpu_mask(TX_ISA_SCALAR) == TX_ISA_SCALAR &&
           TX_MAX_THREADS > 1 ? 0 : 1;
}
EOF
for lang in "cc -std=c11 -x c" "c++ -std=c++11 -x c++"; do
  $lang -Wall -Wextra -Werror -pedantic -I"$prefix/include" "$tmp/x.c" -o "$tmp/x" -L"$libdir" -ltensorx
  "$tmp/x"
  if sed '/#define TX_EXPERIMENTAL_API/d' "$tmp/x.c" |
     $lang -Wall -Werror -I"$prefix/include" -fsyntax-only - 2>/dev/null; then
    echo "FAIL: the experimental API is declared without TX_EXPERIMENTAL_API ($lang)"; exit 1
  fi
done
echo "1 passed, 0 failed"
