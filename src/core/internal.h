/* SPDX-License-Identifier: Apache-2.0 */
/* internal.h -- what every tensorx source file shares: the tensor and buffer structs, the dtype
 * table, error helpers (tx__fail, TX_REQUIRE, TX_TRY) and the overflow-checked shape helpers.
 * Nothing here is part of the public API; internal non-static symbols use the tx__ prefix. */
#ifndef TX_INTERNAL_H
#define TX_INTERNAL_H

/* The library defines and uses the experimental API (tensorx.h), and so do the tests that
 * include this header. */
#ifndef TX_EXPERIMENTAL_API
#define TX_EXPERIMENTAL_API
#endif
#include "tensorx.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define TX_HIDDEN __attribute__((visibility("hidden")))
#define TX_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define TX_LIKELY(x) __builtin_expect(!!(x), 1)
#define TX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define TX_HIDDEN
#define TX_PRINTF(a, b)
#define TX_LIKELY(x) (x)
#define TX_UNLIKELY(x) (x)
#endif
/* Thread-local state keeps the compiler's default TLS model.  The initial-exec model (a plain
 * load instead of a __tls_get_addr call) took static TLS, which glibc keeps small for libraries
 * loaded later: with TensorFlow and OpenVINO imported first, `import tensorx` and
 * dlopen("libtensorx.so") failed with "cannot allocate memory in static TLS block".  The
 * ctest install.static_tls keeps it out. */

/* Storage types of the complex dtypes (real part first, as in C and TF). */
typedef struct tx__c64 { float re, im; } tx__c64;
typedef struct tx__c128 { double re, im; } tx__c128;

/* ---- dtype table (dtype.c, generated from dtypes.def) ---- */
#include "core/dtypes.def"

/* One more than the largest dtype enum value: the size of a table indexed by dtype.  (The union
 * is as large as its largest member, one char per enum value up to that dtype's.) */
#define TX__DTYPE_ID_MEMBER(ctx, E, ...) char id_##E[TX_##E + 1];
union tx__dtype_ids { TX__DTYPES(TX__DTYPE_ID_MEMBER, ~) };
#undef TX__DTYPE_ID_MEMBER
#define TX__DTYPE_ID_LIMIT sizeof(union tx__dtype_ids)

/* A row of the table is the public tx_dtype_info (tensorx.h, experimental section). */
typedef tx_dtype_info tx__dtype_info;

/* The rows by dtype value: NULL where a value is no dtype. */
extern TX_HIDDEN const tx__dtype_info *const tx__dtype_by_id[TX__DTYPE_ID_LIMIT];
/* NULL for an unknown dtype value. */
static inline const tx__dtype_info *tx__dtype(tx_dtype t) {
    return (unsigned)t < TX__DTYPE_ID_LIMIT ? tx__dtype_by_id[t] : NULL;
}
/* Iteration over the table: the number of dtypes and the i-th entry. */
TX_HIDDEN size_t tx__dtype_count(void);
TX_HIDDEN const tx__dtype_info *tx__dtype_at(size_t i);
static inline bool tx__is_integer_kind(tx_dtype_kind k) {
    return k == TX_KIND_SIGNED || k == TX_KIND_UNSIGNED || k == TX_KIND_QUANTIZED;
}
/* The sub-byte dtypes (value bits < 8: int4, uint4, int2, uint2, float4_e2m1fn, the float6 types)
 * hold one element per byte, the value in the low bits and zeros above in what tensorx writes, as
 * TF 2.21 and ml_dtypes store them; readers ignore the upper bits of an integer (wrapped memory may
 * hold any) and read a float's as ml_dtypes does (tx__normalise_subbyte). */
static inline bool tx__is_subbyte(tx_dtype t) {
    const tx__dtype_info *d = tx__dtype(t);
    return d != NULL && d->value_bits < 8;
}
/* The float types of one byte or less (float8, float6, float4), which TF's kernels take far less
 * often than the others. */
