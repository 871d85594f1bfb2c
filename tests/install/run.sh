#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the build into a temporary prefix, then builds a consumer program against it twice:
# through find_package(tensorx) and through pkg-config.  Also compiles the public header alone as
# C11 (-Wall -Wextra -Werror -pedantic) and as C++.
# usage: run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null

# find_package(tensorx)
cmake -S "$src/examples/consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cm" >/dev/null
LD_LIBRARY_PATH="$tmp/prefix/lib:$tmp/prefix/lib64" "$tmp/cm/consumer" > "$tmp/out1"
grep -q "reshape: 2x3 view" "$tmp/out1"

# pkg-config
libdir=$(ls -d "$tmp/prefix"/lib*/pkgconfig | head -1)
export PKG_CONFIG_PATH="$libdir"
cc -std=c11 -Wall -Wextra -Werror "$src/examples/consumer/consumer.c" -o "$tmp/pc" $(pkg-config --cflags --libs tensorx)
LD_LIBRARY_PATH="$(dirname "$libdir")" "$tmp/pc" > "$tmp/out2"
cmp "$tmp/out1" "$tmp/out2"
cc -std=c11 -Wall -Wextra -Werror "$src/examples/consumer/consumer.c" -o "$tmp/pcs" $(pkg-config --cflags tensorx) \
   "$(dirname "$libdir")/libtensorx.a" -lm -lpthread
"$tmp/pcs" > "$tmp/out3"
cmp "$tmp/out1" "$tmp/out3"

# The example programs out of tree: all of them through find_package (examples/CMakeLists.txt run
# on its own), sensor_be also through pkg-config; and the man page is installed.
cmake -S "$src/examples" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/ex" >/dev/null
LD_LIBRARY_PATH="$(dirname "$libdir")" ctest --test-dir "$tmp/ex" --output-on-failure >/dev/null
cc -std=c11 -Wall -Wextra -Werror "$src/examples/sensor_be.c" -o "$tmp/sensor" $(pkg-config --cflags --libs tensorx)
LD_LIBRARY_PATH="$(dirname "$libdir")" "$tmp/sensor" "$src/examples/data" | grep -q "8x4 samples"
test -f "$tmp/prefix/share/man/man1/tensorx.1"

# The header alone, as C11 and as C++.
printf '#include <tensorx.h>\nint main(void) { return tx_dtype_size(TX_FLOAT32) == 4 ? 0 : 1; }\n' > "$tmp/h.c"
cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$tmp/prefix/include" -c "$tmp/h.c" -o "$tmp/h.o"
cp "$tmp/h.c" "$tmp/h.cpp"
c++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$tmp/prefix/include" -c "$tmp/h.cpp" -o "$tmp/hpp.o"
echo "1 passed, 0 failed"
