/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx_files.c -- tensor files and TFRecord files for the extension: loading and saving
 * through the frontend's format table (frontend/formats.h: .npy, .npz, safetensors, IDX), as ndarrays
 * over the tensors (a mapped file's tensor is a read-only array over the mapping, which the array
 * keeps alive), and the TFRecord reader type, whose records of an uncompressed file are read-only
 * memoryviews of the mapping (no copy). */
#define NO_IMPORT_ARRAY
#include "_tensorx.h"

#include "formats.h"

/* The message of a failed frontend or library call, raised as its status's exception. */
static PyObject *raise_op(tx_status st) {
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", op_error());
    return raise_status(st, msg);
}

static const file_format *format_arg(const char *name) {
    const file_format *f = ff_named(name);
    if (!f) PyErr_Format(PyExc_ValueError, "no tensor file format '%s'", name);
    return f;
}

/* file_formats(): ((name, (suffix, ...), named), ...), the table's rows. */
static PyObject *py_file_formats(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    PyObject *rows = PyList_New(0);
    for (size_t i = 0; rows && ff_at(i); i++) {
        const file_format *f = ff_at(i);
        PyObject *sfx = PyList_New(0);
        for (size_t k = 0; sfx && f->suffixes[k]; k++) {
            PyObject *s = PyUnicode_FromString(f->suffixes[k]);
            if (!s || PyList_Append(sfx, s) < 0) Py_CLEAR(sfx);
            Py_XDECREF(s);
        }
        PyObject *row = sfx ? Py_BuildValue("(sNO)", f->name, PyList_AsTuple(sfx),
                                            f->named ? Py_True : Py_False)
                            : NULL;
        Py_XDECREF(sfx);
        if (!row || PyList_Append(rows, row) < 0) Py_CLEAR(rows);
        Py_XDECREF(row);
    }
    return rows;
}

/* file_format_of(path): the name of the format whose suffix ends path (ff_of_path), or None. */
static PyObject *py_file_format_of(PyObject *self, PyObject *arg) {
    (void)self;
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(arg, &path)) return NULL;
    const file_format *f = ff_of_path(PyBytes_AS_STRING(path));
    Py_DECREF(path);
    if (!f) Py_RETURN_NONE;
    return PyUnicode_FromString(f->name);
}

/* file_load(path, format, name): the tensor `name` (None: the file's only one) as an ndarray. */
static PyObject *py_file_load(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *path = NULL;
    const char *fmt, *name;
    if (!PyArg_ParseTuple(args, "O&sz", PyUnicode_FSConverter, &path, &fmt, &name)) return NULL;
    const file_format *f = format_arg(fmt);
    tx_tensor *t = NULL;
    tx_status st = TX_OK;
    if (f) {
        Py_BEGIN_ALLOW_THREADS
        st = ff_load(f, PyBytes_AS_STRING(path), name, &t);
        Py_END_ALLOW_THREADS
    }
    Py_DECREF(path);
    if (!f) return NULL;
    if (st != TX_OK) return raise_op(st);
    return array_from_tensor(t, false, NULL);
}

/* file_names(path, format, tensors=False): the names of a named format's tensors, in the file's
 * order; with tensors, a dict of name -> ndarray instead (the file opened once). */
static PyObject *py_file_names(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *path = NULL;
    const char *fmt;
    int want = 0;
    if (!PyArg_ParseTuple(args, "O&s|p", PyUnicode_FSConverter, &path, &fmt, &want)) return NULL;
    const file_format *f = format_arg(fmt);
    char **names = NULL;
    tx_tensor **t = NULL;
    size_t n = 0;
    tx_status st = TX_OK;
    if (f) {
        Py_BEGIN_ALLOW_THREADS
        st = ff_names(f, PyBytes_AS_STRING(path), &names, &n, want ? &t : NULL);
        Py_END_ALLOW_THREADS
    }
    Py_DECREF(path);
    if (!f) return NULL;
    if (st != TX_OK) return raise_op(st);
    PyObject *out = want ? PyDict_New() : PyTuple_New((Py_ssize_t)n);
    for (size_t i = 0; i < n; i++) {
        PyObject *s = out ? PyUnicode_DecodeUTF8(names[i], (Py_ssize_t)strlen(names[i]), "replace")
                          : NULL;
        if (!s) {
            Py_CLEAR(out);
        } else if (!want) {
            PyTuple_SET_ITEM(out, (Py_ssize_t)i, s);
        } else {
            PyObject *a = array_from_tensor(t[i], false, NULL); /* takes t[i] */
            if (!a || PyDict_SetItem(out, s, a) < 0) Py_CLEAR(out);
            Py_XDECREF(a);
            Py_DECREF(s);
        }
        if (want && !s) tx_tensor_free(t[i]);
        if (want) t[i] = NULL;
    }
    free(t);
    ff_names_free(names, n);
    return out;
}

