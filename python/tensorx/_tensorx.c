/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx.c -- the CPython extension under the `tensorx` package: every op of the CLI's op table
 * (tools/opreg.h) called on NumPy arrays.  The Python layer (__init__.py) turns Python values into
 * the kinds of the table (ndarrays for tensors, int, bool, str, dtype names, int sequences); this
 * file turns those into op_values, runs the op's run function with the GIL released, and hands the
 * outputs back as ndarrays over the tensorx buffers.
 *
 * Memory:
 *  - An input ndarray that is C-contiguous, aligned and in host byte order is wrapped without a
 *    copy (tx_tensor_wrap); the tensor holds a reference to the array, dropped by the release
 *    callback when the last tensorx view of the memory goes (from whatever thread frees it: the
 *    callback takes the GIL).  Any other array is copied once (PyArray_FromAny) and the copy is
 *    wrapped.  String arrays ('S', object arrays of bytes/str) become string tensors whose
 *    records point at the arrays' bytes (tx_tensor_wrap_strings): the bytes are not copied.
 *  - An output is an ndarray over tx_tensor_data_const(t) whose base is a capsule owning t: no
 *    copy; freeing the array frees t.  String outputs are object arrays of bytes (a copy).
 *  - An output that shares memory with a read-only input array is read-only, and so is an output
 *    tensorx marks read-only (docs/interop.md, "Read-only tensors").
 *  - DLPack: to_dlpack exports an array as a capsule ("dltensor_versioned" by default, with
 *    DLPACK_FLAG_BITMASK_READ_ONLY for a read-only array; "dltensor" for old consumers, refused
 *    for read-only arrays) through tx_tensor_to_dlpack(_versioned); from_dlpack_capsule imports
 *    either kind through tx_tensor_from_dlpack(_versioned), as an array over the tensor.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
/* NumPy's C API without its deprecated parts: built against NumPy 2's headers, at the 2.0 level,
 * for NumPy 1.23's ABI (NPY_TARGET_VERSION), so that the extension imports under NumPy 2.x and
 * 1.23+ alike (NumPy 2's headers dispatch on the running NumPy where the two differ, e.g.
 * PyDataType_ELSIZE).  Against NumPy 1.x's headers (Debian 12's 1.24) the build gets 1.x's newest
 * level and runs on that NumPy 1.x only. */
#define NPY_TARGET_VERSION NPY_1_23_API_VERSION
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

#include "cli.h"
#include "opreg.h"
#include "values.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<dlpack/dlpack.h>)
#include "dlpack_versioned.h" /* src/io: DLManagedTensorVersioned whatever the DLPack header */
#define TXPY_DLPACK 1
#endif
#endif
#ifndef TXPY_DLPACK
#define TXPY_DLPACK 0
#endif

/* Set by _register() from __init__.py. */
static PyObject *absent;           /* the sentinel meaning "not given: the table's default" */
static PyObject *err_by_status[14]; /* exception classes indexed by tx_status (3, 8, 11, 12, 13) */
static PyObject *out_dtypes;       /* tuple indexed by tx_dtype: np.dtype for outputs, or None */
static PyObject *in_dtypes;        /* dict np.dtype -> tx_dtype code, for non-builtin dtypes */
static PyObject *dtype_codes;      /* dict tensorx dtype name -> tx_dtype code */

#if PY_VERSION_HEX >= 0x030D0000
#define TXPY_FINALIZING() Py_IsFinalizing()
#else
#define TXPY_FINALIZING() _Py_IsFinalizing()
#endif

static const char *const kind_names[] = {"tensor", "tensor_list", "int", "bool", "string", "dtype",
                                         "int_list"};

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
static what_t what_of(const char *op, const char *param, Py_ssize_t item) {
    what_t w;
    w.op = op;
    w.param = param;
    w.item = item;
    w.buf[0] = '\0';
    return w;
}

static const char *W(what_t *w) {
    if (!w->buf[0]) {
        if (!w->param) snprintf(w->buf, sizeof w->buf, "%s", w->op);
        else if (w->item < 0) snprintf(w->buf, sizeof w->buf, "%s: %s", w->op, w->param);
        else snprintf(w->buf, sizeof w->buf, "%s: %s[%zd]", w->op, w->param, w->item);
    }
    return w->buf;
}

static PyObject *raise_status(tx_status st, const char *msg) {
    PyObject *cls = NULL;
    if ((int)st >= 0 && (int)st < (int)(sizeof err_by_status / sizeof *err_by_status))
        cls = err_by_status[st];
    if (st == OP_USAGE) cls = PyExc_TypeError;
    if (st == OP_IO_ERROR) cls = PyExc_OSError;
    if (!cls) cls = err_by_status[TX_INTERNAL] ? err_by_status[TX_INTERNAL] : PyExc_RuntimeError;
    if (st == TX_RESOURCE_EXHAUSTED && strstr(msg, "the limit of")) /* as the CLI says it */
        PyErr_Format(cls, "%s (the cap: tensorx.set_max_bytes() or TENSORX_MAX_BYTES)", msg);
    else
        PyErr_SetString(cls, msg);
    return NULL;
}

/* ---- inputs -------------------------------------------------------------------------------- */

/* The release callback of a wrapped array: drops the tensor's reference to it.  tensorx calls it
 * from the thread that frees the last view, which may hold no GIL; at interpreter shutdown the
 * reference is left (the process is ending). */
static void release_array(void *data, void *ctx) {
    (void)data;
    if (!Py_IsInitialized() || TXPY_FINALIZING()) return;
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject *)ctx);
    PyGILState_Release(g);
}

/* tx_dtype of a numeric ndarray dtype, or TX_INVALID_DTYPE.  A user-defined dtype (ml_dtypes'
 * bfloat16, float8_e5m2, float8_e4m3fn, int4, uint4) is looked up in in_dtypes first, whatever its
 * kind: ml_dtypes gives float8_e5m2 the kind 'f' (size 1, no NumPy float of that size). */
static tx_dtype numeric_dtype(PyArray_Descr *d) {
    if (PyTypeNum_ISUSERDEF(d->type_num)) {
        PyObject *code = in_dtypes ? PyDict_GetItemWithError(in_dtypes, (PyObject *)d) : NULL;
        if (code) return (tx_dtype)PyLong_AsLong(code);
        PyErr_Clear();
        return TX_INVALID_DTYPE;
    }
    int n = (int)PyDataType_ELSIZE(d);
    switch (d->kind) {
    case 'b': return n == 1 ? TX_BOOL : TX_INVALID_DTYPE;
    case 'i':
        return n == 1 ? TX_INT8 : n == 2 ? TX_INT16 : n == 4 ? TX_INT32
             : n == 8 ? TX_INT64 : TX_INVALID_DTYPE;
    case 'u':
        return n == 1 ? TX_UINT8 : n == 2 ? TX_UINT16 : n == 4 ? TX_UINT32
             : n == 8 ? TX_UINT64 : TX_INVALID_DTYPE;
    case 'f':
        if (d->type_num == NPY_LONGDOUBLE) return TX_INVALID_DTYPE;
        return n == 2 ? TX_FLOAT16 : n == 4 ? TX_FLOAT32 : n == 8 ? TX_FLOAT64 : TX_INVALID_DTYPE;
    case 'c':
        if (d->type_num == NPY_CLONGDOUBLE) return TX_INVALID_DTYPE;
        return n == 8 ? TX_COMPLEX64 : n == 16 ? TX_COMPLEX128 : TX_INVALID_DTYPE;
    default: break;
    }
    if (in_dtypes) {
        PyObject *code = PyDict_GetItemWithError(in_dtypes, (PyObject *)d);
        if (code) return (tx_dtype)PyLong_AsLong(code);
        PyErr_Clear();
    }
    return TX_INVALID_DTYPE;
}

/* A string tensor over an 'S' array or an object array of bytes / str / bytes-like objects,
 * without copying the bytes (tx_tensor_wrap_strings; only the 16-byte records are made):
 *  - 'S': the records point into the array's buffer (a C-contiguous one: else into one copy), each
 *    element ending before its trailing NULs, as NumPy reads it (*padded is set when an element is
 *    shorter than the item size: NumPy padded it, or dropped its own trailing NULs); the tensor
 *    holds a reference to that array, dropped by release_array;
 *  - object: the records point at each bytes object's buffer (at each str's UTF-8 form, which the
 *    str caches; at the memory of a bytearray, mmap or other C-contiguous buffer, through a
 *    memoryview of it); the tensor holds a tuple of the elements (of those memoryviews), so
 *    replacing an element of the array later cannot free bytes a tensor still uses, and a
 *    bytearray cannot be resized nor an mmap closed while it does.  The byte range given to the
 *    library spans the elements' buffers; it is only used to check the records (no op reads
 *    between strings: the one view of string bytes, string_tensor_unpack's symbols, requires them
 *    back to back). */