static inline bool tx__is_small_float(tx_dtype t) {
    const tx__dtype_info *d = tx__dtype(t);
    return d != NULL && d->kind == TX_KIND_FLOAT && d->size == 1;
}
/* The one reader of an integer element: element i of data of dtype t (bool, signed, unsigned or
 * quantized), widened to int64.  A uint64 above INT64_MAX keeps its bits (two's complement, as
 * TF's Cast to int64 wraps); a sub-byte element is its low `bits` bits, sign-extended for a signed
 * type.  The cases come from dtypes.def: each loads its row's storage type. */
#define TX__INT_LOAD(E, ctype) ((int64_t)((const ctype *)data)[i])
#define TX__INT_LOW(E, ctype, bits) (TX__INT_LOAD(E, ctype) & ((1 << (bits)) - 1))
#define TX__INT_CASE_BOOL(E, ctype, bits) case TX_##E: return TX__INT_LOAD(E, ctype);
#define TX__INT_CASE_QUANTIZED(E, ctype, bits) case TX_##E: return TX__INT_LOAD(E, ctype);
#define TX__INT_CASE_SIGNED(E, ctype, bits)                                                      \
    case TX_##E: return (bits) < 8 ? (TX__INT_LOW(E, ctype, bits) ^ (1 << ((bits) - 1))) -      \
                                         (1 << ((bits) - 1))                                     \
                                   : TX__INT_LOAD(E, ctype);
#define TX__INT_CASE_UNSIGNED(E, ctype, bits)                                                    \
    case TX_##E: return (bits) < 8 ? TX__INT_LOW(E, ctype, bits) : TX__INT_LOAD(E, ctype);
#define TX__INT_CASE_FLOAT(E, ctype, bits)
#define TX__INT_CASE_COMPLEX(E, ctype, bits)
#define TX__INT_CASE_STRING(E, ctype, bits)
#define TX__INT_CASE(ctx, E, name, ctype, size, kind, descr, rules, range, dl_code, dl_bits, print, \
                     tf, onnx, numpy, bits)                                                      \
    TX__INT_CASE_##kind(E, ctype, bits)
static inline int64_t tx__int_at(const void *data, tx_dtype t, int64_t i) {
    switch (t) {
    TX__DTYPES(TX__INT_CASE, ~)
    default: assert(!"tx__int_at: not an integer dtype"); return 0;
    }
}
/* Rewrites n bytes of a sub-byte dtype to the bytes tensorx writes for their values: an integer's
 * low bits, zeros above (ml_dtypes reads only those); a float's sign bit set when any bit at or
 * above it is (ml_dtypes reads such a byte as negative), zeros above.  Returns whether any byte
 * changed. */
TX_HIDDEN bool tx__normalise_subbyte(tx_dtype t, char *p, int64_t n);
/* The byte tensorx stores for byte b of sub-byte dtype t (one element of tx__normalise_subbyte). */
TX_HIDDEN uint8_t tx__subbyte_value(tx_dtype t, unsigned b);
/* Rewrites n bool bytes to 0 or 1 (any non-zero byte is true, as TF reads it). */
TX_HIDDEN void tx__normalise_bool(char *p, int64_t n);

/* ---- errors (status.c) ---- */
/* Formats the thread's message and returns `status`. */
TX_HIDDEN tx_status tx__fail(tx_status status, const char *fmt, ...) TX_PRINTF(2, 3);
/* The message with ": <previous message>" kept as context is not needed; ops name themselves. */

#define TX_REQUIRE(cond, status, ...)                                                            \
    do {                                                                                         \
        if (TX_UNLIKELY(!(cond))) return tx__fail((status), __VA_ARGS__);                        \
    } while (0)

#define TX_TRY(expr)                                                                             \
    do {                                                                                         \
        tx_status tx__s_ = (expr);                                                               \
        if (TX_UNLIKELY(tx__s_ != TX_OK)) return tx__s_;                                         \
    } while (0)

