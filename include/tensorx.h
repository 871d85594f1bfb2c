/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tensorx.h -- the one public header of tensorx, and its manual.  It includes its parts, one topic
 * a file, from include/tensorx/ (tensor.h, plan.h, prepared.h, ops_*.h, io.h,
 * experimental.h); a program includes only this file.
 *
 * tensorx implements TensorFlow's "Tensor Transformations" (casting, bitcasting, raw decoding, string
 * tensors, shapes, slicing and joining, reordering, space/batch/depth, gathering and encoding) and
 * OpenVINO's StringTensorPack/Unpack in C11, bit-exact with TensorFlow's CPU kernels.
 *
 * Conventions that hold for every function below:
 *
 *  - Status.  Every fallible call returns a tx_status.  TX_OK is 0; the other values equal
 *    TensorFlow's canonical error codes.  On failure tx_last_error() returns a message naming the
 *    operation, the argument and the rule it broke, e.g. "reshape: shape [3,-1,-1] has more than
 *    one -1".  The message is kept per thread.  The library never aborts, exits or prints.
 *
 *  - Inputs are borrowed.  A `const tx_tensor *` argument is only read during the call; the library
 *    keeps no pointer to the handle afterwards (an output that is a view holds its own reference to
 *    the shared buffer, so the input handle may be freed first).
 *
 *  - Outputs.  An op writes each result through a `tx_tensor **out`.  On TX_OK the caller owns
 *    `*out` and releases it with tx_tensor_free(), whether it is a new tensor or a view.  On failure
 *    `*out` is set to NULL and nothing leaks.  Ops never read `*out` on entry.
 *
 *  - Views.  reshape, squeeze, expand_dims and bitcast return views: new handles on the input's
 *    buffer, with no copy.  Every other op returns a tensor with its own buffer.  Tensor contents are
 *    treated as immutable by the library; a caller that writes through tx_tensor_data() into a
 *    buffer shared by views changes every view.
 *
 *  - Read-only tensors.  A tensor may be written (through tx_tensor_data(), or by a DLPack consumer
 *    of tx_tensor_to_dlpack()) only when tx_tensor_is_writable() says so.  Read-only are: windows
 *    of files from tx_file_map / tx_file_map_string (mapped without write permission: a write
 *    would fault), DLPack imports that the producer marks read-only
 *    (tx_tensor_from_dlpack_versioned with DLPACK_FLAG_BITMASK_READ_ONLY), the bytes view that
 *    tx_string_tensor_unpack may return, and every view or tx_tensor_ref() of a read-only tensor.
 *    Every other tensor is writable, op outputs and tx_tensor_copy() of a read-only tensor
 *    included.  Reading works the same for all: tx_tensor_data_const().  The library refuses to
 *    hand out a read-only tensor's memory for writing (invalid_argument, naming the argument);
 *    ops only read their inputs, so any tensor may be an op's input.
 *
 *  - Structs the library fills.  A struct that the caller allocates and the library fills
 *    (tx_plan and its tx_output_info entries, tx_npy_info, tx_alloc_stats) begins with
 *    `size_t struct_size`, the sizeof of the struct the caller was compiled with, set by its
 *    TX_..._INIT initialiser.  Later versions only append members, so the library fills the
 *    members that the caller's struct has and leaves the rest out: a program built against an
 *    older header keeps working.  A struct_size that is not the size of a layout the library knows
 *    (0 because the struct was not initialised, or a newer header's) is invalid_argument, naming
 *    the struct and the initialiser to use.
 *
 *  - Memory.  Every allocation goes through the allocator set with tx_set_allocator() (default:
 *    aligned malloc).  Allocation failure returns TX_RESOURCE_EXHAUSTED.  A tensor whose byte size
 *    overflows size_t or exceeds tx_set_max_tensor_bytes() is refused before any allocation.
 *
 *  - Sizing.  Any op call can be sized before it runs -- each output's dtype, shape and bytes, or
 *    the call's exact error -- without allocating: TX_PLAN(&plan, call), see "Size before run".  A call can also be
 *    prepared once and run many times on raw pointers into the caller's memory, without
 *    allocating: TX_PREPARE(&op, options, call) and tx_op_run, see "Prepared ops".
 *
 *  - Byte order.  Tensor data are in host byte order; TX_HOST_LITTLE_ENDIAN says which order a
 *    build uses.  Only bitcast between widths gives host-dependent results (as in TF); decode_raw
 *    and encode_raw take an explicit order, .npy files carry theirs.  Tested on little-endian
 *    x86-64 and aarch64 and on big-endian s390x (docs/platforms.md).
 *
 *  - Thread safety.  Ops may run concurrently on different tensors and on the same input tensors.
 *    tx_set_allocator() and tx_set_max_tensor_bytes() must be called before other threads use the
 *    library.
 *
 * How each declaration is documented (the template; tests/repo/header_docs.py checks the parts it
 * can and fails the build's tests on a declaration without them):
 *  - A block comment directly above the declaration says what it does (for an op: the TensorFlow
 *    op it implements and its rule).  One block may document a group of declarations written
 *    without a blank line between them; it then names each of them.
 *  - Functions: the block names every parameter and says what it must be (NULL or not, dtype,
 *    shape, range); `out` / `outs` (tx_tensor **) follow "Outputs" above unless the block says
 *    otherwise.  A function returning tx_status lists, after "Errors", each status it returns with
 *    the rule that triggers it (or "Errors: those of tx_x" and the differences).  Any other
 *    non-void function says what it returns ("Returns ..."), also for arguments it cannot use.
 *  - Ownership: the block says who owns each pointer that goes in or comes out and how long it
 *    stays valid, where the conventions above do not say it already; a returned pointer always
 *    says it.
 *  - Types: a struct's members each have their own comment or are named in its block; an enum's
 *    block says what it selects (its constants have comments where their names do not say it).
 *    A macro that is API says what it gives and names its parameters.
 *  - Optional: the file that implements it and "Since X.Y", the release that added it (the test
 *    repo.version checks those against the version).
 */
#ifndef TENSORX_H
#define TENSORX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------
 * Version and export
 * --------------------------------------------------------------------------------------------- */
/* The version of this header: TX_VERSION_MAJOR.TX_VERSION_MINOR.TX_VERSION_PATCH, and
 * TX_VERSION_NUMBER = major * 10000 + minor * 100 + patch (300 for 0.3.0).  The build reads the
 * version from here; compare it with tx_version_number() to check the library a program runs
 * with. */
#define TX_VERSION_MAJOR 0
#define TX_VERSION_MINOR 3
#define TX_VERSION_PATCH 0
#define TX_VERSION_NUMBER (TX_VERSION_MAJOR * 10000 + TX_VERSION_MINOR * 100 + TX_VERSION_PATCH)

/* TX_API marks every function of the library's ABI.  On Windows it is __declspec(dllexport) while
 * the DLL itself is built (TX_BUILDING_SHARED_LIBRARY, which tensorx's build defines),
 * __declspec(dllimport) in a program that uses the DLL, and nothing when TX_STATIC is defined: a
 * program linking the static library must define TX_STATIC (the CMake package's static
 * tensorx::tensorx and `pkg-config --static --cflags tensorx` do).  Elsewhere it gives the symbol
 * default visibility, since the library is built with hidden visibility. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(TX_STATIC)
#define TX_API
#elif defined(TX_BUILDING_SHARED_LIBRARY)
#define TX_API __declspec(dllexport)
#else
#define TX_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define TX_API __attribute__((visibility("default")))
#else
#define TX_API
#endif

/* TX_HOST_LITTLE_ENDIAN: 1 when the compiler targets a little-endian host, 0 for a big-endian one
 * (from __BYTE_ORDER__; 1 where the compiler does not say).  Tensor data are in this order. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TX_HOST_LITTLE_ENDIAN 0
#else
#define TX_HOST_LITTLE_ENDIAN 1
#endif

/* tx_version_number returns TX_VERSION_NUMBER of the library the program runs with (which may
 * differ from the header's), and tx_version_string returns its "major.minor.patch", a static
 * string valid for the life of the program. */
TX_API unsigned tx_version_number(void);      /* TX_VERSION_NUMBER of the library linked */
TX_API const char *tx_version_string(void);   /* "0.3.0" */

/* ------------------------------------------------------------------------------------------------
 * Status
 * --------------------------------------------------------------------------------------------- */
/* The statuses, one X(NAME, code, name) each: TX_STATUS_LIST(X) expands X for every status, in
 * code order, so that the tx_status enum (TX_<NAME> = code), tx_status_name() (name) and every
 * binding's table (the CLI's status names, the Python package's exception classes) come from this
 * one list.  The codes are TensorFlow's canonical error codes (absl::StatusCode), so mapping to
 * TF is the identity.  A frontend's own statuses (the CLI's usage and io_error) take codes of
 * 1000 and above, none of these; tests/unit/test_status.c checks that no two codes collide.
 *   OK                  the call succeeded
 *   INVALID_ARGUMENT    an argument breaks the op's rule (the message says which)
 *   RESOURCE_EXHAUSTED  allocation failed, or a size passes size_t or the tensor limit
 *   OUT_OF_RANGE        where TF says OUT_OF_RANGE (extract_image_patches' sizes)
 *   UNIMPLEMENTED       a dtype or mode the op does not take (as in TF)
 *   INTERNAL            a library bug, or a call plan mode cannot size
 * Since 0.3. */
#define TX_STATUS_LIST(X)                          \
    X(OK, 0, "ok")                                 \
    X(INVALID_ARGUMENT, 3, "invalid_argument")     \
    X(RESOURCE_EXHAUSTED, 8, "resource_exhausted") \
    X(OUT_OF_RANGE, 11, "out_of_range")            \
    X(UNIMPLEMENTED, 12, "unimplemented")          \
    X(INTERNAL, 13, "internal")                    \
    X(DATA_LOSS, 15, "data_loss")
/* TX__STATUS_ENUMERATOR(NAME, code, name) is the enumerator TX_<NAME> = code of TX_STATUS_LIST's
 * entry (name unused). */
#define TX__STATUS_ENUMERATOR(NAME, code, name) TX_##NAME = code,
/* The result of every fallible call: TX_OK, TX_INVALID_ARGUMENT, TX_RESOURCE_EXHAUSTED,
 * TX_OUT_OF_RANGE, TX_UNIMPLEMENTED, TX_INTERNAL, TX_DATA_LOSS, as TX_STATUS_LIST describes
 * them. */
typedef enum tx_status { TX_STATUS_LIST(TX__STATUS_ENUMERATOR) } tx_status;

/* Returns the name of status s: "ok", "invalid_argument", "resource_exhausted", "out_of_range",
 * "unimplemented", "internal", "data_loss"; "unknown" for any other value.  Never NULL; a static string, valid
 * for the life of the program. */
TX_API const char *tx_status_name(tx_status s);

/* tx_last_error returns this thread's message for the last failed call; "" if none failed since
 * the last tx_clear_error().  The string is owned by the library and valid until the next tensorx
 * call on this thread; never NULL.  tx_clear_error empties this thread's message. */
TX_API const char *tx_last_error(void);
TX_API void tx_clear_error(void);

/* ------------------------------------------------------------------------------------------------
 * The parts, in the manual's order: each is a file under include/tensorx/ that only this header
 * includes (one topic a file, so that no file of the manual grows past a screenful of topics).
 * --------------------------------------------------------------------------------------------- */
#include "tensorx/tensor.h"
#include "tensorx/plan.h"
#include "tensorx/prepared.h"
#include "tensorx/ops_casting.h"
#include "tensorx/ops_shaping.h"
#include "tensorx/ops_spatial.h"
#include "tensorx/ops_gather.h"
#include "tensorx/ops_parsing.h"
#include "tensorx/io.h"
#include "tensorx/tfrecord.h"
#include "tensorx/safetensors.h"
#include "tensorx/idx.h"
#include "tensorx/npz.h"

/* ---- Runtime: threads, CPU dispatch, allocation cache -----------------------------------------
 * Implemented in src/exec/pool.c, src/dispatch/cpu.c, src/dispatch/dispatch.c and
 * src/core/alloc.c.  Measurements and policies: docs/performance.md. */
/* TX_SECTION_RUNTIME_BEGIN */
/* Stable here: the thread count (a portable knob whose only effect is speed: results are
 * bit-identical for every count), tx_shutdown and the default allocator (part of the allocator
 * contract).  The CPU level mask and the allocation cache's size and counters are tuning and
 * introspection of this implementation: they are in the experimental part (tensorx/experimental.h). */

/* Sets how many threads an op may use for its large parts (the calling thread included).
 * n >= 1: that many (1 = the calling thread only; no thread is ever created), capped at 64 (the
 * experimental TX_MAX_THREADS).  n <= 0: the default, which is TENSORX_NUM_THREADS when the
 * environment holds a positive integer there, else the number of CPUs the process may run on
 * (its affinity mask on Linux, e.g. under taskset or a cpuset; elsewhere the online CPUs), at
 * most 16.
 * Results are bit-identical for every thread count: work is split statically and every output
 * element is computed by exactly one thread, in the same way.  The worker threads are created on
 * first use; if that fails, ops run on the calling thread.  The call waits for a parallel section
 * running on another thread to end.  Ops may be called from several user threads at once: a call
 * that finds the pool busy runs its work on its own thread. */
TX_API void tx_set_num_threads(int n);
/* Returns the thread count in use (after the default and the cap are applied); always >= 1. */
TX_API int tx_num_threads(void);

/* Joins the worker threads and returns the default allocator's cached blocks to the operating
 * system.  The library stays usable afterwards (the pool is re-created on demand).
 * Why: an op on large data starts worker threads (tx_set_num_threads) that then wait for work
 * until the process ends, and freed large blocks stay in the allocator's cache for reuse.
 * Neither is a leak, but both hold memory: the threads' stacks and thread-local storage, the
 * cached blocks.  A leak checker run at exit (valgrind, LeakSanitizer) therefore reports the
 * threads' memory as "possibly lost" and the cache as still reachable; after tx_shutdown() there
 * is nothing left to report.
 * When: at the end of main() (after freeing your tensors; the examples do), before unloading a
 * dlopen()ed libtensorx, or when a long-lived process wants the memory back.  Call it while no
 * other thread is inside a tensorx call.  Tensors stay valid across it. */
TX_API void tx_shutdown(void);

/* Returns the default allocator (aligned memory; large blocks are mapped with transparent huge
 * pages where the OS allows, and recently freed large blocks are kept in a bounded cache and
 * reused).  A custom allocator may hand requests it does not serve to it; such an allocator may
 * also free blocks that the default allocator made.  Never NULL; a static struct, valid for the
 * life of the program. */
TX_API const tx_allocator *tx_default_allocator(void);

/* TX_SECTION_RUNTIME_END */

/* ---- Deprecated names ------------------------------------------------------------------------ */
/* The `_ex` names of 0.2, each the function it was renamed to (see "Name suffixes" above the
 * operations): tx_cast_ex is tx_cast_in_mode, tx_depth_to_space_ex is tx_depth_to_space_in_mode,
 * tx_gather_ex, tx_gather_nd_ex, tx_one_hot_ex, tx_dynamic_stitch_ex, tx_batch_to_space_nd_ex and
 * tx_batch_to_space_ex are the `_oob` functions, and tx_unique_with_counts_ex(x, out_idx, sorted,
 * outs) is tx_unique_with_counts_in_mode with TX_UNIQUE_SORTED for a non-zero `sorted`, else
 * TX_UNIQUE_FIRST_SEEN (0.2's rule).  They are macros, so old source compiles unchanged; they go
 * in 0.4.  Define TX_NO_DEPRECATED to check that a program no longer uses them.  Since 0.3. */
#ifndef TX_NO_DEPRECATED
#define tx_cast_ex tx_cast_in_mode
#define tx_depth_to_space_ex tx_depth_to_space_in_mode
#define tx_gather_ex tx_gather_oob
#define tx_gather_nd_ex tx_gather_nd_oob
#define tx_one_hot_ex tx_one_hot_oob
#define tx_dynamic_stitch_ex tx_dynamic_stitch_oob
#define tx_batch_to_space_nd_ex tx_batch_to_space_nd_oob
#define tx_batch_to_space_ex tx_batch_to_space_oob
#define tx_unique_with_counts_ex(x, out_idx, sorted, outs)                                        \
    tx_unique_with_counts_in_mode((x), (out_idx),                                               \
                                  (sorted) ? TX_UNIQUE_SORTED : TX_UNIQUE_FIRST_SEEN, (outs))
#endif

#ifdef __cplusplus
}
#endif
#endif /* TENSORX_H */

/* The experimental API (tensorx/experimental.h): declared only when the including file defines
 * TX_EXPERIMENTAL_API, also when tensorx.h was included before without it. */
#if defined(TX_EXPERIMENTAL_API)
#include "tensorx/experimental.h"
#endif
