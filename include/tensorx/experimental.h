/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/experimental.h -- the experimental API.  One part of the public header: define
 * TX_EXPERIMENTAL_API and include <tensorx.h>, not this file. */
#ifndef TENSORX_H
#error "define TX_EXPERIMENTAL_API and include <tensorx.h>, not tensorx/experimental.h"
#endif
/* ================================================================================================
 * Experimental API
 *
 * Declared only when the including file defines TX_EXPERIMENTAL_API before including tensorx.h
 * (as zstd's ZSTD_STATIC_LINKING_ONLY).  What "experimental" promises: these declarations may
 * change or go away in any minor version, before and after 1.0, and are not part of the SONAME
 * promise: a program that uses them must be rebuilt against, and run with, the tensorx version
 * whose header it was compiled with.  The symbols are exported by the library as every other.
 * What is here and why:
 *  - TX_MAX_THREADS: the thread pool's cap, a property of this implementation that may grow.
 *  - CPU levels (tx_isa_level, tx_cpu_*, tx_set_cpu_mask): the levels are x86-64 bundles and
 *    Arm64's Advanced SIMD as this version's kernels use them; later instruction sets will change
 *    the enum.  Every level gives the same bits, so they are for tests and tuning only.
 *  - The allocation cache (tx_set_alloc_cache_bytes, tx_alloc_cache_bytes, tx_alloc_stats): the
 *    cache is a policy of the default allocator, which may change or disappear.
 *  - The dtype table (tx_dtype_info_of): its columns grow as bindings need them.
 * The stable tx_plan (size before run) is not here: it is a sizing API, not tuning, and its
 * structs are grow-safe.
 * ============================================================================================== */
#if defined(TX_EXPERIMENTAL_API) && !defined(TENSORX_H_EXPERIMENTAL)
#define TENSORX_H_EXPERIMENTAL

