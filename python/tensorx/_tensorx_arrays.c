/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx_arrays.c -- ndarrays <-> tensors for the extension (memory rules: _tensorx.c): an
 * input array wrapped or copied once, TensorFlow's bools, string arrays over their bytes; an
 * output as an ndarray over the tensor's buffer, string outputs as bytes or str. */
#define NO_IMPORT_ARRAY
#include "_tensorx.h"

/* ---- inputs -------------------------------------------------------------------------------- */

/* The release callback of a wrapped array: drops the tensor's reference to it.  tensorx calls it
 * from the thread that frees the last view, which may hold no GIL; at interpreter shutdown the
 * reference is left (the process is ending). */
void release_array(void *data, void *ctx) {
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
int tensor_from_array(what_t *what, PyObject *obj, tx_tensor **out, bool *readonly,
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
PyObject *string_var;      /* the ContextVar of tx.set_string_dtype: None, dtype('O') or 'T' */
PyObject *hint_category;   /* the warning class of the structured fallback's hint */
unsigned char hint_dtypes[HINT_CODES]; /* per tx_dtype: hint at the first such result */
bool hint_pending;         /* the hint has not been given (it is given once) */

/* The structured fallback's one-line hint (bfloat16, float8 and 4-bit results without
 * ml_dtypes), given once per process.  Returns -1 when the warning is raised as an error. */
static int structured_hint(tx_dtype dt) {
    if (!hint_category || !hint_pending || (unsigned)dt >= HINT_CODES || !hint_dtypes[dt]) return 0;
    hint_pending = false;
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
PyObject *array_from_tensor(tx_tensor *t, bool readonly, PyObject *sdescr) {
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
    if (hint_pending && structured_hint(dt) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}
