/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx_dlpack.h -- <dlpack/dlpack.h>, plus DLPack 1.x's versioned managed tensor when that
 * header is older (Debian's libdlpack-dev is DLPack 0.6, which lacks it), for programs that make
 * or read the DLManagedTensorVersioned of tx_tensor_to_dlpack_versioned and
 * tx_tensor_from_dlpack_versioned (tensorx.h's DLPack section).  The DLPack standard fixes the
 * layout below (version, manager_ctx, deleter, flags, then the DLTensor that 0.6 already has), so
 * tensorx takes and gives DLManagedTensorVersioned whichever header it is built with.  tensorx.h
 * itself needs no DLPack header; this one needs <dlpack/dlpack.h>.  It also gives DLPack 1.1's
 * float8 / float6 / float4 codes and padded flag to programs built with an older header.  The library, its unit tests
 * and the Python extension use these definitions.  Since 0.3. */
#ifndef TENSORX_DLPACK_H
#define TENSORX_DLPACK_H

#include <dlpack/dlpack.h>
#include <stdint.h>

#if !defined(DLPACK_MAJOR_VERSION) || DLPACK_MAJOR_VERSION < 1
typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags; /* DLPACK_FLAG_BITMASK_* */
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)
#endif

/* DLPack 1.1's type codes and its flag for sub-byte types held one per byte, which older headers
 * lack (DLPack >= 1.1 defines them itself).  Sub-byte types (bits < 8) are packed, little
 * bit-endian, unless DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED says one element per byte. */
#if !defined(DLPACK_MAJOR_VERSION) || (DLPACK_MAJOR_VERSION == 1 && DLPACK_MINOR_VERSION < 1)
enum {
    kDLFloat8_e3m4 = 7,
    kDLFloat8_e4m3 = 8,
    kDLFloat8_e4m3b11fnuz = 9,
    kDLFloat8_e4m3fn = 10,
    kDLFloat8_e4m3fnuz = 11,
    kDLFloat8_e5m2 = 12,
    kDLFloat8_e5m2fnuz = 13,
    kDLFloat8_e8m0fnu = 14,
    kDLFloat6_e2m3fn = 15,
    kDLFloat6_e3m2fn = 16,
    kDLFloat4_e2m1fn = 17
};
#endif
#ifndef DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (UINT64_C(1) << 2)
#endif

/* The major version whose layout this file (or the header) describes. */
#define TX_DLPACK_VERSIONED_MAJOR 1u

#endif /* TENSORX_DLPACK_H */