static int strings_from_array(what_t *what, PyArrayObject *arr, tx_tensor **out,
                              bool *padded) {
    int type = PyArray_TYPE(arr);
    PyArrayObject *c = (PyArrayObject *)PyArray_FromAny((PyObject *)arr, NULL, 0, 0,
                                                        NPY_ARRAY_CARRAY_RO, NULL);
    if (!c) return -1;
    npy_intp n = PyArray_SIZE(c);
    int rank = PyArray_NDIM(c);
    int64_t dims[NPY_MAXDIMS];
    for (int i = 0; i < rank; i++) dims[i] = (int64_t)PyArray_DIM(c, i);
    /* each record is set below; n + 1: never a 0-byte request */
    tx_string *recs = (size_t)n < PY_SSIZE_T_MAX / sizeof *recs
                          ? PyMem_Malloc(((size_t)n + 1) * sizeof *recs) : NULL;
    PyObject *keep = NULL; /* what the tensor holds: c ('S') or a tuple of the elements */
    char *lo = NULL;
    size_t nbytes = 0;
    int rc = -1;
    if (!recs) {
        PyErr_NoMemory();
        goto done;
    }
    if (type == NPY_STRING) {
        size_t item = (size_t)PyArray_ITEMSIZE(c);
        char *base = PyArray_DATA(c);
        for (npy_intp i = 0; i < n; i++) {
            const char *p = base + (size_t)i * item;
            size_t len = item; /* NumPy's 'S' elements end before their trailing NULs */
            while (len && p[len - 1] == '\0') len--;
            if (len < item) *padded = true;
            recs[i].data = p;
            recs[i].size = len;
        }
        lo = base;
        nbytes = (size_t)n * item;
        keep = (PyObject *)c;
        Py_INCREF(keep);
    } else {
        PyObject **items = PyArray_DATA(c);
        if (!(keep = PyTuple_New(n))) goto done;
        uintptr_t first = UINTPTR_MAX, last = 0;
        for (npy_intp i = 0; i < n; i++) {
            PyObject *e = items[i];
            const char *p;
            Py_ssize_t len;
            if (e && PyBytes_Check(e)) {
                p = PyBytes_AS_STRING(e);
                len = PyBytes_GET_SIZE(e);
            } else if (e && PyUnicode_Check(e)) {
                if (!(p = PyUnicode_AsUTF8AndSize(e, &len))) goto done;
            } else if (e && PyObject_CheckBuffer(e)) {
                /* bytearray, mmap, memoryview...: their bytes in place, through a memoryview the
                 * tensor keeps, whose export stops the owner from resizing or closing them */
                PyObject *mv = PyMemoryView_FromObject(e);
                if (!mv) goto done;
                Py_buffer *view = PyMemoryView_GET_BUFFER(mv);
                if (!PyBuffer_IsContiguous(view, 'C')) {
                    /* a strided view (memoryview(b)[::2]): its bytes copied, as bytes() has them */
                    PyObject *b = PyObject_CallMethod(mv, "tobytes", NULL);
                    Py_DECREF(mv);
                    if (!b) goto done;
                    mv = b;
                    p = PyBytes_AS_STRING(b);
                    len = PyBytes_GET_SIZE(b);
                } else {
                    p = view->buf;
                    len = view->len;
                }
                PyTuple_SET_ITEM(keep, i, mv);
                e = NULL;
            } else {
                PyErr_Format(PyExc_TypeError,
                             "%s: a string tensor's elements must be bytes or str; "
                             "element %zd is %.80s",
                             W(what), (Py_ssize_t)i, e ? Py_TYPE(e)->tp_name : "NULL");
                goto done;
            }
            if (e) PyTuple_SET_ITEM(keep, i, Py_NewRef(e));
            recs[i].data = p;
            recs[i].size = (uint64_t)len;
            if (len) {
                if ((uintptr_t)p < first) first = (uintptr_t)p;
                if ((uintptr_t)p + (size_t)len > last) last = (uintptr_t)p + (size_t)len;
            }
        }
        if (last) {
            lo = (char *)first;
            nbytes = (size_t)(last - first);
        }
    }
    /* keep's reference passes to the tensor (release_array drops it), unless the wrap fails */
    tx_status st = tx_tensor_wrap_strings((size_t)rank, dims, recs, lo, nbytes, release_array,
                                          keep, out);
    if (st != TX_OK) {
        raise_status(st, tx_last_error());
        goto done;
    }
    keep = NULL;
    rc = 0;
done:
    Py_XDECREF(keep);
    PyMem_Free(recs);
    Py_DECREF(c);
    return rc;
}

/* Bool array c (C-contiguous) with its bytes read as TensorFlow reads a bool: any byte other than
 * 0 is true.  NumPy lets any byte be a bool (a uint8 array's .view(bool)); tensorx's kernels take
 * a bool as the byte 0 or 1, so a byte 2 was a third value (unique_with_counts gave 4 "unique"
 * bools of [0, 1, 2, 255]; reshape, gather, boolean_mask and cast to bool passed 2 and 255 on).
 * Returns c itself when its bytes are all 0 or 1 (no copy), else c's bytes normalised: in c when
 * c is a copy made here (c != arr), else in a new copy, so that the caller's array is never
 * written.  Takes c's reference. */
static PyArrayObject *tf_bools(PyArrayObject *arr, PyArrayObject *c) {
    const unsigned char *p = PyArray_DATA(c);
    size_t n = (size_t)PyArray_NBYTES(c);
    unsigned char bits = 0;
    for (size_t i = 0; i < n; i++) bits |= p[i]; /* vectorised; a byte > 1 sets a bit above 0 */
    if (bits <= 1) return c;
    PyArrayObject *dst = c;
    if (c == arr) {
        dst = (PyArrayObject *)PyArray_NewLikeArray(c, NPY_CORDER, NULL, 0);
        if (!dst) {
            Py_DECREF(c);
            return NULL;
        }
    }
    unsigned char *q = PyArray_DATA(dst);
    /* from c's bytes as they are now (another thread may be writing them): each 0 or 1 */
    for (size_t i = 0; i < n; i++) q[i] = p[i] != 0;
    if (dst != c) Py_DECREF(c);
    return dst;
}

/* A tensor over ndarray obj (no copy when its layout allows, else over one copy).  *readonly is
 * set when the tensor's memory is a read-only array's.  op_input: obj is an op's input, whose
 * bools are read as TensorFlow reads them (tf_bools); to_dlpack exports the bytes as they are.
 * *padded (when padded is not NULL) is set for an 'S' array with an element shorter than its
 * item size (strings_from_array). */
static int tensor_from_array(what_t *what, PyObject *obj, tx_tensor **out, bool *readonly,
                             bool op_input, bool *padded) {
    *out = NULL;
    *readonly = false;
    if (!PyArray_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a tensor (ndarray), got %.80s", W(what),
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyArrayObject *arr = (PyArrayObject *)obj;
    PyArray_Descr *d = PyArray_DESCR(arr);
    if (d->type_num == NPY_STRING || d->type_num == NPY_OBJECT) {
        bool pad = false;
        int rc = strings_from_array(what, arr, out, &pad);
        if (padded && pad) *padded = true;
        return rc;
    }
    tx_dtype dt = numeric_dtype(d);
    if (dt == TX_INVALID_DTYPE && !PyArray_ISNBO(d->byteorder)) {
        /* a non-native order of a known dtype: look the native one up */
        PyArray_Descr *nd = PyArray_DescrNewByteorder(d, NPY_NATIVE);
        if (!nd) return -1;
        dt = numeric_dtype(nd);
        Py_DECREF(nd);
    }
    if (PyErr_Occurred()) return -1;
    if (dt == TX_INVALID_DTYPE) {
        PyObject *r = PyObject_Repr((PyObject *)d);
        PyErr_Format(PyExc_TypeError, "%s: tensorx has no dtype for NumPy's %U", W(what), r);
        Py_XDECREF(r);
        return -1;
    }
    /* The same array when it is C-contiguous, aligned and native already (checked here: going
     * through PyArray_FromAny for it cost a tenth of a small op's call); else one copy. */
    PyArrayObject *c;
    if (PyArray_ISNBO(d->byteorder) && PyArray_IS_C_CONTIGUOUS(arr) && PyArray_ISALIGNED(arr)) {
        c = arr;
        Py_INCREF(c);
    } else {
        PyArray_Descr *want = d;
        if (PyArray_ISNBO(d->byteorder)) Py_INCREF(want);
        else if (!(want = PyArray_DescrNewByteorder(d, NPY_NATIVE))) return -1;
        c = (PyArrayObject *)PyArray_FromAny(obj, want, 0, 0, NPY_ARRAY_CARRAY_RO, NULL);
        if (!c) return -1;
    }
    if (op_input && dt == TX_BOOL && !(c = tf_bools(arr, c))) return -1;
    /* int4 / uint4 (ml_dtypes' or the structured form) are taken as they are, zero-copy: tensorx
     * stores a 4-bit value as TF 2.21 and ml_dtypes do, in the low 4 bits of its byte, and reads
     * only those bits. */
    int rank = PyArray_NDIM(c);
    int64_t dims[NPY_MAXDIMS];
    for (int i = 0; i < rank; i++) dims[i] = (int64_t)PyArray_DIM(c, i);
    size_t nbytes = (size_t)PyArray_NBYTES(c);
    tx_status st;
    if (nbytes == 0) {
        st = tx_tensor_new(dt, (size_t)rank, dims, out);
        Py_DECREF(c);
    } else {
        /* c's reference passes to the tensor (release_array drops it), unless the wrap fails */
        st = tx_tensor_wrap(dt, (size_t)rank, dims, PyArray_DATA(c), nbytes, release_array, c, out);
        if (st != TX_OK) Py_DECREF(c);
        else *readonly = (PyObject *)c == obj && !PyArray_ISWRITEABLE(c);
    }
    if (st != TX_OK) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s: %s", W(what), tx_last_error());
        raise_status(st, msg);
        return -1;
    }
    return 0;
}

