/* SPDX-License-Identifier: Apache-2.0 */
/* opreg.h -- the op spec: the table of operations of every frontend (the CLI, the conformance
 * runner, the fuzz targets, the stress test, Python).  Each op family has one file
 * frontend/ops_<family>.c that defines an array of op_def (ending with an entry whose name is
 * NULL); ops.c lists the families.  An op_def names its parameters with their kinds and defaults,
 * its outputs and its docs page, and has a run function that maps the parameters mechanically
 * onto the C API.  Only tensorx.h is used here: the frontends are the library's first users. */
#ifndef TX_FRONTEND_OPREG_H
#define TX_FRONTEND_OPREG_H

#include "tensorx.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum param_kind {
    P_TENSOR,      /* one tensor: .npy path, inline literal, @FILE (raw bytes as a string scalar) */
    P_TENSOR_LIST, /* list of tensors (concat's values, meshgrid's args, ...) */
    P_INT,         /* integer attribute */
    P_BOOL,        /* true/false */
    P_STRING,      /* text attribute ("CONSTANT", "NHWC", ...) */
    P_DTYPE,       /* dtype name */
    P_INT_LIST     /* list of integers attribute */
} param_kind;

/* def: the default as CLI text ("0", "true", "int32", "[]", "CONSTANT");
 *      PARAM_REQUIRED: the argument must be given;
 *      PARAM_OPTIONAL: may be absent, and the op sees it as absent (arg_has() is false). */
#define PARAM_REQUIRED NULL
#define PARAM_OPTIONAL ""

typedef struct op_param {
    const char *name;
    param_kind kind;
    const char *def;
    const char *help;
    /* P_TENSOR only: dtype of an empty literal "[]" (TX_INVALID_DTYPE = float32, TF's default).
     * Index inputs such as reshape's shape set TX_INT32, as TF's Python layer does. */
    tx_dtype empty_dtype;
} op_param;

#define OP_MAX_PARAMS 12

typedef struct op_value {
    bool present;
    tx_tensor *tensor;  /* P_TENSOR */
    tx_tensor **list;   /* P_TENSOR_LIST */
    size_t nlist;
    long long i;        /* P_INT */
    bool b;             /* P_BOOL */
    char *s;            /* P_STRING */
    tx_dtype dtype;     /* P_DTYPE */
    int64_t *ints;      /* P_INT_LIST */
    size_t nints;
} op_value;

typedef struct op_def op_def;
typedef struct op_args {
    const op_def *def;
    op_value v[OP_MAX_PARAMS];
} op_args;

/* The most outputs of an op that makes a fixed number of them (unique_with_counts: three). */
#define OP_MAX_OUTPUTS 4

/* The results of one call: run functions fill them with op_outputs_reserve + out[i]. */
typedef struct op_outputs {
    /* n entries: `inline_t` for up to OP_MAX_OUTPUTS, else allocated (so never copy the struct:
     * op_outputs_move) */
    tx_tensor **t;
    size_t n;
    tx_tensor *inline_t[OP_MAX_OUTPUTS]; /* no allocation for a call of a few outputs */
    tx_plan *plan; /* non-NULL: size the call (--plan, conform's plan check) instead of running it */
    tx_op **prepare; /* non-NULL: prepare the call into *prepare instead of running it */
} op_outputs;

/* The library call of a run function: run, sized into o->plan or prepared into o->prepare when
 * one is set.  Helper tensors a run function builds from attributes are made before this,
 * outside plan mode. */
#define OP_CALL(o, call)                                                                  \
    ((o)->plan ? TX_PLAN((o)->plan, (call))                                               \
               : (o)->prepare ? TX_PREPARE((o)->prepare, NULL, (call)) : (call))

typedef tx_status (*op_run_fn)(const op_args *a, op_outputs *o);

/* Where a streamed input comes from, and what the op then promises. */
typedef enum op_stream_source {
    /* input=@FILE: the file's bytes, as one string scalar.  The result is 1-D, one element of its
     * dtype for each element's size of bytes, in order. */
    OP_STREAM_RAW,
    /* input=FILE.npy: the result's rows (along axis 0) are the input's rows, made element by
     * element, or from groups of consecutive input elements that make one result element. */
    OP_STREAM_NPY
} op_stream_source;

/* An op that can run over a file larger than memory, window by window (tools/stream.c): its
 * result for the whole input is its results for consecutive windows of it, end to end.  The
 * result's shape, the windows' sizes and every error come from the op's own run function (its
 * plan, then its runs), so the hook states no rule of the op. */