/* file_save(path, format, names, arrays): names a tuple of str (None for a one-tensor format),
 * arrays a tuple of ndarrays. */
static PyObject *py_file_save(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *path = NULL, *names, *arrays;
    const char *fmt;
    if (!PyArg_ParseTuple(args, "O&sOO!", PyUnicode_FSConverter, &path, &fmt, &names,
                          &PyTuple_Type, &arrays))
        return NULL;
    const file_format *f = format_arg(fmt);
    Py_ssize_t n = PyTuple_GET_SIZE(arrays);
    tx_tensor **t = PyMem_Calloc((size_t)n + 1, sizeof *t);
    const char **cnames = PyMem_Calloc((size_t)n + 1, sizeof *cnames);
    PyObject *result = NULL;
    if (!t || !cnames) {
        PyErr_NoMemory();
        goto done;
    }
    if (!f) goto done;
    if (names != Py_None && (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) != n)) {
        PyErr_SetString(PyExc_TypeError, "file_save: one name per array");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        what_t w = what_of("save", "arrays", i);
        bool ro;
        if (tensor_from_array(&w, PyTuple_GET_ITEM(arrays, i), &t[i], &ro, true, NULL) < 0)
            goto done;
        if (names != Py_None && !(cnames[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i))))
            goto done;
    }
    tx_status st;
    const char *p = PyBytes_AS_STRING(path);
    const char *const *nm = names == Py_None ? NULL : cnames;
    Py_BEGIN_ALLOW_THREADS
    st = ff_save(f, p, (size_t)n, nm, (const tx_tensor *const *)t);
    Py_END_ALLOW_THREADS
    if (st != TX_OK) raise_op(st);
    else result = Py_NewRef(Py_None);
done:
    for (Py_ssize_t i = 0; t && i < n; i++) tx_tensor_free(t[i]); /* may drop arrays: GIL held */
    PyMem_Free(t);
    PyMem_Free(cnames);
    Py_DECREF(path);
    return result;
}

/* ---- TFRecord files ------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    tx_tfrecord_reader *reader;
    int compression;
    bool busy; /* a call runs without the GIL: a second thread's call is refused */
} reader_object;

static int reader_init(reader_object *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"path", "compression", NULL};
    PyObject *path = NULL;
    int compression = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O&|i", kwlist, PyUnicode_FSConverter, &path,
                                     &compression))
        return -1;
    if (self->reader || self->busy) {
        Py_DECREF(path);
        PyErr_SetString(PyExc_RuntimeError, "TFRecordReader: already open");
        return -1;
    }
    tx_status st;
    char msg[1024];
    Py_BEGIN_ALLOW_THREADS
    st = tx_tfrecord_open(PyBytes_AS_STRING(path), (tx_tfrecord_compression)compression,
                          &self->reader);
    if (st != TX_OK) snprintf(msg, sizeof msg, "%s", tx_last_error());
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (st != TX_OK) {
        raise_status(st, msg);
        return -1;
    }
    self->compression = compression;
    return 0;
}

static void reader_dealloc(reader_object *self) {
    tx_tfrecord_close(self->reader);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The reader, or NULL with an exception when it is closed or in use by another thread; marks it
 * busy (reader_done clears it). */
static tx_tfrecord_reader *reader_take(reader_object *self) {
    if (!self->reader) {
        PyErr_SetString(PyExc_ValueError, "I/O operation on a closed TFRecordReader");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "TFRecordReader: used by two threads at once");
        return NULL;
    }
    self->busy = true;
    return self->reader;
}

/* A read-only memoryview of record i of string tensor t, whose capsule `owner` keeps t alive. */
static PyObject *record_view(const tx_string *s, PyObject *owner) {
    npy_intp n = (npy_intp)s->size;
    PyArray_Descr *u8 = PyArray_DescrFromType(NPY_UINT8);
    PyObject *arr = u8 ? PyArray_NewFromDescr(&PyArray_Type, u8, 1, &n, NULL, (void *)s->data,
                                              NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED, NULL)
                       : NULL;
    if (!arr) return NULL;
    if (PyArray_SetBaseObject((PyArrayObject *)arr, Py_NewRef(owner)) < 0) { /* steals */
        Py_DECREF(arr);
        return NULL;
    }
    PyObject *mv = PyMemoryView_FromObject(arr);
    Py_DECREF(arr);
    return mv;
}