/* ---- outputs ------------------------------------------------------------------------------- */

static void capsule_free(PyObject *cap) {
    tx_tensor_free(PyCapsule_GetPointer(cap, "tensorx.tensor"));
}

/* Set by _setup() from __init__.py. */
static PyObject *string_var;     /* the ContextVar of tx.set_string_dtype: None, dtype('O') or 'T' */
static PyObject *hint_category;  /* the warning class of the structured fallback's hint */
static uint64_t hint_dtypes;     /* bit per tx_dtype: hint once at the first such result */

/* The structured fallback's one-line hint (bfloat16, float8 and 4-bit results without
 * ml_dtypes), given once per process.  Returns -1 when the warning is raised as an error. */
static int structured_hint(tx_dtype dt) {
    if (!hint_category || (unsigned)dt >= 64 || !(hint_dtypes >> dt & 1)) return 0;
    hint_dtypes = 0;
    const char *name = tx_dtype_name(dt);
    return PyErr_WarnFormat(hint_category, 2,
                            "tensorx: %s results are structured arrays of their bits "
                            "(dtype [('%s', ...)]) because ml_dtypes is not installed: install "
                            "ml_dtypes for %s arithmetic (pip install ml_dtypes)",
                            name, name, name);
}

/* A string output's elements: bytes objects, or (sdescr a StringDType) str objects decoded from
 * UTF-8 and the array cast to sdescr.  Takes t. */
static PyObject *strings_to_array(tx_tensor *t, int rank, npy_intp *dims, PyObject *sdescr) {
    PyObject *arr = PyArray_SimpleNew(rank, dims, NPY_OBJECT);
    if (arr) {
        PyObject **items = PyArray_DATA((PyArrayObject *)arr);
        for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
            const tx_string *s = tx_tensor_string(t, i);
            PyObject *b = sdescr ? PyUnicode_DecodeUTF8(s->data, (Py_ssize_t)s->size, "strict")
                                 : PyBytes_FromStringAndSize(s->data, (Py_ssize_t)s->size);
            if (!b) {
                if (sdescr && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
                    PyErr_Clear();
                    PyErr_Format(PyExc_ValueError,
                                 "string output element %lld is not UTF-8 text, which StringDType "
                                 "holds: tx.set_string_dtype(object) gives bytes",
                                 (long long)i);
                }
                Py_CLEAR(arr);
                break;
            }
            Py_XSETREF(items[i], b);
        }
    }
    tx_tensor_free(t);
    if (arr && sdescr) {
        Py_INCREF(sdescr); /* stolen */
        Py_SETREF(arr, PyArray_CastToType((PyArrayObject *)arr, (PyArray_Descr *)sdescr, 0));
    }
    return arr;
}

/* An ndarray of tensor t, which it takes (freed here on failure too).  sdescr: the dtype of
 * string outputs (NULL: object arrays of bytes; else a StringDType). */
static PyObject *array_from_tensor(tx_tensor *t, bool readonly, PyObject *sdescr) {
    tx_dtype dt = tx_tensor_dtype(t);
    size_t rank = tx_tensor_rank(t);
    if (rank > NPY_MAXDIMS) {
        tx_tensor_free(t);
        PyErr_Format(err_by_status[TX_UNIMPLEMENTED] ? err_by_status[TX_UNIMPLEMENTED]
                                                     : PyExc_NotImplementedError,
                     "an output of rank %zu: NumPy arrays have at most %d dims", rank, NPY_MAXDIMS);
        return NULL;
    }
    npy_intp dims[NPY_MAXDIMS];
    for (size_t i = 0; i < rank; i++) dims[i] = (npy_intp)tx_tensor_dim(t, i);
    if (dt == TX_STRING) return strings_to_array(t, (int)rank, dims, sdescr);
    PyArray_Descr *descr = NULL;
    if (out_dtypes && (size_t)dt < (size_t)PyTuple_GET_SIZE(out_dtypes) &&
        PyTuple_GET_ITEM(out_dtypes, dt) != Py_None) {
        descr = (PyArray_Descr *)PyTuple_GET_ITEM(out_dtypes, dt);
        Py_INCREF(descr);
    }
    if (!descr) {
        tx_tensor_free(t);
        PyErr_Format(PyExc_NotImplementedError, "tensorx: no NumPy dtype for %s",
                     tx_dtype_name(dt));
        return NULL;
    }
    PyObject *cap = PyCapsule_New(t, "tensorx.tensor", capsule_free);
    if (!cap) {
        Py_DECREF(descr);
        tx_tensor_free(t);
        return NULL;
    }
    int flags = NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED;
    if (!readonly && tx_tensor_is_writable(t)) flags |= NPY_ARRAY_WRITEABLE;
    PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, (int)rank, dims, NULL,
                                         (void *)tx_tensor_data_const(t), flags, NULL);
    if (!arr) {
        Py_DECREF(cap); /* frees t */
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)arr, cap) < 0) { /* steals cap */
        Py_DECREF(arr);
        return NULL;
    }
    if (hint_dtypes && structured_hint(dt) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

/* ---- DLPack -------------------------------------------------------------------------------- */

#if TXPY_DLPACK
/* A capsule not consumed (still named "dltensor..."): its DLPack tensor is still the capsule's,
 * so the capsule deletes it.  A consumer renames it "used_dltensor..." and owns it. */
static void versioned_capsule_free(PyObject *cap) {
    if (!PyCapsule_IsValid(cap, "dltensor_versioned")) return;
    DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, "dltensor_versioned");
    if (m && m->deleter) m->deleter(m);
}

static void unversioned_capsule_free(PyObject *cap) {
    if (!PyCapsule_IsValid(cap, "dltensor")) return;
    DLManagedTensor *m = PyCapsule_GetPointer(cap, "dltensor");
    if (m && m->deleter) m->deleter(m);
}

/* The tensorx tensor that array arr is exactly (an op output: its base capsule's tensor, same
 * memory, dtype and shape), or NULL. */
static const tx_tensor *own_tensor(PyArrayObject *arr) {
    PyObject *base = PyArray_BASE(arr);
    if (!base || !PyCapsule_IsValid(base, "tensorx.tensor")) return NULL;
    const tx_tensor *t = PyCapsule_GetPointer(base, "tensorx.tensor");
    tx_dtype dt = tx_tensor_dtype(t);
    if (dt == TX_STRING || !out_dtypes || (size_t)dt >= (size_t)PyTuple_GET_SIZE(out_dtypes))
        return NULL;
    PyObject *want = PyTuple_GET_ITEM(out_dtypes, dt);
    if (want == Py_None || !PyArray_EquivTypes(PyArray_DESCR(arr), (PyArray_Descr *)want))
        return NULL;
    if (PyArray_DATA(arr) != tx_tensor_data_const(t) || !PyArray_IS_C_CONTIGUOUS(arr) ||
        (size_t)PyArray_NDIM(arr) != tx_tensor_rank(t))
        return NULL;
    for (size_t i = 0; i < tx_tensor_rank(t); i++)
        if ((int64_t)PyArray_DIM(arr, (int)i) != tx_tensor_dim(t, i)) return NULL;
    return t;
}