typedef struct op_stream {
    const char *input; /* the parameter the file is given for */
    op_stream_source source;
    /* Whether a call with these arguments (the input itself absent) streams; NULL: always. */
    bool (*accepts)(const op_args *a);
} op_stream;

/* One row of the op spec: everything a frontend needs to know of an op.  The CLI's help, the
 * conformance runner, Python's functions and stubs (their signatures, named-tuple fields and
 * list results), FORMAT.md's operation table, README's op table, docs/index.md's family pages and
 * the man page's op list all come from these rows or are checked against them
 * (tests/repo/op_spec.c); docs/adding-an-op.md is the recipe. */
struct op_def {
    const char *name;
    const char *summary;
    op_run_fn run;
    op_param params[OP_MAX_PARAMS]; /* ends at the first entry with name NULL */
    const op_stream *stream;        /* NULL: the op runs in memory only */
    /* The outputs' names (TensorFlow's), in order, up to the first NULL; with outputs_list, the
     * one name of a list of as many outputs as the call makes (split's num_split, ...). */
    const char *outputs[OP_MAX_OUTPUTS];
    bool outputs_list;
    const char *doc; /* the op's page under docs/ ("casting.md"): arguments, errors, TF's gaps */
    /* The outputs never hold more than OP_BOUND_PER_BYTE bytes per byte of the call's tensors
     * plus OP_BOUND_SLACK, whatever its other arguments (a cast, a view, a transpose; not pad,
     * tile or one_hot, whose attributes set the size): a call on small tensors is small work,
     * which the Python binding runs without releasing the GIL.  conform checks it on each case
     * (op_outputs_bounded). */
    bool outputs_bounded;
    /* The prepared form's data inputs (tensorx/prepared.h), in the order tx_op_run takes them:
     * parameter names up to the first NULL (a P_TENSOR_LIST gives one input per tensor).  The
     * other tensor parameters are attributes, fixed at prepare time.  None: the op has no
     * prepared form and TX_PREPARE refuses it. */
    const char *data_inputs[OP_MAX_OUTPUTS];
};

/* ---- helpers for run functions (opreg.c) ---- */
/* Each accessor looks the parameter up by name; asking for a name the op_def lacks is a bug and
 * returns a zero value. */
const tx_tensor *arg_tensor(const op_args *a, const char *name);
const tx_tensor *const *arg_list(const op_args *a, const char *name, size_t *n);
long long arg_int(const op_args *a, const char *name);
bool arg_bool(const op_args *a, const char *name);
const char *arg_str(const op_args *a, const char *name);
tx_dtype arg_dtype(const op_args *a, const char *name);
const int64_t *arg_ints(const op_args *a, const char *name, size_t *n);
bool arg_has(const op_args *a, const char *name);
/* The out-of-range policy named by the string parameter `oob` (any case: error, zero, clamp,
 * wrap).  Another text fails with invalid_argument naming `op`. */
tx_status arg_oob(const char *op, const op_args *a, tx_oob_policy *oob);

/* Moves the outputs of *from to *to (which must hold none), leaving *from empty: a plain struct
 * copy would leave to->t pointing at from's in-place slots. */
void op_outputs_move(op_outputs *to, op_outputs *from);
/* Makes room for n outputs (all NULL); returns TX_RESOURCE_EXHAUSTED on failure, or when n outputs
 * would cost more than tx_max_tensor_bytes() even if each were empty. */
tx_status op_outputs_reserve(op_outputs *o, size_t n);
/* A single-output run: `return op_single(o, tx_cast(...))` style is awkward in C, so run
 * functions write `TX_CLI_ONE(o, tx_cast(x, dtype, OUT))` where OUT is the output slot. */
#define TX_CLI_ONE(o, call_with_OUT)                                                   \
    do {                                                                               \
        tx_status s_ = op_outputs_reserve((o), 1);                                     \
        if (s_ != TX_OK) return s_;                                                    \
        tx_tensor **OUT = &(o)->t[0];                                                  \
        return OP_CALL((o), (call_with_OUT));                                          \
    } while (0)

