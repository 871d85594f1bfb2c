# SPDX-License-Identifier: Apache-2.0
# Cross builds (cmake/toolchains/*.cmake, scripts/test.sh's cross stage): the tests run under the
# toolchain's CMAKE_CROSSCOMPILING_EMULATOR (qemu-user).  ctest puts the emulator in front of the
# tests whose command is a target; the shell and Python tests call the CLI through $TX, which here
# is a wrapper script that runs it under the emulator.  Included by tests/CMakeLists.txt; does
# nothing in a native build.
if(NOT CMAKE_CROSSCOMPILING OR NOT CMAKE_CROSSCOMPILING_EMULATOR)
  return()
endif()

# $TX is cross/bin/tensorx, `exec EMULATOR "$TX_TARGET_CLI" ARGS...`, so that the docs' examples
# find `tensorx` on PATH beside it as they do natively (file(COPY) gives it the execute bit).
string(REPLACE ";" " " _tx_emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cross/tensorx
  "#!/bin/sh\n# Runs the cross-built tensorx CLI under ${_tx_emulator}.\n"
  "exec ${_tx_emulator} \"$TX_TARGET_CLI\" \"$@\"\n")
file(COPY ${CMAKE_CURRENT_BINARY_DIR}/cross/tensorx DESTINATION ${CMAKE_CURRENT_BINARY_DIR}/cross/bin
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
  WORLD_READ WORLD_EXECUTE)
# The target's byte order, for the shell and Python tests whose expected bitcast results depend on
# it (tests/cli/lib.sh, tests/oracle/txoracle.py).
if(CMAKE_C_BYTE_ORDER STREQUAL "BIG_ENDIAN")
  set(_tx_order big)
elseif(CMAKE_C_BYTE_ORDER STREQUAL "LITTLE_ENDIAN")
  set(_tx_order little)
else()
  include(TestBigEndian)
  test_big_endian(_tx_big)
  set(_tx_order little)
  if(_tx_big)
    set(_tx_order big)
  endif()
endif()
set(_tx_env "TX=${CMAKE_CURRENT_BINARY_DIR}/cross/bin/tensorx"
  "TX_TARGET_CLI=$<TARGET_FILE:tensorx_cli>" "TX_TARGET_BYTE_ORDER=${_tx_order}"
  "TX_TEST_EMULATOR=${_tx_emulator}")
get_property(_tx_tests DIRECTORY PROPERTY TESTS)
foreach(_t ${_tx_tests})
  if(_t MATCHES "^(cli|oracle)\\.")
    set_tests_properties(${_t} PROPERTIES ENVIRONMENT "${_tx_env}")
  endif()
endforeach()
# The unit tests learn that they run emulated (test_parallel skips the one case qemu-user cannot
# run: threads started in a child forked from a threaded process abort qemu itself).
if(TEST unit.test_parallel)
  set_tests_properties(unit.test_parallel PROPERTIES ENVIRONMENT "TX_TEST_EMULATOR=${_tx_emulator}")
endif()
# Host-side checks, not run on the target: the installed-package test builds consumers with the
# host's compiler, the docs examples run their programs directly, valgrind cannot run another
# architecture's programs, and the repository checks read files only (the native stages run all
# of them).
foreach(_t install docs.c_examples)
  if(TEST ${_t})
    set_tests_properties(${_t} PROPERTIES DISABLED TRUE)
  endif()
endforeach()
foreach(_t ${_tx_tests})
  if(_t MATCHES "^(repo|valgrind)\\.")
    set_tests_properties(${_t} PROPERTIES DISABLED TRUE)
  endif()
endforeach()