static PyObject *dlpack_error(tx_status st, const char *msg) {
    if (st == TX_RESOURCE_EXHAUSTED) return raise_status(st, msg);
    PyErr_SetString(PyExc_BufferError, msg); /* what DLPack consumers expect for "cannot" */
    return NULL;
}

/* to_dlpack(array, versioned, copy): a DLPack capsule of the array's memory.  An op output is
 * exported from its own tensor: the capsule's deleter then only releases tensorx memory and takes
 * no GIL.  Any other array is wrapped first (as an op input is: no copy when C-contiguous,
 * aligned and native), so the deleter drops the array's reference, taking the GIL
 * (release_array).  copy: None (copy only if the layout needs it), True (always), False (never:
 * BufferError when it would be needed). */
static PyObject *py_to_dlpack(PyObject *self, PyObject *args) {
    (void)self;
    PyArrayObject *arr;
    int versioned;
    PyObject *copy_obj;
    if (!PyArg_ParseTuple(args, "O!pO", &PyArray_Type, &arr, &versioned, &copy_obj)) return NULL;
    int copy = copy_obj == Py_None ? -1 : PyObject_IsTrue(copy_obj);
    if (copy == -1 && PyErr_Occurred()) return NULL;
    bool ro = !PyArray_ISWRITEABLE(arr), copied = false;
    tx_tensor *mine = NULL; /* a tensor made here, freed before returning */
    const tx_tensor *src = own_tensor(arr);
    tx_status st;
    PyObject *result = NULL;
    if (!src) {
        bool dummy;
        what_t w = what_of("to_dlpack", NULL, -1);
        if (tensor_from_array(&w, (PyObject *)arr, &mine, &dummy, false, NULL) < 0) return NULL;
        src = mine;
        copied = PyArray_NBYTES(arr) != 0 && tx_tensor_data_const(mine) != PyArray_DATA(arr);
        if (copied && copy == 0) {
            PyErr_SetString(PyExc_BufferError, "to_dlpack: the array's layout (strided, "
                            "misaligned or byte-swapped) needs a copy and copy=False was given");
            goto done;
        }
    }
    if (copy == 1 && !copied) {
        tx_tensor *c = NULL;
        st = tx_tensor_copy(src, &c);
        if (st != TX_OK) {
            raise_status(st, tx_last_error());
            goto done;
        }
        tx_tensor_free(mine);
        src = mine = c;
        copied = true;
    }
    if (copied) ro = false; /* the consumer's own memory */
    if (versioned) {
        DLManagedTensorVersioned *m = NULL;
        st = tx_tensor_to_dlpack_versioned(src, &m);
        if (st != TX_OK) {
            dlpack_error(st, tx_last_error());
            goto done;
        }
        if (ro) m->flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
        if (copied) m->flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
        result = PyCapsule_New(m, "dltensor_versioned", versioned_capsule_free);
        if (!result) m->deleter(m);
    } else {
        if (ro) {
            PyErr_SetString(PyExc_BufferError,
                            "to_dlpack: the array is read-only and an unversioned DLPack tensor "
                            "cannot say so: ask for DLPack >= 1.0 (max_version=(1, 0)) or a copy "
                            "(copy=True)");
            goto done;
        }
        DLManagedTensor *m = NULL;
        st = tx_tensor_to_dlpack(src, &m);
        if (st != TX_OK) {
            dlpack_error(st, tx_last_error());
            goto done;
        }
        result = PyCapsule_New(m, "dltensor", unversioned_capsule_free);
        if (!result) m->deleter(m);
    }
done:
    tx_tensor_free(mine); /* the export holds its own reference to the memory */
    return result;
}

/* from_dlpack_capsule(capsule): an array over the tensor tensorx imports from a "dltensor" or
 * "dltensor_versioned" capsule (no copy when row-major and aligned), read-only when the versioned
 * producer says so.  The capsule is renamed "used_..." once tensorx owns the DLPack tensor; on
 * failure it keeps it (its destructor deletes it). */
static PyObject *py_from_dlpack_capsule(PyObject *self, PyObject *cap) {
    (void)self;
    tx_tensor *t = NULL;
    tx_status st;
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        st = tx_tensor_from_dlpack_versioned(PyCapsule_GetPointer(cap, "dltensor_versioned"), &t);
        if (st == TX_OK && PyCapsule_SetName(cap, "used_dltensor_versioned") < 0) return NULL;
    } else if (PyCapsule_IsValid(cap, "dltensor")) {
        st = tx_tensor_from_dlpack(PyCapsule_GetPointer(cap, "dltensor"), &t);
        if (st == TX_OK && PyCapsule_SetName(cap, "used_dltensor") < 0) return NULL;
    } else {
        PyErr_SetString(PyExc_TypeError, "from_dlpack: not an unused DLPack capsule");
        return NULL;
    }
    if (st != TX_OK) return raise_status(st, tx_last_error());
    return array_from_tensor(t, false, NULL); /* read-only when t is */
}
#else
static PyObject *no_dlpack(void) {
    return raise_status(TX_UNIMPLEMENTED,
                        "tensorx's Python extension was built without <dlpack/dlpack.h>");
}
static PyObject *py_to_dlpack(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return no_dlpack();
}
static PyObject *py_from_dlpack_capsule(PyObject *self, PyObject *cap) {
    (void)self;
    (void)cap;
    return no_dlpack();
}
#endif

/* ---- arguments ----------------------------------------------------------------------------- */

#define MAX_RO 64
typedef struct {
    const tx_tensor *ro[MAX_RO]; /* inputs over read-only arrays */
    size_t nro;
    bool ro_overflow;
    bool padded;       /* an 'S' input with elements shorter than its item size */
    PyObject *vstring; /* the dtype of a StringDType input (a reference), or NULL */
} inputs_info;

static void note_input(inputs_info *ii, const tx_tensor *t, bool readonly) {
    if (!readonly) return;
    if (ii->nro < MAX_RO) ii->ro[ii->nro++] = t;
    else ii->ro_overflow = true;
}

/* A tuple of the items of list argument v (a tuple v is itself), holding a reference to each.
 * Converting an item can run Python code -- an item's __index__, a finaliser, another thread while
 * NumPy copies an array without the GIL -- that shrinks or clears a list v; reading v's items
 * again after that read freed memory (issue 34), so the items are read from the snapshot. */
static PyObject *snapshot(what_t *what, PyObject *v, const char *rule) {
    if (PyTuple_Check(v)) return Py_NewRef(v);
    if (PyList_Check(v)) return PyList_AsTuple(v); /* runs no Python code */
    PyObject *t = PySequence_Tuple(v); /* any other iterable, as PySequence_Fast took */
    if (!t && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be %s, got %.80s", W(what), rule,
                     Py_TYPE(v)->tp_name);
    }
    return t;
}