static void batch_free(PyObject *cap) {
    tx_tensor_free(PyCapsule_GetPointer(cap, "tensorx.records"));
}

/* Appends the records of string tensor t (taken) to list as memoryviews of its bytes. */
static int append_views(PyObject *list, tx_tensor *t) {
    PyObject *cap = PyCapsule_New(t, "tensorx.records", batch_free);
    if (!cap) {
        tx_tensor_free(t);
        return -1;
    }
    int rc = 0;
    for (int64_t i = 0; rc == 0 && i < tx_tensor_numel(t); i++) {
        PyObject *mv = record_view(tx_tensor_string(t, i), cap);
        if (!mv || PyList_Append(list, mv) < 0) rc = -1;
        Py_XDECREF(mv);
    }
    Py_DECREF(cap);
    return rc;
}

/* tx_tfrecord_read of up to max records without the GIL; the message in msg on failure. */
static tx_status read_batch(tx_tfrecord_reader *r, Py_ssize_t max, tx_tensor **t, char *msg,
                            size_t cap) {
    tx_status st;
    Py_BEGIN_ALLOW_THREADS
    st = tx_tfrecord_read(r, max, t);
    if (st != TX_OK) snprintf(msg, cap, "%s", tx_last_error());
    Py_END_ALLOW_THREADS
    return st;
}

/* Up to max records of an uncompressed file as memoryviews of its mapping: one tensor for the
 * batch, or, when the batch fails, the records one by one up to the failing one, which the next
 * call reports (TensorFlow hands out every record before a corrupted one). */
static PyObject *read_views(tx_tfrecord_reader *r, Py_ssize_t max) {
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    char msg[1024];
    tx_tensor *t = NULL;
    tx_status st = read_batch(r, max, &t, msg, sizeof msg);
    if (st == TX_OK) {
        if (append_views(list, t) < 0) Py_CLEAR(list);
        return list;
    }
    for (Py_ssize_t k = 0; max > 1 && k < max; k++) {
        if ((st = read_batch(r, 1, &t, msg, sizeof msg)) != TX_OK) break;
        bool end = tx_tensor_numel(t) == 0;
        if (append_views(list, t) < 0) {
            Py_DECREF(list);
            return NULL;
        }
        if (end) break;
    }
    if (PyList_GET_SIZE(list) > 0) return list;
    Py_DECREF(list);
    return raise_status(st, msg);
}

/* Up to max records of a compressed file as bytes (one copy, from the reader's buffer), each
 * read by tx_tfrecord_next; the records before a failure are returned, the failure raised by the
 * next call. */
static PyObject *read_bytes(tx_tfrecord_reader *r, Py_ssize_t max) {
    PyObject *list = PyList_New(0);
    char msg[1024];
    tx_status st = TX_OK;
    while (list && PyList_GET_SIZE(list) < max) {
        tx_string rec;
        Py_BEGIN_ALLOW_THREADS
        st = tx_tfrecord_next(r, &rec, NULL);
        if (st != TX_OK) snprintf(msg, sizeof msg, "%s", tx_last_error());
        Py_END_ALLOW_THREADS
        if (st != TX_OK) break;
        PyObject *b = PyBytes_FromStringAndSize(rec.data, (Py_ssize_t)rec.size);
        if (!b || PyList_Append(list, b) < 0) Py_CLEAR(list);
        Py_XDECREF(b);
    }
    if (!list || st == TX_OK || st == TX_OUT_OF_RANGE || PyList_GET_SIZE(list) > 0) return list;
    Py_DECREF(list);
    return raise_status(st, msg);
}

/* read(max_records): a list of up to max_records records (fewer at the end, empty after it). */
static PyObject *reader_read(reader_object *self, PyObject *arg) {
    Py_ssize_t max = PyLong_AsSsize_t(arg);
    if (max == -1 && PyErr_Occurred()) return NULL;
    if (max < 1) {
        PyErr_SetString(PyExc_ValueError, "TFRecordReader.read: max_records must be at least 1");
        return NULL;
    }
    tx_tfrecord_reader *r = reader_take(self);
    if (!r) return NULL;
    PyObject *list = self->compression == TX_TFRECORD_NONE ? read_views(r, max)
                                                           : read_bytes(r, max);
    self->busy = false;
    return list;
}