/* ---- structs the library fills (status.c) ----
 * A public struct that the caller allocates and the library fills begins with size_t struct_size
 * (tensorx.h, "Structs the library fills").  Each has a list of the sizes of its released layouts,
 * oldest first.  A release that appends members appends the new sizeof and keeps the old sizes,
 * written as sizeof of a private copy of the old layout so that they stay right on every ABI.  The
 * sizes must differ: a member appended into the old layout's tail padding needs a reserved member
 * after it. */
/* TX_OK when size is one of known[0..n); else invalid_argument, e.g. "plan: plan->struct_size is
 * 0, not the size of a tx_plan this library knows (72); make it with TX_PLAN_INIT". */
TX_HIDDEN tx_status tx__check_struct_size(const char *op, const char *arg, size_t size,
                                          const size_t *known, size_t n, const char *type,
                                          const char *init);
/* Copies into the caller's struct dst, whose struct_size is `size` (a size that
 * tx__check_struct_size accepted), the members of the complete struct `full` that dst has: every
 * byte after struct_size and below size.  dst's struct_size stays as it is. */
static inline void tx__fill_struct(void *dst, size_t size, const void *full) {
    assert(size >= sizeof(size_t));
    const size_t skip = sizeof(size_t);
    memcpy((char *)dst + skip, (const char *)full + skip, size - skip);
}

/* ---- allocation (alloc.c) ---- */
#define TX_ALIGNMENT 64
/* Allocates through the current allocator; on failure sets resource_exhausted naming `what`. */
TX_HIDDEN void *tx__alloc(size_t size, const char *what);
/* The same for a header (a tensor handle, a buffer record): aligned only as malloc aligns
 * (max_align_t), so the default allocator pads it less than data. */
TX_HIDDEN void *tx__alloc_header(size_t size, const char *what);
TX_HIDDEN void tx__free(void *ptr, size_t size);
/* Small internal scratch memory (plans, index tables): same allocator, same failure rule. */
TX_HIDDEN void *tx__calloc_array(size_t n, size_t elem, const char *what);
/* Returns every block of the large-block cache to the system (tx_shutdown's second half). */
TX_HIDDEN void tx__alloc_cache_release_all(void);
/* Whether the page holding p is in memory already (written before), as far as the system says
 * (mincore); true where it cannot tell.  Streaming stores are the fast way to fill memory that
 * was touched, and the slow way to fill fresh pages, which the kernel has just zeroed through
 * the caches. */
TX_HIDDEN bool tx__page_resident(const void *p);

/* ---- buffers and tensors (tensor.c) ---- */
typedef struct tx__buffer tx__buffer;
struct tx__buffer {
    atomic_long refcount;
    void *data;
    size_t size;              /* bytes */
    tx_release_fn release;    /* wrapped caller memory: called once; NULL = allocator memory */
    void *release_ctx;
    bool wrapped;
    /* String tensors: the byte storages (leaf buffers) their tx_string records point into.  A
     * data-movement op that copies records shares the input's storages (tx__share_strings). */
    tx__buffer **deps;
    size_t ndeps;
};

struct tx_tensor {
    tx_dtype dtype;
    size_t rank;
    int64_t numel;
    size_t nbytes;
    tx__buffer *buf;
    char *data;               /* = buf->data + view offset */
    /* The public API must not hand out this tensor's memory for writing (tx_tensor_data,
     * tx_tensor_to_dlpack): a read-only file mapping, a DLPack import its producer marked
     * read-only, string bytes.  Views inherit it; the library's own kernels never write inputs. */
    bool read_only;
    int64_t dims[];           /* rank entries */
};

TX_HIDDEN void tx__buffer_retain(tx__buffer *b);
TX_HIDDEN void tx__buffer_release(tx__buffer *b);
/* New uninitialised tensor (string records zeroed, i.e. empty strings).  `op` names the caller in
 * messages.  Checks rank, dims and the byte-size limit. */
TX_HIDDEN tx_status tx__tensor_alloc(const char *op, tx_dtype dtype, size_t rank,
                                     const int64_t *dims, tx_tensor **out);
/* Same, zero-filled. */
TX_HIDDEN tx_status tx__tensor_zeros(const char *op, tx_dtype dtype, size_t rank,
                                     const int64_t *dims, tx_tensor **out);