/* op_value *ov of parameter p from v, a value of the parameter's kind (after the conversions). */
static int fill_converted(what_t *what, const op_param *p, PyObject *v, op_value *ov,
                          inputs_info *ii) {
    bool ro;
    switch (p->kind) {
    case P_TENSOR:
        if (tensor_from_array(what, v, &ov->tensor, &ro, true, &ii->padded) < 0) return -1;
        note_input(ii, ov->tensor, ro);
        break;
    case P_TENSOR_LIST: {
        PyObject *seq = snapshot(what, v, "a list of tensors");
        if (!seq) return -1;
        Py_ssize_t n = PyTuple_GET_SIZE(seq);
        ov->list = calloc((size_t)n + 1, sizeof *ov->list);
        if (!ov->list) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t k = 0; k < n; k++) {
            what_t w2 = what_of(what->op, what->param, k);
            if (tensor_from_array(&w2, PyTuple_GET_ITEM(seq, k), &ov->list[k], &ro, true,
                                  &ii->padded) < 0) {
                Py_DECREF(seq);
                return -1;
            }
            ov->nlist++;
            note_input(ii, ov->list[k], ro);
        }
        Py_DECREF(seq);
        break;
    }
    case P_INT: {
        if (!PyIndex_Check(v)) {
            PyErr_Format(PyExc_TypeError, "%s must be an integer, got %.80s", W(what),
                         Py_TYPE(v)->tp_name);
            return -1;
        }
        PyObject *i = PyNumber_Index(v);
        if (!i) return -1;
        int overflow = 0;
        ov->i = PyLong_AsLongLongAndOverflow(i, &overflow);
        Py_DECREF(i);
        if (overflow) {
            PyErr_Format(PyExc_ValueError, "%s does not fit in 64 bits", W(what));
            return -1;
        }
        if (ov->i == -1 && PyErr_Occurred()) return -1;
        break;
    }
    case P_BOOL:
        if (PyBool_Check(v) || PyArray_IsScalar(v, Bool)) {
            ov->b = PyObject_IsTrue(v) == 1;
        } else {
            PyErr_Format(PyExc_TypeError, "%s must be a bool, got %.80s", W(what),
                         Py_TYPE(v)->tp_name);
            return -1;
        }
        break;
    case P_DTYPE:
        if (dtype_codes && PyUnicode_CheckExact(v)) { /* tensorx's own names: no parse */
            PyObject *code = PyDict_GetItemWithError(dtype_codes, v);
            if (code) {
                ov->dtype = (tx_dtype)PyLong_AsLong(code);
                break;
            }
            if (PyErr_Occurred()) return -1;
        }
        /* fall through -- aliases and errors are the op table's */
    case P_STRING: {
        const char *s;
        Py_ssize_t len;
        if (PyUnicode_Check(v)) {
            s = PyUnicode_AsUTF8AndSize(v, &len);
            if (!s) return -1;
        } else if (PyBytes_Check(v)) {
            s = PyBytes_AS_STRING(v);
            len = PyBytes_GET_SIZE(v);
        } else {
            PyErr_Format(PyExc_TypeError, "%s must be a %s, got %.80s", W(what),
                         p->kind == P_DTYPE ? "dtype" : "str", Py_TYPE(v)->tp_name);
            return -1;
        }
        if (strlen(s) != (size_t)len) {
            PyErr_Format(PyExc_ValueError, "%s must not contain NUL characters", W(what));
            return -1;
        }
        tx_status st = op_parse_value(p, s, ov);
        if (st != TX_OK) {
            char msg[700];
            snprintf(msg, sizeof msg, "%s", op_error());
            raise_status(st, msg);
            return -1;
        }
        return 0;
    }
    case P_INT_LIST: {
        PyObject *seq = snapshot(what, v, "a sequence of integers");
        if (!seq) return -1;
        Py_ssize_t n = PyTuple_GET_SIZE(seq);
        ov->ints = calloc((size_t)n + 1, sizeof *ov->ints);
        if (!ov->ints) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *e = PyTuple_GET_ITEM(seq, k);
            PyObject *i = PyIndex_Check(e) ? PyNumber_Index(e) : NULL;
            if (!i) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_TypeError, "%s must hold integers, item %zd is %.80s",
                                 W(what), k, Py_TYPE(e)->tp_name);
                Py_DECREF(seq);
                return -1;
            }
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(i, &overflow);
            Py_DECREF(i);
            if (overflow) {
                PyErr_Format(PyExc_ValueError, "%s: item %zd does not fit in 64 bits", W(what), k);
                Py_DECREF(seq);
                return -1;
            }
            ov->ints[ov->nints++] = (int64_t)x;
        }
        Py_DECREF(seq);
        break;
    }
    }
    ov->present = true;
    return 0;
}

/* Python's conversions for values that are not yet of their parameter's kind, set by _register():
 * _tensor(v, empty_dtype), _tensor_list(v), _attr_text(v), dtype_name(v), _int_list(v).  The common
 * cases (an ndarray, a flat list of ints for a tensor; str for a string or a dtype; a list or tuple
 * for an int list) are taken here without calling them: each Python call cost about 0.1-0.2 us,
 * and NumPy's conversion of a list of ints about 2.5 us. */
static PyObject *conv_tensor, *conv_tensor_list, *conv_string, *conv_dtype, *conv_int_list;

static bool plain_array(PyObject *v) {
    if (!PyArray_CheckExact(v)) return false;
    int type = PyArray_TYPE((PyArrayObject *)v);
    return type != NPY_UNICODE && type != NPY_VSTRING;
}

/* Notes a StringDType array among the inputs (v, or an item of list v): string outputs are then
 * StringDType arrays of its dtype, as NumPy's string functions give (string_out_descr). */
static void note_vstring(inputs_info *ii, PyObject *v) {
    if (ii->vstring) return;
    if (PyArray_Check(v)) {
        if (PyArray_TYPE((PyArrayObject *)v) == NPY_VSTRING)
            ii->vstring = Py_NewRef((PyObject *)PyArray_DESCR((PyArrayObject *)v));
        return;
    }
    if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) return;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    PyObject **items = PySequence_Fast_ITEMS(v);
    for (Py_ssize_t k = 0; k < n; k++) /* runs no Python code: the items stay */
        if (PyArray_Check(items[k]) && PyArray_TYPE((PyArrayObject *)items[k]) == NPY_VSTRING) {
            ii->vstring = Py_NewRef((PyObject *)PyArray_DESCR((PyArrayObject *)items[k]));
            return;
        }
}

/* A 1-D tensor of a flat list or tuple of Python ints, with TensorFlow's conversion (int32, or
 * int64 when a value needs it), as _tensor gives.  Returns 1 (done), 0 (not such a list: the
 * Python conversion decides, which also takes [] and values past 64 bits) or -1 (error).  v's
 * items are read in place: for exact ints nothing here runs Python code that could change v. */
static int int_list_tensor(PyObject *v, tx_tensor **out) {
    if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    if (n == 0 || n > 64) return 0;
    PyObject **items = PySequence_Fast_ITEMS(v);
    int64_t vals[64];
    bool wide = false;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!PyLong_CheckExact(items[k])) return 0;
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(items[k], &overflow);
        if (overflow) return 0;
        if (x == -1 && PyErr_Occurred()) return -1;
        vals[k] = (int64_t)x;
        if (x < INT32_MIN || x > INT32_MAX) wide = true;
    }
    int64_t dims[1] = {(int64_t)n};
    tx_status st = tx_tensor_new(wide ? TX_INT64 : TX_INT32, 1, dims, out);
    if (st != TX_OK) {
        raise_status(st, tx_last_error());
        return -1;
    }
    void *data = tx_tensor_data(*out);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (wide) ((int64_t *)data)[k] = vals[k];
        else ((int32_t *)data)[k] = (int32_t)vals[k];
    }
    return 1;
}

static bool plain_list_of_arrays(PyObject *v) {
    if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) return false;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    PyObject **items = PySequence_Fast_ITEMS(v);
    for (Py_ssize_t k = 0; k < n; k++)
        if (!plain_array(items[k])) return false;
    return true;
}

/* An error a Python converter raised for argument `what` (a TypeError, ValueError or
 * InvalidArgumentError, e.g. "element 1 is None: ...") gains the argument's name, as the
 * extension's own messages have it ("cast: x: element 1 is None: ...").  Returns -1. */
static int name_the_argument(what_t *what) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (type != PyExc_TypeError && type != PyExc_ValueError &&
        !(type && type == err_by_status[TX_INVALID_ARGUMENT])) {
        PyErr_Restore(type, value, tb);
        return -1;
    }
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *msg = value ? PyObject_Str(value) : NULL;
    if (!msg) {
        PyErr_Restore(type, value, tb);
        return -1;
    }
    PyErr_Format(type, "%s: %U", W(what), msg);
    Py_DECREF(msg);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return -1;
}

/* Whether v is dtype text taken here without dtype_name: one of tensorx's own names (the common
 * case: no Python call), or text fill_converted refuses itself (NUL inside).  Other text -- the
 * table's aliases ("half", "tf.float32"), NumPy's spellings ("f4", "<i2", "int"), misspellings --
 * goes to dtype_name, which refuses the spellings NumPy reads otherwise than the table ("i8"),
 * reads NumPy's and suggests a name for the rest. */
static bool table_dtype_text(PyObject *v) {
    if (!PyUnicode_Check(v) && !PyBytes_Check(v)) return false;
    if (!conv_dtype) return true;
    if (dtype_codes && PyUnicode_CheckExact(v)) {
        PyObject *code = PyDict_GetItemWithError(dtype_codes, v);
        if (code) return true;
        if (PyErr_Occurred()) PyErr_Clear();
    }
    const char *s;
    Py_ssize_t len;
    if (PyBytes_Check(v)) {
        s = PyBytes_AS_STRING(v);
        len = PyBytes_GET_SIZE(v);
    } else if (!(s = PyUnicode_AsUTF8AndSize(v, &len))) {
        PyErr_Clear(); /* fill_converted raises it */
        return true;
    }
    return strlen(s) != (size_t)len;
}

