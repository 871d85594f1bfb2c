# SPDX-License-Identifier: Apache-2.0
# Per-ISA kernel sources and their compile flags: the only place that knows them.  Files under
# src/kernels/x86/<isa>/ get that ISA's flags; nothing else does.  src/kernels/arm/neon/ is
# compiled for aarch64 targets only, with no extra flags (Advanced SIMD, including the float16
# conversions, is part of the ARMv8-A base).
set(TX_ISA_SOURCES "")
if(TX_ENABLE_SIMD AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  file(GLOB _avx2 CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/x86/avx2/*.c)
  file(GLOB _avx512 CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/x86/avx512/*.c)
  set_source_files_properties(${_avx2} PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma;-mf16c;-mbmi2")
  set_source_files_properties(${_avx512} PROPERTIES
    COMPILE_OPTIONS "-mavx512f;-mavx512bw;-mavx512dq;-mavx512vl;-mavx2;-mfma;-mf16c;-mbmi2")
  list(APPEND TX_ISA_SOURCES ${_avx2} ${_avx512})
  add_compile_definitions(TX_HAVE_X86_SIMD=1)
endif()
if(TX_ENABLE_SIMD AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  file(GLOB _neon CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/arm/neon/*.c)
  list(APPEND TX_ISA_SOURCES ${_neon})
  add_compile_definitions(TX_HAVE_ARM_NEON=1)
endif()

# Float arithmetic and constants in float precision on every target, as TF's C++ kernels compute
# them: GCC's ISO C modes evaluate them in double on s390x (FLT_EVAL_METHOD 1), where x == 1.1f
# becomes a comparison with the double 1.1.  A no-op where FLT_EVAL_METHOD is already 0 (x86-64
# SSE, aarch64).
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-fexcess-precision=fast)
endif()
