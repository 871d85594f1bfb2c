/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx.h -- what the files of the extension tensorx._tensorx share: Python's and NumPy's
 * headers with the extension's API level, the module's state, argument names for messages, and
 * the functions one file calls in another.  The files: _tensorx.c (the module: run, the op
 * table, the tensor cap), _tensorx_arrays.c (ndarrays <-> tensors), _tensorx_args.c (Python
 * values -> op_values), _tensorx_dlpack.c (DLPack capsules), _tensorx_files.c (tensor files and
 * TFRecord files), _tensorx_prepared.c (PreparedOp), _tensorx_functions.c (the op functions). */
#ifndef TENSORX_PY_TENSORX_H
#define TENSORX_PY_TENSORX_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
/* NumPy's C API without its deprecated parts: built against NumPy 2's headers, at the 2.0 level,
 * for NumPy 1.23's ABI (NPY_TARGET_VERSION), so that the extension imports under NumPy 2.x and
 * 1.23+ alike (NumPy 2's headers dispatch on the running NumPy where the two differ, e.g.
 * PyDataType_ELSIZE).  Against NumPy 1.x's headers (Debian 12's 1.24) the build gets 1.x's newest
 * level and runs on that NumPy 1.x only. */
#define NPY_TARGET_VERSION NPY_1_23_API_VERSION
/* One NumPy API table for all the files: _tensorx.c imports it, the others define
 * NO_IMPORT_ARRAY before including this header. */
#define PY_ARRAY_UNIQUE_SYMBOL tensorx_ARRAY_API
#include <numpy/numpyconfig.h>
#ifdef NPY_2_0_API_VERSION
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#else
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#endif
#include <numpy/arrayobject.h>
#ifndef NPY_2_0_API_VERSION /* NumPy 1.x's headers: the field itself (NumPy 2's: a function) */
#define PyDataType_ELSIZE(descr) ((descr)->elsize)
#endif
#ifndef NPY_VSTRING /* NumPy 2's StringDType ('T'), unknown to NumPy 1.x's headers */
#define NPY_VSTRING 2056
#endif

#define TX_EXPERIMENTAL_API /* the dtype table, tx_dtype_info_of (tensorx.h) */
#include "args.h"
#include "opreg.h"
#include "values.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if PY_VERSION_HEX >= 0x030D0000
#define TXPY_FINALIZING() Py_IsFinalizing()
#else
#define TXPY_FINALIZING() _Py_IsFinalizing()
#endif

/* One past the largest code of TX_STATUS_LIST: the length of err_by_status. */
#define TXPY_STATUS_END 16
#define TXPY_STATUS_FITS(NAME, code, name) \
    _Static_assert(code < TXPY_STATUS_END, "err_by_status has no room for TX_" #NAME);
TX_STATUS_LIST(TXPY_STATUS_FITS)
#undef TXPY_STATUS_FITS

/* Set by _register() from __init__.py (_tensorx.c). */
extern PyObject *absent;           /* the sentinel meaning "not given: the table's default" */
extern PyObject *err_by_status[TXPY_STATUS_END]; /* exception classes indexed by tx_status */
extern PyObject *out_dtypes;       /* tuple indexed by tx_dtype: np.dtype for outputs, or None */
extern PyObject *in_dtypes;        /* dict np.dtype -> tx_dtype code, for non-builtin dtypes */
extern PyObject *dtype_codes;      /* dict tensorx dtype name -> tx_dtype code */
/* Set by _setup() from __init__.py (_tensorx_arrays.c). */
extern PyObject *string_var;    /* the ContextVar of tx.set_string_dtype */
extern PyObject *hint_category; /* the warning class of the structured fallback's hint */
#define HINT_CODES 256          /* tx_dtype values are below this */
extern unsigned char hint_dtypes[HINT_CODES]; /* per tx_dtype: hint at the first such result */
extern bool hint_pending;        /* the hint has not been given (it is given once) */
/* Python's conversions set by _register() (_tensorx_args.c). */
extern PyObject *conv_tensor, *conv_tensor_list, *conv_string, *conv_dtype, *conv_int_list;

/* ---- errors -------------------------------------------------------------------------------- */

/* The name of an argument in error messages ("reshape: shape", "concat: values[2]"), formatted
 * only when a message needs it: formatting it on every call was a tenth of a small op's time. */
typedef struct what_t {
    const char *op, *param; /* param NULL: op alone */
    Py_ssize_t item;        /* >= 0: an element of a tensor list */
    char buf[200];
} what_t;

/* A what_t whose name is not formatted yet: only buf[0] is set (initialising the whole buffer
 * with "" zeroed 200 bytes per parameter per call). */
static inline what_t what_of(const char *op, const char *param, Py_ssize_t item) {
    what_t w;
    w.op = op;
    w.param = param;
    w.item = item;
    w.buf[0] = '\0';
    return w;
}

static inline const char *W(what_t *w) {
    if (!w->buf[0]) {
        if (!w->param) snprintf(w->buf, sizeof w->buf, "%s", w->op);
        else if (w->item < 0) snprintf(w->buf, sizeof w->buf, "%s: %s", w->op, w->param);
        else snprintf(w->buf, sizeof w->buf, "%s: %s[%zd]", w->op, w->param, w->item);
    }
    return w->buf;
}

#define MAX_RO 64
typedef struct {
    const tx_tensor *ro[MAX_RO]; /* inputs over read-only arrays */
    size_t nro;
    bool ro_overflow;
    bool padded;       /* an 'S' input with elements shorter than its item size */
    PyObject *vstring; /* the dtype of a StringDType input (a reference), or NULL */
} inputs_info;

/* The op table as the extension uses it, made once at import: each op with its parameter count
 * and its parameters' defaults parsed from the table's text.  A parameter left at its default
 * borrows the parsed value (parsing it again on each call -- a strdup for a string -- was a tenth of
 * a small op's time); tensors never have table defaults, so only plain values are borrowed. */
typedef struct op_entry {
    const op_def *def;
    size_t nparams;
    op_value defaults[OP_MAX_PARAMS]; /* present: a parsed default to borrow */
} op_entry;

/* _tensorx.c */
PyObject *raise_status(tx_status st, const char *msg);
const op_entry *op_by_index(PyObject *idx);
PyObject *run_values(const op_entry *entry, PyObject *const *values, long mode);
/* _tensorx_functions.c */
int op_functions_init(void);
PyObject *py_op_function(PyObject *self, PyObject *args);
int string_out_descr(const inputs_info *ii, PyObject **descr);
/* _tensorx_arrays.c */
void release_array(void *data, void *ctx);
int tensor_from_array(what_t *what, PyObject *obj, tx_tensor **out, bool *readonly,
                      bool op_input, bool *padded);
PyObject *array_from_tensor(tx_tensor *t, bool readonly, PyObject *sdescr);
/* _tensorx_args.c */
PyObject *snapshot(what_t *what, PyObject *v, const char *rule);
int fill_value(const op_def *def, const op_param *p, PyObject *v, op_value *ov,
               inputs_info *ii);
bool small_work(const op_args *a);
/* _tensorx_dlpack.c */
PyObject *py_to_dlpack(PyObject *self, PyObject *args);
PyObject *py_from_dlpack_capsule(PyObject *self, PyObject *cap);
/* _tensorx_files.c: adds its functions and the TFRecord reader type to module m (which it
 * takes); m, or NULL on failure (m NULL too) */
PyObject *files_init(PyObject *m);
/* _tensorx_prepared.c */
PyObject *py_prepare(PyObject *self, PyObject *args);
PyObject *py_prepared_types(PyObject *self, PyObject *spec);

#endif