static int fill_value(const op_def *def, const op_param *p, PyObject *v, op_value *ov,
                      inputs_info *ii) {
    what_t what = what_of(def->name, p->name, -1);
    if (v == absent) return 0;
    if (v == Py_None) {
        if (p->def && p->def[0] == '\0') return 0; /* PARAM_OPTIONAL: absent */
        PyErr_Format(PyExc_TypeError, "%s must not be None", W(&what));
        return -1;
    }
    PyObject *conv = NULL, *c = NULL;
    switch (p->kind) {
    case P_TENSOR: {
        if (plain_array(v)) break;
        int r = int_list_tensor(v, &ov->tensor);
        if (r < 0) return -1;
        if (r > 0) {
            ov->present = true;
            return 0;
        }
        if (!conv_tensor) break;
        note_vstring(ii, v);
        const char *empty =
            p->empty_dtype == TX_INVALID_DTYPE ? "float32" : tx_dtype_name(p->empty_dtype);
        c = PyObject_CallFunction(conv_tensor, "Os", v, empty);
        if (!c) return name_the_argument(&what);
        break;
    }
    case P_TENSOR_LIST:
        if (plain_list_of_arrays(v)) break;
        note_vstring(ii, v);
        conv = conv_tensor_list;
        break;
    case P_STRING: conv = PyUnicode_Check(v) || PyBytes_Check(v) ? NULL : conv_string; break;
    case P_DTYPE: conv = table_dtype_text(v) ? NULL : conv_dtype; break;
    case P_INT_LIST:
        conv = PyList_CheckExact(v) || PyTuple_CheckExact(v) ? NULL : conv_int_list;
        break;
    default: break;
    }
    if (conv && !(c = PyObject_CallOneArg(conv, v))) return name_the_argument(&what);
    int rc = fill_converted(&what, p, c ? c : v, ov, ii);
    Py_XDECREF(c);
    return rc;
}

/* ---- run ----------------------------------------------------------------------------------- */

/* Empties the op table's message (op_error() prefers it to tx_last_error()) when a failure left
 * one, without formatting anything when none is there: op_fail's vsnprintf on every call was a
 * tenth of a small op's time.  op_error() returns tx_last_error() exactly when it is empty. */
static void clear_op_message(void) {
    if (op_error() != tx_last_error()) op_fail(TX_OK, "%s", "");
}

/* The op table as the extension uses it, made once at import: each op with its parameter count
 * and its parameters' defaults parsed from the table's text.  A parameter left at its default
 * borrows the parsed value (parsing it again on each call -- a strdup for a string -- was a tenth of
 * a small op's time); tensors never have table defaults, so only plain values are borrowed. */
typedef struct op_entry {
    const op_def *def;
    size_t nparams;
    op_value defaults[OP_MAX_PARAMS]; /* present: a parsed default to borrow */
} op_entry;

_Static_assert(OP_MAX_PARAMS <= 32, "run() keeps a bit per parameter in an unsigned");

static op_entry *entries;
static size_t n_entries;

static int entries_init(void) {
    size_t n = 0;
    while (op_at(n)) n++;
    entries = PyMem_Calloc(n ? n : 1, sizeof *entries);
    if (!entries) {
        PyErr_NoMemory();
        return -1;
    }
    n_entries = n;
    for (size_t i = 0; i < n; i++) {
        op_entry *e = &entries[i];
        e->def = op_at(i);
        while (e->nparams < OP_MAX_PARAMS && e->def->params[e->nparams].name) e->nparams++;
        for (size_t k = 0; k < e->nparams; k++) {
            const op_param *p = &e->def->params[k];
            /* required or optional-absent: nothing to borrow; a default that does not parse is
             * left to op_args_finish, which reports it */
            if (!p->def || !p->def[0] || p->kind == P_TENSOR || p->kind == P_TENSOR_LIST)
                continue;
            if (op_parse_value(p, p->def, &e->defaults[k]) != TX_OK) op_value_clear(&e->defaults[k]);
        }
    }
    clear_op_message();
    return 0;
}

/* dtype_codes: every dtype's tensorx name (tx_dtype_name) to its code. */
static int dtype_codes_init(void) {
    PyObject *d = PyDict_New();
    if (!d) return -1;
    for (int code = 0; code < 64; code++) {
        if (tx_dtype_from_name(tx_dtype_name((tx_dtype)code)) != (tx_dtype)code) continue;
        PyObject *v = PyLong_FromLong(code);
        int rc = v ? PyDict_SetItemString(d, tx_dtype_name((tx_dtype)code), v) : -1;
        Py_XDECREF(v);
        if (rc < 0) {
            Py_DECREF(d);
            return -1;
        }
    }
    tx_clear_error();
    dtype_codes = d;
    return 0;
}

static const op_entry *op_by_index(PyObject *idx) {
    Py_ssize_t i = PyLong_AsSsize_t(idx);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || (size_t)i >= n_entries) {
        PyErr_Format(PyExc_IndexError, "no op %zd", i);
        return NULL;
    }
    return &entries[i];
}

static PyObject *plan_result(const tx_plan *plan) {
    PyObject *list = PyList_New((Py_ssize_t)plan->count);
    if (!list) return NULL;
    for (size_t i = 0; i < plan->count; i++) {
        const tx_output_info *in = &plan->outputs[i];
        PyObject *shape = PyTuple_New((Py_ssize_t)in->rank);
        if (!shape) {
            Py_DECREF(list);
            return NULL;
        }
        for (size_t k = 0; k < in->rank; k++)
            PyTuple_SET_ITEM(shape, (Py_ssize_t)k, PyLong_FromLongLong(in->dims[k]));
        PyObject *e = Py_BuildValue("(sNnnI)", tx_dtype_name(in->dtype), shape,
                                    (Py_ssize_t)in->nbytes, (Py_ssize_t)in->string_bytes,
                                    in->flags);
        if (!e) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, e);
    }
    return list;
}

/* The dtype of the call's string outputs, in *descr (a new reference, or NULL for object arrays
 * of bytes): tx.set_string_dtype's setting in the caller's context when it is one (object: bytes;
 * a StringDType: that dtype), else a StringDType input's dtype, as NumPy's string functions keep
 * their input's, else NULL. */
static int string_out_descr(const inputs_info *ii, PyObject **descr) {
    *descr = NULL;
    PyObject *v = NULL;
    if (string_var && PyContextVar_Get(string_var, Py_None, &v) < 0) return -1;
    if (v && v != Py_None && PyArray_DescrCheck(v)) {
        if (((PyArray_Descr *)v)->type_num == NPY_VSTRING) *descr = Py_NewRef(v);
        Py_DECREF(v);
        return 0;
    }
    Py_XDECREF(v);
    if (ii->vstring) *descr = Py_NewRef(ii->vstring);
    return 0;
}

/* run(index, values, mode): values holds one entry per parameter of the op, in table order;
 * mode 0 (or absent): a tuple of the outputs; 1: the plan; 2: the one output itself (an
 * InternalError when the op gave another number).  METH_FASTCALL: no argument tuple to parse. */