/* index(): the offsets of every record, an int64 ndarray. */
static PyObject *reader_index(reader_object *self, PyObject *noargs) {
    (void)noargs;
    tx_tfrecord_reader *r = reader_take(self);
    if (!r) return NULL;
    tx_tensor *t = NULL;
    tx_status st;
    char msg[1024];
    Py_BEGIN_ALLOW_THREADS
    st = tx_tfrecord_index(r, &t);
    if (st != TX_OK) snprintf(msg, sizeof msg, "%s", tx_last_error());
    Py_END_ALLOW_THREADS
    self->busy = false;
    if (st != TX_OK) return raise_status(st, msg);
    return array_from_tensor(t, false, NULL);
}

/* seek(offset): the next read starts at the record at offset. */
static PyObject *reader_seek(reader_object *self, PyObject *arg) {
    unsigned long long off = PyLong_AsUnsignedLongLong(arg);
    if (off == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    tx_tfrecord_reader *r = reader_take(self);
    if (!r) return NULL;
    tx_status st = tx_tfrecord_seek(r, off);
    self->busy = false;
    if (st != TX_OK) return raise_status(st, tx_last_error());
    Py_RETURN_NONE;
}

static PyObject *reader_close(reader_object *self, PyObject *noargs) {
    (void)noargs;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "TFRecordReader: closed while another thread reads");
        return NULL;
    }
    tx_tfrecord_close(self->reader);
    self->reader = NULL;
    Py_RETURN_NONE;
}

static PyObject *reader_closed(reader_object *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->reader == NULL);
}

static PyMethodDef reader_methods[] = {
    {"read", (PyCFunction)reader_read, METH_O,
     "read(max_records): up to max_records records (memoryviews when uncompressed, else bytes)"},
    {"index", (PyCFunction)reader_index, METH_NOARGS, "the offset of every record (int64)"},
    {"seek", (PyCFunction)reader_seek, METH_O, "seek(offset): the next read starts there"},
    {"close", (PyCFunction)reader_close, METH_NOARGS, "closes the file (records stay valid)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef reader_getset[] = {
    {"closed", (getter)reader_closed, NULL, "whether the reader is closed", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject tfrecord_reader_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorx._tensorx._TFRecordReader",
    .tp_basicsize = sizeof(reader_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "_TFRecordReader(path, compression=0): tx_tfrecord_open's reader",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)reader_init,
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_methods = reader_methods,
    .tp_getset = reader_getset,
};

/* tfrecord_write(path, records, compression): records an ndarray of bytes (object or 'S'). */
static PyObject *py_tfrecord_write(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *path = NULL, *records;
    int compression;
    if (!PyArg_ParseTuple(args, "O&Oi", PyUnicode_FSConverter, &path, &records, &compression))
        return NULL;
    what_t w = what_of("tfrecord_write", "records", -1);
    tx_tensor *t = NULL;
    bool ro;
    if (tensor_from_array(&w, records, &t, &ro, false, NULL) < 0) {
        Py_DECREF(path);
        return NULL;
    }
    tx_status st;
    char msg[1024];
    Py_BEGIN_ALLOW_THREADS
    st = tx_tfrecord_write(PyBytes_AS_STRING(path), t, (tx_tfrecord_compression)compression);
    if (st != TX_OK) snprintf(msg, sizeof msg, "%s", tx_last_error());
    Py_END_ALLOW_THREADS
    tx_tensor_free(t);
    Py_DECREF(path);
    if (st != TX_OK) return raise_status(st, msg);
    Py_RETURN_NONE;
}

static PyMethodDef files_methods[] = {
    {"file_formats", py_file_formats, METH_NOARGS,
     "the tensor file formats: (name, suffixes, named) per row of frontend/formats.c"},
    {"file_format_of", py_file_format_of, METH_O,
     "file_format_of(path): the format the end of path's name selects, or None"},
    {"file_load", py_file_load, METH_VARARGS, "file_load(path, format, name): one tensor"},
    {"file_names", py_file_names, METH_VARARGS,
     "file_names(path, format, tensors=False): the tensors' names (or a dict of them)"},
    {"file_save", py_file_save, METH_VARARGS, "file_save(path, format, names, arrays)"},
    {"tfrecord_write", py_tfrecord_write, METH_VARARGS,
     "tfrecord_write(path, records, compression): records (an ndarray of bytes) as a TFRecord file"},
    {NULL, NULL, 0, NULL}};

PyObject *files_init(PyObject *m) {
    if (m && (PyType_Ready(&tfrecord_reader_type) < 0 ||
              PyModule_AddFunctions(m, files_methods) < 0 ||
              PyModule_AddObjectRef(m, "_TFRecordReader", (PyObject *)&tfrecord_reader_type) < 0))
        Py_CLEAR(m);
    return m;
}
