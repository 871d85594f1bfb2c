# SPDX-License-Identifier: Apache-2.0
# Cross build for s390x Linux with Debian's gcc-s390x-linux-gnu; the tests run under qemu-user
# (qemu-s390x).  Target libraries (cmocka) come from Debian's multiarch packages (:s390x), found
# through pkg-config in /usr/lib/s390x-linux-gnu.  Used by scripts/test.sh's cross stage.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
# No -L /usr/s390x-linux-gnu: the multiarch packages bring the target's glibc to
# /lib/s390x-linux-gnu, and qemu's -L would mix that glibc with the cross package's loader (a
# different build: every program aborts with "stack smashing detected" on s390x).  Without -L
# all of it is multiarch.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x)
set(CMAKE_FIND_ROOT_PATH /usr/s390x-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/s390x-linux-gnu/pkgconfig:/usr/share/pkgconfig)