static PyObject *py_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs < 2 || nargs > 3 || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "run(op_index, values: tuple, mode=0)");
        return NULL;
    }
    PyObject *values = args[1];
    long mode = 0;
    if (nargs == 3) {
        mode = PyLong_AsLong(args[2]);
        if (mode == -1 && PyErr_Occurred()) return NULL;
    }
    int plan_mode = mode == 1;
    const op_entry *entry = op_by_index(args[0]);
    if (!entry) return NULL;
    const op_def *def = entry->def;
    size_t np = entry->nparams;
    if ((size_t)PyTuple_GET_SIZE(values) != np) {
        PyErr_Format(PyExc_TypeError, "%s takes %zu values", def->name, np);
        return NULL;
    }
    /* only what this call uses is cleared: zeroing the whole of op_args and inputs_info (1.5 KiB)
     * was a third of run's own time on a 16-element cast */
    op_args a;
    a.def = def;
    memset(a.v, 0, np * sizeof a.v[0]);
    inputs_info ii;
    ii.nro = 0;
    ii.ro_overflow = false;
    ii.padded = false;
    ii.vstring = NULL;
    PyObject *sdescr = NULL; /* string outputs' dtype (string_out_descr), looked up once */
    bool sdescr_known = false;
    op_outputs o = {0};
    tx_output_info *info = NULL;
    int64_t *plan_dims = NULL;
    tx_plan plan;
    PyObject *result = NULL;
    unsigned borrowed = 0; /* bit i: a.v[i] is entry->defaults[i], not ours to free */
    for (size_t i = 0; i < np; i++)
        if (fill_value(def, &def->params[i], PyTuple_GET_ITEM(values, (Py_ssize_t)i), &a.v[i],
                       &ii) < 0)
            goto done;
    for (size_t i = 0; i < np; i++)
        if (!a.v[i].present && entry->defaults[i].present) {
            a.v[i] = entry->defaults[i];
            borrowed |= 1u << i;
        }
    clear_op_message();
    tx_status st = op_args_finish(&a);
    if (st != TX_OK) {
        raise_status(st, op_error());
        goto done;
    }
    size_t cap = plan_mode ? OP_PLAN_CAP : 0, dims_cap = plan_mode ? OP_PLAN_DIMS : 0;
    char msg[2048];
    for (;;) {
        if (plan_mode) {
            PyMem_Free(info);
            PyMem_Free(plan_dims);
            info = PyMem_Calloc(cap, sizeof *info);
            plan_dims = PyMem_Calloc(dims_cap ? dims_cap : 1, sizeof *plan_dims);
            if (!info || !plan_dims) {
                PyErr_NoMemory();
                goto done;
            }
            plan = (tx_plan)TX_PLAN_INIT(info, cap, plan_dims, dims_cap);
            o.plan = &plan;
        }
        /* The op runs without the GIL: it touches only tensorx tensors, whose memory the arrays
         * hold (the arrays live: `values` holds them, and each wrapped tensor holds its own). */
        Py_BEGIN_ALLOW_THREADS
        clear_op_message();
        tx_clear_error();
        st = def->run(&a, &o);
        if (st != TX_OK) {
            snprintf(msg, sizeof msg, "%s", op_error());
            clear_op_message();
        }
        Py_END_ALLOW_THREADS
        if (st != TX_OK || !plan_mode || (plan.count <= cap && plan.dims_count <= dims_cap)) break;
        cap = plan.count > cap ? plan.count : cap;
        dims_cap = plan.dims_count > dims_cap ? plan.dims_count : dims_cap;
        op_outputs_clear(&o);
    }
    if (st != TX_OK) {
        if (st == TX_INVALID_ARGUMENT && ii.padded && strstr(msg, "DecodeRaw")) {
            /* the bytes a user sees in an 'S' array are not all it held */
            size_t len = strlen(msg);
            snprintf(msg + len, sizeof msg - len, "%s",
                     " (the input is a NumPy 'S' array: NumPy pads its elements with NUL bytes "
                     "and strips trailing NULs when it reads them, so an element that ends in "
                     "NUL bytes is shorter here; pass bytes objects (a list, or an object array) "
                     "to keep every byte)");
        }
        raise_status(st, msg);
        goto done;
    }
    if (plan_mode) {
        result = plan_result(&plan);
        goto done;
    }
    if (mode == 2 && o.n != 1) {
        PyErr_Format(err_by_status[TX_INTERNAL] ? err_by_status[TX_INTERNAL] : PyExc_RuntimeError,
                     "%s: %zu outputs where one was expected", def->name, o.n);
        goto done;
    }
    result = mode == 2 ? NULL : PyTuple_New((Py_ssize_t)o.n);
    if (mode != 2 && !result) goto done;
    for (size_t i = 0; i < o.n; i++) {
        tx_tensor *t = o.t[i];
        o.t[i] = NULL;
        bool ro = ii.ro_overflow && ii.nro;
        for (size_t k = 0; k < ii.nro && !ro; k++) ro = tx_tensor_shares_buffer(t, ii.ro[k]) != 0;
        if (!sdescr_known && tx_tensor_dtype(t) == TX_STRING) {
            if (string_out_descr(&ii, &sdescr) < 0) {
                tx_tensor_free(t);
                Py_CLEAR(result);
                goto done;
            }
            sdescr_known = true;
        }
        PyObject *arr = array_from_tensor(t, ro, sdescr);
        if (!arr) {
            Py_CLEAR(result);
            goto done;
        }
        if (mode == 2) result = arr;
        else PyTuple_SET_ITEM(result, (Py_ssize_t)i, arr);
    }
done:
    PyMem_Free(info);
    PyMem_Free(plan_dims);
    op_outputs_clear(&o);
    /* may drop array references (release_array): the GIL is held.  Only the op's own parameters
     * were filled (fill_value, op_args_finish), so only they are cleared. */
    for (size_t i = 0; i < np; i++) {
        if (borrowed >> i & 1) memset(&a.v[i], 0, sizeof a.v[i]);
        op_value_clear(&a.v[i]);
    }
    Py_XDECREF(sdescr);
    Py_XDECREF(ii.vstring);
    return result;
}

/* ops(): ((name, summary, ((param, kind, default, help, empty_dtype), ...)), ...); default is None
 * for a required parameter, "" for one that may be absent, else the table's CLI text. */
static PyObject *py_ops(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (size_t i = 0; op_at(i); i++) {
        const op_def *d = op_at(i);
        PyObject *params = PyList_New(0);
        if (!params) goto fail;
        for (size_t k = 0; k < OP_MAX_PARAMS && d->params[k].name; k++) {
            const op_param *p = &d->params[k];
            PyObject *def = p->def ? PyUnicode_FromString(p->def) : Py_NewRef(Py_None);
            PyObject *e = def ? Py_BuildValue("(ssNss)", p->name, kind_names[p->kind], def,
                                              p->help ? p->help : "",
                                              p->empty_dtype == TX_INVALID_DTYPE
                                                  ? "float32"
                                                  : tx_dtype_name(p->empty_dtype))
                              : NULL;
            if (!e || PyList_Append(params, e) < 0) {
                Py_XDECREF(e);
                Py_DECREF(params);
                goto fail;
            }
            Py_DECREF(e);
        }
        PyObject *e = Py_BuildValue("(ssN)", d->name, d->summary ? d->summary : "", params);
        if (!e || PyList_Append(list, e) < 0) {
            Py_XDECREF(e);
            goto fail;
        }
        Py_DECREF(e);
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

static PyObject *py_register(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sentinel, *errors, *outs, *ins, *convs = NULL;
    if (!PyArg_ParseTuple(args, "OO!O!O!|O!", &sentinel, &PyDict_Type, &errors, &PyList_Type,
                          &outs, &PyDict_Type, &ins, &PyTuple_Type, &convs))
        return NULL;
    if (convs) {
        PyObject **slots[] = {&conv_tensor, &conv_tensor_list, &conv_string, &conv_dtype,
                              &conv_int_list};
        if (PyTuple_GET_SIZE(convs) != 5) {
            PyErr_SetString(PyExc_ValueError, "five converters");
            return NULL;
        }
        for (int k = 0; k < 5; k++) Py_XSETREF(*slots[k], Py_NewRef(PyTuple_GET_ITEM(convs, k)));
    }
    /* copies: the extension reads them without the checks a change by Python code would need,
     * and a status key's __index__ could change the dict while it is walked (see snapshot) */
    PyObject *outs_copy = PyList_AsTuple(outs), *ins_copy = PyDict_Copy(ins);
    PyObject *pairs = PyDict_Items(errors);
    if (!outs_copy || !ins_copy || !pairs) goto fail;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(pairs); i++) {
        PyObject *kv = PyList_GET_ITEM(pairs, i); /* a (status, class) tuple: holds both */
        long s = PyLong_AsLong(PyTuple_GET_ITEM(kv, 0));
        if (s < 0 || s >= (long)(sizeof err_by_status / sizeof *err_by_status)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_register: bad status");
            goto fail;
        }
        Py_XSETREF(err_by_status[s], Py_NewRef(PyTuple_GET_ITEM(kv, 1)));
    }
    Py_DECREF(pairs);
    Py_XSETREF(absent, Py_NewRef(sentinel));
    Py_XSETREF(out_dtypes, outs_copy);
    Py_XSETREF(in_dtypes, ins_copy);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(outs_copy);
    Py_XDECREF(ins_copy);
    Py_XDECREF(pairs);
    return NULL;
}

static PyObject *py_dtype_name(PyObject *self, PyObject *arg) {
    (void)self;
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(tx_dtype_name((tx_dtype)code));
}

static PyObject *py_dtype_code(PyObject *self, PyObject *arg) {
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    return PyLong_FromLong((long)tx_dtype_from_name(name));
}

/* _from_text(dtype, shape, values): a new array of dtype parsed from text by the CLI's number
 * parser (tv_set_number: integers, decimals, nan/inf, true/false; a complex value is a pair) --
 * for tests that build tensors exactly as `tensorx conform` does. */
static PyObject *py_from_text(PyObject *self, PyObject *args) {
    (void)self;
    const char *dname;
    PyObject *shape, *vals;
    if (!PyArg_ParseTuple(args, "sOO", &dname, &shape, &vals)) return NULL;
    tx_dtype dt = tx_dtype_from_name(dname);
    if (dt == TX_INVALID_DTYPE || dt == TX_STRING) {
        PyErr_Format(PyExc_ValueError, "_from_text: dtype '%s'", dname);
        return NULL;
    }
    /* snapshots: a dim's __index__ or a pair's __len__ may change a list (see snapshot) */
    what_t ws = what_of("_from_text", "shape", -1), wv = what_of("_from_text", "values", -1);
    PyObject *ss = snapshot(&ws, shape, "a sequence of integers"), *vs = NULL, *pair = NULL;
    tx_tensor *t = NULL;
    PyObject *result = NULL;
    if (!ss || !(vs = snapshot(&wv, vals, "a sequence of values"))) goto done;
    Py_ssize_t rank = PyTuple_GET_SIZE(ss);
    int64_t dims[NPY_MAXDIMS];
    if (rank > NPY_MAXDIMS) {
        PyErr_SetString(PyExc_ValueError, "rank");
        goto done;
    }
    for (Py_ssize_t i = 0; i < rank; i++) {
        dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(ss, i));
        if (dims[i] == -1 && PyErr_Occurred()) goto done;
    }
    tx_status st = tx_tensor_new(dt, (size_t)rank, dims, &t);
    if (st != TX_OK) {
        raise_status(st, tx_last_error());
        goto done;
    }
    if (PyTuple_GET_SIZE(vs) != tx_tensor_numel(t)) {
        PyErr_SetString(PyExc_ValueError, "shape and value count differ");
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(vs); i++) {
        PyObject *e = PyTuple_GET_ITEM(vs, i);
        const char *re = NULL, *im = NULL;
        if (PyTuple_Check(e) || PyList_Check(e)) {
            Py_XSETREF(pair, snapshot(&wv, e, "a pair"));
            if (!pair) goto done;
            if (PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_ValueError, "_from_text: values: a complex value is a pair");
                goto done;
            }
            re = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 0));
            im = re ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 1)) : NULL;
        } else {
            re = PyUnicode_AsUTF8(e);
        }
        if (!re || (PyErr_Occurred())) goto done;
        st = tv_set_number(t, i, re, im);
        if (st != TX_OK) {
            raise_status(st, op_error());
            goto done;
        }
    }
    result = array_from_tensor(t, false, NULL);
    t = NULL;