/* A view: a new handle on t's buffer with another dtype/shape of the same byte size; read-only
 * when t is. */
TX_HIDDEN tx_status tx__tensor_view(const char *op, const tx_tensor *t, tx_dtype dtype,
                                    size_t rank, const int64_t *dims, tx_tensor **out);
/* A 1-D uint8 view of n bytes at `data`, which lie inside buffer b (b gains a reference): how a
 * string tensor's byte storage is handed out without a copy.  Read-only, as string bytes are. */
TX_HIDDEN tx_status tx__bytes_view(const char *op, tx__buffer *b, char *data, int64_t n,
                                   tx_tensor **out);
/* A read-only view of dtype and dims at `data`, whose bytes lie inside buffer b (b gains a
 * reference): how the tensors of a mapped safetensors file are handed out without a copy.  data
 * must be aligned for the dtype. */
TX_HIDDEN tx_status tx__buffer_view(const char *op, tx__buffer *b, char *data, tx_dtype dtype,
                                    size_t rank, const int64_t *dims, tx_tensor **out);
/* Makes `dst` (a string tensor) keep alive every byte storage that `src`'s records point into. */
TX_HIDDEN tx_status tx__share_strings(tx_tensor *dst, const tx_tensor *src);
/* A new byte storage of `size` bytes to hold string bytes; dst keeps a reference.  Returns the
 * bytes through *bytes.  Used by ops that create string contents. */
TX_HIDDEN tx_status tx__string_storage(tx_tensor *dst, size_t size, char **bytes);
/* ---- size before run (plan.c and tensor.c; public side in tensorx.h) ----
 * In plan mode the output constructors (tx__tensor_alloc, _zeros, _view above; _alloc_flags,
 * _alloc_n, tx__string_tensor_alloc below) record the output in the thread's plan instead of
 * allocating and return TX__PLANNED, a status that never leaves the library: the op unwinds
 * through its usual failure path (TX_TRY, free-on-error) and tx_plan_leave turns it into TX_OK.
 * Rule for ops: validate everything (including the values that decide errors) before the first
 * output constructor, and allocate no scratch before it (tx__alloc refuses it in plan mode). */
/* None of TX_STATUS_LIST's codes, nor a frontend's (1000 up). */
#define TX__PLANNED ((tx_status)2000)
/* The plan this thread records into, NULL when it is not sizing (plan.c). */
TX_HIDDEN extern _Thread_local tx_plan *tx__plan_active;
/* The op that recorded the active plan's first output, NULL before one did. */
TX_HIDDEN extern _Thread_local const char *tx__plan_op;
/* True while this thread is in plan mode. */
static inline bool tx__planning(void) { return tx__plan_active != NULL; }
/* Appends one output to the active plan (the constructors' record of an output in plan mode). */
TX_HIDDEN void tx__plan_record(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                               int64_t numel, size_t nbytes, size_t string_bytes, unsigned flags);
/* ---- prepared ops (prepared.c; public side in tensorx/prepared.h) ----
 * An op that has a prepared form is written as two halves: its checks fill a plan (a plain
 * struct: everything the kernels need, computed from shapes and attributes), and a run function
 * does the work from the plan and raw pointers.  The call is: checks, tx__prepared_step, the
 * output constructors, the run function on the outputs' data.  In prepare mode (which is also
 * plan mode) tx__prepared_step copies the plan into the tx_op being made and the constructors
 * record the outputs and stop the call; tx_op_run later calls the same run function. */
typedef struct tx__run_io {
    const char *const *in; /* the data inputs' elements, in the op's order */
    char *const *out;      /* the outputs' elements */
} tx__run_io;
/* Runs a plan.  No allocation, no system call (the thread split goes through tx__parallel_for).
 * Returns TX_OK or the data errors the op finds while running (an index out of range). */
