/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx_args.c -- the extension's Python values -> op_values: each parameter's value, of the
 * kind the op table gives it, read without a Python call in the common cases. */
#define NO_IMPORT_ARRAY
#include "_tensorx.h"

/* ---- arguments ----------------------------------------------------------------------------- */

static void note_input(inputs_info *ii, const tx_tensor *t, bool readonly) {
    if (!readonly) return;
    if (ii->nro < MAX_RO) ii->ro[ii->nro++] = t;
    else ii->ro_overflow = true;
}

/* A tuple of the items of list argument v (a tuple v is itself), holding a reference to each.
 * Converting an item can run Python code -- an item's __index__, a finaliser, another thread while
 * NumPy copies an array without the GIL -- that shrinks or clears a list v; reading v's items
 * again after that read freed memory, so the items are read from the snapshot. */
PyObject *snapshot(what_t *what, PyObject *v, const char *rule) {
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
PyObject *conv_tensor, *conv_tensor_list, *conv_string, *conv_dtype, *conv_int_list;

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

int fill_value(const op_def *def, const op_param *p, PyObject *v, op_value *ov,
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

/* Whether the call is small work: an op whose outputs are bounded by its tensors (the op table's
 * outputs_bounded), on at most SMALL_WORK_BYTES of them. */
#define SMALL_WORK_BYTES 4096
bool small_work(const op_args *a) {
    return a->def->outputs_bounded && op_args_tensor_bytes(a, SMALL_WORK_BYTES) <= SMALL_WORK_BYTES;
}
