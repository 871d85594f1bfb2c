/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx_dlpack.c -- the extension's DLPack capsules: to_dlpack and from_dlpack_capsule
 * (versioned and unversioned; a build without the DLPack header refuses both). */
#define NO_IMPORT_ARRAY
#include "_tensorx.h"

#if defined(__has_include)
#if __has_include(<dlpack/dlpack.h>)
#include "tensorx_dlpack.h" /* DLManagedTensorVersioned whatever the DLPack header */
#define TXPY_DLPACK 1
#endif
#endif
#ifndef TXPY_DLPACK
#define TXPY_DLPACK 0
#endif

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

/* to_dlpack(array, versioned, copy): a DLPack capsule of the array's memory (of a packed copy for
 * a sub-byte dtype in the unversioned form).  An op output is
 * exported from its own tensor: the capsule's deleter then only releases tensorx memory and takes
 * no GIL.  Any other array is wrapped first (as an op input is: no copy when C-contiguous,
 * aligned and native), so the deleter drops the array's reference, taking the GIL
 * (release_array).  copy: None (copy only if the layout needs it), True (always), False (never:
 * BufferError when it would be needed). */
PyObject *py_to_dlpack(PyObject *self, PyObject *args) {
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
    /* A sub-byte dtype leaves the unversioned struct as a packed copy (tx_tensor_to_dlpack). */
    bool packed = !versioned && tx_dtype_info_of(tx_tensor_dtype(src))->value_bits < 8;
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
        if (ro && !packed) {
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
PyObject *py_from_dlpack_capsule(PyObject *self, PyObject *cap) {
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
PyObject *py_to_dlpack(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return no_dlpack();
}
PyObject *py_from_dlpack_capsule(PyObject *self, PyObject *cap) {
    (void)self;
    (void)cap;
    return no_dlpack();
}
#endif