typedef tx_status (*tx__run_fn)(const void *plan, const tx__run_io *io);
/* The op's part of a prepare: its run function, its plan (plan_size bytes, copied), its data
 * inputs (n_in tensors: their dtypes and shapes are recorded) and, for in_place_input >= 0, the
 * input that its outputs may alias exactly.  Outside prepare mode it does nothing and returns
 * TX_OK.  Refuses string inputs (unimplemented). */
TX_HIDDEN tx_status tx__prepared_step(const char *op, tx__run_fn run, const void *plan,
                                      size_t plan_size, size_t n_in, const tx_tensor *const *in,
                                      int in_place_input);
/* True while this thread prepares an op call (prepare mode, which is also plan mode): data
 * inputs' values may not be read then; checks of them go into the run. */
TX_HIDDEN bool tx__preparing(void);
/* The byte strides the caller gave for output i in prepare mode (rank entries), or NULL (write
 * the output row-major).  An op whose plan takes output strides asks for each output's; strides
 * given for an output that its op never asked for make the prepare fail (unimplemented). */
TX_HIDDEN const int64_t *tx__output_strides(size_t i);
/* The runner of the tx_op_run in progress on this thread (NULL: tensorx's pool), which
 * tx__parallel_for hands the pieces to. */
TX_HIDDEN extern _Thread_local const tx_runner *tx__runner_active;

/* Checks an output layout as the constructors do (dtype, rank, dims, byte limit) without
 * allocating; *numel receives the element count.  For ops whose data checks come after the
 * output's shape checks. */
TX_HIDDEN tx_status tx__check_output(const char *op, tx_dtype dtype, size_t rank,
                                     const int64_t *dims, int64_t *numel);
/* One output of a multi-output op; `dims` is the constructor's buffer of TX_MAX_RANK + 1. */
typedef struct tx__out_spec {
    tx_dtype dtype;
    size_t rank;
    int64_t *dims;
    unsigned flags; /* TX_OUTPUT_* recorded in plan mode */
} tx__out_spec;
typedef void (*tx__spec_fn)(void *ctx, size_t i, tx__out_spec *spec);
/* Makes outs[0..n) from spec(ctx, i, ...) (uninitialised data; empty strings), all or none: on
 * failure every outs[i] is NULL.  In plan mode records all n outputs, then returns TX__PLANNED. */
TX_HIDDEN tx_status tx__tensor_alloc_n(const char *op, size_t n, tx__spec_fn spec, void *ctx,
                                       tx_tensor **outs);
/* For ops whose real output sizes need work that allocates (unique, dynamic_partition): in plan
 * mode records the n bounds given by spec and returns TX__PLANNED (outs all NULL); otherwise
 * returns TX_OK and does nothing. */
TX_HIDDEN tx_status tx__plan_bounds(const char *op, size_t n, tx__spec_fn spec, void *ctx,
                                    tx_tensor **outs);
/* A new string tensor plus `string_bytes` bytes of string storage that it keeps (*bytes; NULL
 * when string_bytes is 0).  Records both in plan mode. */
TX_HIDDEN tx_status tx__string_tensor_alloc(const char *op, size_t rank, const int64_t *dims,
                                            size_t string_bytes, unsigned plan_flags,
                                            char **bytes, tx_tensor **out);
/* Same as tx__tensor_alloc with TX_OUTPUT_* flags for the plan record. */
TX_HIDDEN tx_status tx__tensor_alloc_flags(const char *op, tx_dtype dtype, size_t rank,
                                           const int64_t *dims, unsigned plan_flags,
                                           tx_tensor **out);
/* Frees *out-style results on failure paths. */
TX_HIDDEN void tx__free_all(tx_tensor **ts, size_t n);

/* ---- shape helpers (shape.c) ----
 * Shape arithmetic rule (docs/reliability.md, "Shape arithmetic"): a product or sum of dims,
 * strides, element counts or byte counts is written with these helpers, or with plain * and +
 * only where a comment says what bounds it.  An empty tensor's dims are the trap: its element
 * count is 0, yet the dims beside the 0 can multiply past int64 ([2^40, 2^40, 0]). */