/* ---- size before run checks (conform --plan, the op fuzzer, tests/unit/test_plan.c) ---- */
#define OP_PLAN_CAP 64
#define OP_PLAN_DIMS 512 /* dims held in place; more go to dims_heap */
typedef struct op_plan_result {
    tx_status st;
    char msg[512];
    tx_plan plan;
    tx_output_info info[OP_PLAN_CAP];
    int64_t dims[OP_PLAN_DIMS];
    int64_t *dims_heap; /* the outputs' dims when they are more than OP_PLAN_DIMS */
    bool leaked;        /* an output slot was set in plan mode */
} op_plan_result;
/* Sizes the call of `a` in plan mode (through def->run with o->plan set) into r; every recorded
 * output's dims are there.  Release r with op_plan_result_clear. */
void op_plan_run(const op_def *def, const op_args *a, op_plan_result *r);
void op_plan_result_clear(op_plan_result *r);
/* Whether a plan agrees with the real run's status `st` and outputs `o`: the same status and
 * message (op_error() of the run), or the same number of outputs with the same dtype, dims, numel
 * and bytes (>= for TX_OUTPUT_UPPER_BOUND entries).  If not, says why in why[cap]. */
bool op_plan_agrees(const op_plan_result *r, tx_status st, const op_outputs *o, char *why, size_t cap);

/* ---- prepared form checks (conform --prepared, the op fuzzers, tests/unit/test_plan.c) ---- */
/* Whether the prepared form of the call of `a` agrees with the call's status `st` and outputs
 * `o` (made before, with op_error() still the call's message): the call is prepared (def->run
 * with o->prepare set) and run on its data inputs' pointers into fresh memory, on tensorx's pool
 * and on a runner of one thread, and must give the same status and message, or the same outputs
 * bit for bit.  Ops without data_inputs, string tensors and calls of more than
 * TX_OP_MAX_OUTPUTS outputs, which prepare refuses, agree trivially.  If not, says why in
 * why[cap]. */
bool op_prepared_agrees(const op_def *def, const op_args *a, tx_status st, const op_outputs *o,
                        char *why, size_t cap);
/* The elements of the call's data inputs (def->data_inputs), in tx_op_run's order, into
 * in[0..*n); false when they are more than cap. */
bool op_data_inputs(const op_def *def, const op_args *a, const void **in, size_t cap, size_t *n);

/* ---- the table ---- */
const op_def *op_find(const char *name);
/* Iteration: op_at(i) for i = 0.. until NULL. */
const op_def *op_at(size_t i);
/* The index in d->params of the parameter named by the first len bytes of name, or -1. */
int op_param_index(const op_def *d, const char *name, size_t len);

/* The bytes of the call's tensor arguments (strings' bytes included), counted until they pass
 * stop (then some value above it: a caller asking "at most stop?" pays for no more). */
uint64_t op_args_tensor_bytes(const op_args *a, uint64_t stop);
/* Whether a successful call of an op marked outputs_bounded kept within the bound; if not, says
 * why in why[cap].  True for an op not so marked. */
#define OP_BOUND_PER_BYTE 32
#define OP_BOUND_SLACK 1024
bool op_outputs_bounded(const op_args *a, const op_outputs *o, char *why, size_t cap);

void op_value_clear(op_value *v);
void op_args_clear(op_args *a);
void op_outputs_clear(op_outputs *o);

/* The message of the last tools-level error (falls back to tx_last_error()). */
const char *op_error(void);
tx_status op_fail(tx_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Statuses of the tools beside the library's TX_STATUS_LIST (TensorFlow's codes, none of which
 * fits these), X(NAME, code, name) each as there, codes from 1000 up: OP_USAGE, a command line the
 * tool cannot take (the CLI exits 2); OP_IO_ERROR, a file or stream that could not be read or
 * written (the message carries the system's reason). */
#define OP_STATUS_LIST(X)      \
    X(USAGE, 1000, "usage")    \
    X(IO_ERROR, 1001, "io_error")
#define OP__STATUS_CODE(NAME, code, name) OP_##NAME##_CODE = code,
enum op_status_code { OP_STATUS_LIST(OP__STATUS_CODE) };
#undef OP__STATUS_CODE
#define OP_USAGE ((tx_status)OP_USAGE_CODE)
#define OP_IO_ERROR ((tx_status)OP_IO_ERROR_CODE)
/* tx_status_name(s), or the name of one of the tools' own statuses. */
const char *op_status_name(tx_status s);
/* OP_IO_ERROR with "cannot read|write 'path': strerror(errnum)" ("stdin" / "stdout" for "-"). */
tx_status op_fail_io(const char *verb, const char *path, int errnum);

#endif