#ifdef __cplusplus
extern "C" {
#endif

/* Largest thread count tx_set_num_threads() takes (larger values are capped to it). */
#define TX_MAX_THREADS 64

/* CPU instruction-set levels, as bundles: AVX2 = AVX2 + FMA + F16C + BMI2 (x86-64-v3);
 * AVX512 = AVX-512 F + BW + DQ + VL (x86-64-v4); AVX512_BF16 = AVX512 + AVX512_BF16;
 * NEON = Arm64's Advanced SIMD (baseline on aarch64).  The values are ordered for the cap of
 * tx_set_cpu_mask: a CPU has scalar and the levels of its own architecture up to its best one
 * (x86-64: AVX2, AVX512, AVX512_BF16; aarch64: NEON), and the kernels use the highest of those at
 * or below the cap's value, so a cap of an x86-64 level below TX_ISA_NEON means scalar on aarch64,
 * TX_ISA_NEON on x86-64 means AVX512 (without BF16), and TX_ISA_AVX512_BF16 means no cap on
 * either. */
typedef enum tx_isa_level {
    TX_ISA_SCALAR = 0, /* portable C only */
    TX_ISA_AVX2 = 1,
    TX_ISA_AVX512 = 2,
    TX_ISA_NEON = 3,       /* Arm64 Advanced SIMD.  Since 0.3. */
    TX_ISA_AVX512_BF16 = 4 /* Since 0.3. */
} tx_isa_level;

/* Returns the best level this CPU and operating system support (x86-64: cpuid and xgetbv;
 * aarch64: TX_ISA_NEON; TX_ISA_SCALAR on other architectures or in a TX_ENABLE_SIMD=OFF
 * build). */
TX_API tx_isa_level tx_cpu_detected_level(void);
/* Returns the level the kernels use: the highest level the CPU has at or below the mask's cap. */
TX_API tx_isa_level tx_cpu_level(void);
/* Caps the kernel level at `max_level` (TX_ISA_SCALAR forces the portable kernels) and returns the
 * level now in use: the highest level the CPU has at or below the cap.  Every level gives the
 * same bits.  The initial cap comes from the environment variable
 * TENSORX_CPU=scalar|avx2|avx512|avx512_bf16|neon (read once; another value is ignored), else no
 * cap.  A value of TX_ISA_AVX512_BF16 or above removes the cap.  Ops already running keep the
 * kernels they chose. */
TX_API tx_isa_level tx_set_cpu_mask(tx_isa_level max_level);
/* Returns the name of level: "scalar", "avx2", "avx512", "neon", "avx512_bf16"; "unknown" for
 * another value.  Never NULL; a static string, valid for the life of the program. */
TX_API const char *tx_isa_level_name(tx_isa_level level);
/* The kernels the level in use runs, one entry of the dispatch table per call: index 0, 1, ...
 * Sets *slot to the kind of kernel ("bulk_copy", "transpose2d", "cast") and *key to the entry
 * within it ("" for a slot of one kernel, else the element width in bytes, "4", or the cast pair,
 * "F32_BF16"), and returns the kernel's name ("tx__transpose2d_w4_avx512").  Past the last entry,
 * returns NULL and leaves *slot and *key as they were.  slot and key may be NULL; the strings are
 * static.  For tests and tuning (tensorx info --cpu prints them).  Since 0.3. */
TX_API const char *tx_cpu_kernel_name(size_t index, const char **slot, const char **key);

/* tx_set_alloc_cache_bytes sets max_bytes, the most bytes the default allocator keeps in its
 * cache of freed large blocks (default: 1 GiB, or a sixteenth of the physical memory if that is
 * less); 0 disables the cache, and lowering it returns blocks to the OS at once.
 * tx_alloc_cache_bytes returns the bound in force.  Thread-safe.  Custom allocators never use the
 * cache. */
TX_API void tx_set_alloc_cache_bytes(size_t max_bytes);
TX_API size_t tx_alloc_cache_bytes(void);

/* Counters of the default allocator's large-block path, since the process started. */
typedef struct tx_alloc_stats {
    size_t struct_size;    /* sizeof(tx_alloc_stats) */
    size_t cached_bytes;   /* bytes now held in the cache */
    size_t cached_blocks;  /* blocks now held in the cache */
    uint64_t large_allocs; /* large-block requests */
    uint64_t cache_hits;   /* of them, served from the cache */
} tx_alloc_stats;
/* The initialiser of a tx_alloc_stats: tx_alloc_stats st = TX_ALLOC_STATS_INIT;  Since 0.3. */
#define TX_ALLOC_STATS_INIT { sizeof(tx_alloc_stats), 0, 0, 0, 0 }
/* Fills *stats.  Errors: invalid_argument (stats NULL, or stats->struct_size not a known size:
 * stats not made with TX_ALLOC_STATS_INIT).  Since 0.3 (it returned void before). */
TX_API tx_status tx_alloc_stats_get(tx_alloc_stats *stats);

/* How the CLI prints an element of a dtype (tx_dtype_info's print).  A real, or each part of a
 * complex, prints with the fewest digits that read back as the same value of the float type the
 * format names; float8 uses TX_PRINT_FLOAT64, the digits of its exact value.  Since 0.3. */
typedef enum tx_print_format {
    TX_PRINT_BOOL = 0,  /* True / False */
    TX_PRINT_INT,       /* signed decimal */
    TX_PRINT_UINT,      /* unsigned decimal */
    TX_PRINT_FLOAT16,   /* shortest round trip through float16 */
    TX_PRINT_BFLOAT16,  /* through bfloat16 */
    TX_PRINT_FLOAT32,   /* through float32 */
    TX_PRINT_FLOAT64,   /* through float64 */
    TX_PRINT_BYTES      /* a Python bytes literal, b'...' */
} tx_print_format;

/* The facts of one dtype: a row of tensorx's dtype table (src/core/dtypes.def), for bindings and
 * tools that map tensorx's dtypes to other systems'.  Since 0.3. */
typedef struct tx_dtype_info {
    tx_dtype id;              /* the dtype */
    const char *name;         /* tx_dtype_name(id) */
    size_t size;              /* tx_dtype_size(id) */
    tx_dtype_kind kind;       /* tx_dtype_kind_of(id) */
    const char *npy_descr;    /* little-endian NumPy descr ("<f4"); NULL: NumPy lacks the type */
    const char *numpy_name;   /* NumPy's or ml_dtypes' name ("bfloat16"); NULL: neither has it */
    tx_dtype storage;         /* the integer dtype of the same storage (TX_UINT16 for bfloat16,
                                 TX_INT8 for qint8 and int4); id itself for float32, float64,
                                 complex and string */
    int64_t min;              /* an integer type's least value (TF's DType.min); else 0 */
    uint64_t max;             /* an integer type's largest value; else 0 */
    double max_finite;        /* a float type's largest finite value; else 0 */
    double min_finite;        /* a float type's least finite value (TF's and ml_dtypes' min):
                                 -max_finite, but 2^-127 for float8_e8m0fnu; else 0 */
    uint8_t dlpack_code;      /* DLPack's DLDataTypeCode (kDLInt 0 ... kDLBool 6) */
    uint8_t dlpack_bits;      /* DLPack's bits; 0 when DLPack has no such type */
    tx_print_format print;    /* how the CLI prints an element */
    int tf_datatype;          /* TensorFlow's DataType number: id; 0 for a type TF lacks */
    int onnx_datatype;        /* ONNX's TensorProto.DataType number; 0 (UNDEFINED) for none */
    uint8_t value_bits;       /* the bits of an element that hold its value: 8 * size, but 4, 2
                                 or 6 for the sub-byte types (held in the low bits of a byte) */
} tx_dtype_info;

/* Returns the row of dtype t, or NULL for a value that is no dtype.  The row is static, valid for
 * the life of the program.  Members may be added at the end.  Since 0.3. */
TX_API const tx_dtype_info *tx_dtype_info_of(tx_dtype t);

#ifdef __cplusplus
}
#endif
#endif /* TX_EXPERIMENTAL_API */