done:
    tx_tensor_free(t);
    Py_XDECREF(ss);
    Py_XDECREF(vs);
    Py_XDECREF(pair);
    return result;
}

/* decode_raw_file(path, offset, length, dtype_code, little_endian): `length` bytes of the file at
 * `offset`, memory-mapped as a string scalar (tx_file_map_string) and decoded by tx_decode_raw
 * with the GIL released -- the CLI's streaming path for one window, for tensorx.dask's
 * from_raw_files.  A 1-d array of length / the dtype's size elements. */
static PyObject *py_decode_raw_file(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *path_obj = NULL;
    unsigned long long offset, length;
    int code, little_endian;
    if (!PyArg_ParseTuple(args, "O&KKip", PyUnicode_FSConverter, &path_obj, &offset, &length,
                          &code, &little_endian))
        return NULL;
    tx_tensor *bytes = NULL, *out = NULL;
    tx_status st;
    char msg[512];
    Py_BEGIN_ALLOW_THREADS
    tx_clear_error();
    st = tx_file_map_string(PyBytes_AS_STRING(path_obj), offset, length, &bytes);
    if (st == TX_OK) st = tx_decode_raw(bytes, (tx_dtype)code, little_endian, NULL, &out);
    if (st != TX_OK) snprintf(msg, sizeof msg, "decode_raw_file: %s", tx_last_error());
    tx_tensor_free(bytes);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_obj);
    if (st != TX_OK) return raise_status(st, msg);
    return array_from_tensor(out, false, NULL);
}

/* ---- the tensor cap ------------------------------------------------------------------------- */

/* set_max_bytes(n): tx_set_max_tensor_bytes(n) (0: the library's own limit, SIZE_MAX / 2).
 * Returns the limit in force before. */
static PyObject *py_set_max_bytes(PyObject *self, PyObject *arg) {
    (void)self;
    size_t n = PyLong_AsSize_t(arg);
    if (n == (size_t)-1 && PyErr_Occurred()) return NULL;
    size_t before = tx_max_tensor_bytes();
    tx_set_max_tensor_bytes(n);
    return PyLong_FromSize_t(before);
}

static PyObject *py_max_bytes(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    return PyLong_FromSize_t(tx_max_tensor_bytes());
}

/* parse_size(text, source): the CLI's byte count (cli_parse_size: digits, optionally K, M, G or
 * T, powers of 1024), or ValueError with the CLI's message naming source. */
static PyObject *py_parse_size(PyObject *self, PyObject *args) {
    (void)self;
    const char *text, *source;
    if (!PyArg_ParseTuple(args, "ss", &text, &source)) return NULL;
    size_t n;
    if (!cli_parse_size(text, &n)) {
        PyErr_Format(PyExc_ValueError, "%s: '%s' is not a byte count (e.g. 1073741824, 64M, 2G)",
                     source, text);
        return NULL;
    }
    return PyLong_FromSize_t(n);
}

/* default_max_bytes(): the CLI's default cap, half of physical memory (0 when the system does
 * not say: the library's own limit). */
static PyObject *py_default_max_bytes(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return PyLong_FromLong(0);
    uint64_t half = (uint64_t)pages / 2 * (uint64_t)page;
    return PyLong_FromUnsignedLongLong(half > SIZE_MAX ? 0 : half);
}

/* _setup(string_var, hint_category, hint_codes): the ContextVar of tx.set_string_dtype, and the
 * warning class and dtype codes of the structured fallback's hint (an empty tuple: no hint, as
 * where ml_dtypes is installed). */
static PyObject *py_setup(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *var, *category, *codes;
    if (!PyArg_ParseTuple(args, "OOO!", &var, &category, &PyTuple_Type, &codes)) return NULL;
    if (!PyContextVar_CheckExact(var)) {
        PyErr_SetString(PyExc_TypeError, "_setup: a ContextVar");
        return NULL;
    }
    uint64_t mask = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(codes); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(codes, i));
        if (c < 0 || c >= 64) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_setup: a dtype code");
            return NULL;
        }
        mask |= (uint64_t)1 << c;
    }
    Py_XSETREF(string_var, Py_NewRef(var));
    Py_XSETREF(hint_category, Py_NewRef(category));
    hint_dtypes = mask;
    Py_RETURN_NONE;
}

static PyObject *py_version(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(tx_version_string());
}

static PyMethodDef methods[] = {
    {"run", (PyCFunction)(void (*)(void))py_run, METH_FASTCALL,
     "run(op_index, values, mode=0): run one op of the table (mode 1: plan, 2: its one output)"},
    {"ops", py_ops, METH_NOARGS, "the op table"},
    {"_register", py_register, METH_VARARGS, "set the sentinel, exceptions and dtype tables"},
    {"dtype_name", py_dtype_name, METH_O, "tensorx's name of a dtype code"},
    {"dtype_code", py_dtype_code, METH_O, "the dtype code of a name (0 if unknown)"},
    {"_from_text", py_from_text, METH_VARARGS, "an array parsed by the CLI's number parser"},
    {"decode_raw_file", py_decode_raw_file, METH_VARARGS,
     "decode_raw_file(path, offset, length, dtype_code, little_endian): a mapped window decoded"},
    {"version", py_version, METH_NOARGS, "the library's version"},
    {"set_max_bytes", py_set_max_bytes, METH_O,
     "set_max_bytes(n): the largest tensor tensorx makes (0: the library's limit); the one before"},
    {"max_bytes", py_max_bytes, METH_NOARGS, "the largest tensor tensorx makes"},
    {"parse_size", py_parse_size, METH_VARARGS, "parse_size(text, source): the CLI's byte count"},
    {"default_max_bytes", py_default_max_bytes, METH_NOARGS, "the CLI's default cap"},
    {"_setup", py_setup, METH_VARARGS, "the string-dtype setting and the structured hint"},
    {"to_dlpack", py_to_dlpack, METH_VARARGS,
     "to_dlpack(array, versioned, copy): a DLPack capsule of the array"},
    {"from_dlpack_capsule", py_from_dlpack_capsule, METH_O,
     "an array over the tensor tensorx imports from a DLPack capsule"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tensorx",
                                    "tensorx's C extension (use the tensorx package)", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__tensorx(void) {
    import_array();
    if (!entries && entries_init() < 0) return NULL;
    if (!dtype_codes && dtype_codes_init() < 0) return NULL;
    return PyModule_Create(&module);
}