/* a*b and a+b with overflow check into int64. false on overflow. */
static inline bool tx__mul_i64(int64_t a, int64_t b, int64_t *r) {
    return !__builtin_mul_overflow(a, b, r);
}
static inline bool tx__add_i64(int64_t a, int64_t b, int64_t *r) {
    return !__builtin_add_overflow(a, b, r);
}
/* Product of dims[begin, end) (dims >= 0): 0 as soon as one of them is 0, otherwise exact when
 * it fits int64, which it does for dims of a tensor that has elements (the product divides its
 * element count).  Callers use it for such tensors only -- typically the output once its element
 * count is known non-zero; past int64 (a broken caller) it asserts, and saturates at INT64_MAX
 * where asserts are off, so it never overflows. */
static inline int64_t tx__dims_product(const int64_t *dims, size_t begin, size_t end) {
    int64_t p = 1;
    for (size_t i = begin; i < end; i++)
        if (dims[i] == 0) return 0;
    for (size_t i = begin; i < end; i++) {
        if (!tx__mul_i64(p, dims[i], &p)) {
            assert(!"tx__dims_product: the product passes int64");
            return INT64_MAX;
        }
    }
    return p;
}
/* Element i of an index tensor (a dtype its op takes: int16, int32 or int64 for TF's indices). */
static inline int64_t tx__index_at(const tx_tensor *t, int64_t i) {
    return tx__int_at(t->data, t->dtype, i);
}
/* The out-of-range rules of tx_oob_policy, one definition for the gather kernels and
 * batch_to_space's crops.  Under TX_OOB_WRAP an index v (dim > 0) maps to v mod dim in [0, dim),
 * Python's rule for negatives.  No overflow: |v % dim| < dim. */
static inline int64_t tx__wrap_index(int64_t v, int64_t dim) {
    int64_t r = v % dim;
    return r < 0 ? r + dim : r;
}

/* v clamped into [0, dim - 1] (dim > 0), for TX_OOB_CLAMP. */
static inline int64_t tx__clamp_index(int64_t v, int64_t dim) {
    return v < 0 ? 0 : v >= dim ? dim - 1 : v;
}

/* The largest value of the signed index dtype of `width` bytes (2, 4 or 8). */
static inline int64_t tx__index_max(size_t width) {
    return width == 2 ? INT16_MAX : width == 4 ? INT32_MAX : INT64_MAX;
}
/* Product of dims with overflow and negativity checks; message names `op` and `what`. */
TX_HIDDEN tx_status tx__shape_numel(const char *op, const char *what, size_t rank,
                                    const int64_t *dims, int64_t *numel);
/* Normalises axis in [-rank, rank) to [0, rank); `what` names the argument. */
TX_HIDDEN tx_status tx__normalize_axis(const char *op, const char *what, int64_t axis,
                                       size_t rank, size_t *out);
/* Reads a rank-0 or rank-1 int32/int64 tensor into a new int64 array (freed with tx__free using
 * n*8 bytes).  Checks dtype and rank; `what` names the argument. *n = number of entries. */
TX_HIDDEN tx_status tx__read_int_vector(const char *op, const char *what, const tx_tensor *t,
                                        int64_t **values, size_t *n);
/* Reads an integer scalar tensor (int32/int64) into *value. */
TX_HIDDEN tx_status tx__read_int_scalar(const char *op, const char *what, const tx_tensor *t,
                                        int64_t *value);
/* Formats dims as "[2,3,4]" into buf (truncated with "..." if long).  Returns buf. */
TX_HIDDEN const char *tx__format_dims(char *buf, size_t cap, size_t rank, const int64_t *dims);
#define TX_DIMS_STR_CAP 128
/* Checks that an input handle is present. */
#define TX_REQUIRE_TENSOR(op, t, name)                                                           \
    TX_REQUIRE((t) != NULL, TX_INVALID_ARGUMENT, "%s: %s is NULL", (op), (name))
#define TX_REQUIRE_OUT(op, out)                                                                  \
    TX_REQUIRE((out) != NULL, TX_INVALID_ARGUMENT, "%s: out is NULL", (op))

#endif /* TX_INTERNAL_H */
