# SPDX-License-Identifier: Apache-2.0
# Cross build for aarch64 Linux with Debian's gcc-aarch64-linux-gnu; the tests run under qemu-user
# (qemu-aarch64).  Target libraries (cmocka) come from Debian's multiarch packages (:arm64), found
# through pkg-config in /usr/lib/aarch64-linux-gnu.  Used by scripts/test.sh's cross stage.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
# No -L /usr/aarch64-linux-gnu: the multiarch packages bring the target's glibc to
# /lib/aarch64-linux-gnu, and qemu's -L would mix that glibc with the cross package's loader (a
# different build: every program aborts with "stack smashing detected" on s390x).  Without -L
# all of it is multiarch.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
