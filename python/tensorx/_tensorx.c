/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx.c -- the CPython extension under the `tensorx` package: every op of the op spec
 * (frontend/opreg.h) called on NumPy arrays.  The Python layer (__init__.py) turns Python values
 * into the kinds of the table (ndarrays for tensors, int, bool, str, dtype names, int sequences); this
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
#include "_tensorx.h"

/* Set by _register() from __init__.py. */
PyObject *absent;           /* the sentinel meaning "not given: the table's default" */
PyObject *err_by_status[TXPY_STATUS_END]; /* exception classes indexed by tx_status */
PyObject *out_dtypes;       /* tuple indexed by tx_dtype: np.dtype for outputs, or None */
PyObject *in_dtypes;        /* dict np.dtype -> tx_dtype code, for non-builtin dtypes */
PyObject *dtype_codes;      /* dict tensorx dtype name -> tx_dtype code */

static const char *const kind_names[] = {"tensor", "tensor_list", "int", "bool", "string", "dtype",
                                         "int_list"};

/* ---- errors -------------------------------------------------------------------------------- */

PyObject *raise_status(tx_status st, const char *msg) {
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

/* ---- run ----------------------------------------------------------------------------------- */

/* Empties the op table's message (op_error() prefers it to tx_last_error()) when a failure left
 * one, without formatting anything when none is there: op_fail's vsnprintf on every call was a
 * tenth of a small op's time.  op_error() returns tx_last_error() exactly when it is empty. */
static void clear_op_message(void) {
    if (op_error() != tx_last_error()) op_fail(TX_OK, "%s", "");
}

/* The op table (op_entry, _tensorx.h), made once at import. */
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

const op_entry *op_by_index(PyObject *idx) {
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
int string_out_descr(const inputs_info *ii, PyObject **descr) {
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

/* Runs one op of the table on values[0..nparams): one entry per parameter, in table order, the
 * sentinel `absent` for one not given.  mode 0: a tuple of the outputs; 1: the plan; 2: the one
 * output itself (an InternalError when the op gave another number). */
PyObject *run_values(const op_entry *entry, PyObject *const *values, long mode) {
    int plan_mode = mode == 1;
    const op_def *def = entry->def;
    size_t np = entry->nparams;
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
        if (fill_value(def, &def->params[i], values[i], &a.v[i], &ii) < 0) goto done;
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
         * hold (the arrays live: `values` holds them, and each wrapped tensor holds its own).
         * Except small work, where letting the GIL go and taking it back would cost more than
         * the op (NumPy keeps it for small arrays too). */
        PyThreadState *ts = small_work(&a) ? NULL : PyEval_SaveThread();
        clear_op_message();
        tx_clear_error();
        st = def->run(&a, &o);
        if (st != TX_OK) {
            snprintf(msg, sizeof msg, "%s", op_error());
            clear_op_message();
        }
        if (ts) PyEval_RestoreThread(ts);
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

/* run(index, values, mode): run_values with the values in a tuple.  METH_FASTCALL: no argument
 * tuple to parse. */
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
    const op_entry *entry = op_by_index(args[0]);
    if (!entry) return NULL;
    if ((size_t)PyTuple_GET_SIZE(values) != entry->nparams) {
        PyErr_Format(PyExc_TypeError, "%s takes %zu values", entry->def->name, entry->nparams);
        return NULL;
    }
    return run_values(entry, &PyTuple_GET_ITEM(values, 0), mode);
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

/* outputs(): ((name, (output, ...), is_list), ...) in ops()'s order: the spec's output names, and
 * whether the one name stands for a list of as many outputs as the call makes. */
static PyObject *py_outputs(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && op_at(i); i++) {
        const op_def *d = op_at(i);
        size_t n = 0;
        while (n < OP_MAX_OUTPUTS && d->outputs[n]) n++;
        PyObject *names = PyTuple_New((Py_ssize_t)n);
        for (size_t k = 0; names && k < n; k++) {
            PyObject *s = PyUnicode_FromString(d->outputs[k]);
            if (!s) Py_CLEAR(names);
            else PyTuple_SET_ITEM(names, (Py_ssize_t)k, s);
        }
        PyObject *is_list = d->outputs_list ? Py_True : Py_False;
        PyObject *e = names ? Py_BuildValue("(sNO)", d->name, names, is_list) : NULL;
        if (!e || PyList_Append(list, e) < 0) Py_CLEAR(list);
        Py_XDECREF(e);
    }
    return list;
}

/* The exception class of each error status of TX_STATUS_LIST, from `errors` (status name ->
 * class): each of the list's errors needs one, and a name the list lacks is refused. */
static int register_errors(PyObject *errors) {
    PyObject *by_code[TXPY_STATUS_END] = {NULL};
    Py_ssize_t given = 0;
#define TAKE(NAME, code, name)                                                      \
    if (TX_##NAME != TX_OK) {                                                       \
        by_code[code] = PyDict_GetItemString(errors, name); /* borrowed */         \
        if (!by_code[code]) {                                                       \
            PyErr_SetString(PyExc_ValueError, "_register: no exception for " name); \
            return -1;                                                              \
        }                                                                           \
        given++;                                                                    \
    }
    TX_STATUS_LIST(TAKE)
#undef TAKE
    if (PyDict_GET_SIZE(errors) != given) {
        PyErr_SetString(PyExc_ValueError, "_register: a status tensorx does not have");
        return -1;
    }
    for (size_t s = 0; s < TXPY_STATUS_END; s++)
        if (by_code[s]) Py_XSETREF(err_by_status[s], Py_NewRef(by_code[s]));
    return 0;
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
    /* copies: the extension reads them without the checks a change by Python code would need */
    PyObject *outs_copy = PyList_AsTuple(outs), *ins_copy = PyDict_Copy(ins);
    if (!outs_copy || !ins_copy || register_errors(errors) < 0) goto fail;
    Py_XSETREF(absent, Py_NewRef(sentinel));
    Py_XSETREF(out_dtypes, outs_copy);
    Py_XSETREF(in_dtypes, ins_copy);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(outs_copy);
    Py_XDECREF(ins_copy);
    return NULL;
}

static PyObject *py_dtype_name(PyObject *self, PyObject *arg) {
    (void)self;
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(tx_dtype_name((tx_dtype)code));
}

/* The dtype table (src/core/dtypes.def, through tx_dtype_info_of): one dict per dtype, in code
 * order, with the columns the package maps to NumPy and other systems. */
static PyObject *dtype_row(const tx_dtype_info *d) {
    static const char *const kinds[] = {"bool", "signed", "unsigned", "float", "complex",
                                        "quantized", "string"};
    return Py_BuildValue("{s:i,s:s,s:n,s:s,s:z,s:z,s:i,s:L,s:K,s:d,s:d,s:i,s:i,s:i,s:i,s:i}", "code",
                         (int)d->id, "name", d->name, "size", (Py_ssize_t)d->size, "kind",
                         kinds[d->kind], "npy_descr", d->npy_descr, "numpy_name", d->numpy_name,
                         "storage", (int)d->storage, "min", (long long)d->min, "max",
                         (unsigned long long)d->max, "max_finite", d->max_finite, "min_finite", d->min_finite,
                         "dlpack_code",
                         (int)d->dlpack_code, "dlpack_bits", (int)d->dlpack_bits, "tf_datatype",
                         d->tf_datatype, "onnx_datatype", d->onnx_datatype, "value_bits",
                         (int)d->value_bits);
}

static PyObject *py_dtype_table(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    PyObject *rows = PyList_New(0);
    for (int code = 0; rows && code < 256; code++) {
        const tx_dtype_info *d = tx_dtype_info_of((tx_dtype)code);
        if (d == NULL) continue;
        PyObject *row = dtype_row(d);
        if (row == NULL || PyList_Append(rows, row) < 0) Py_CLEAR(rows);
        Py_XDECREF(row);
    }
    if (rows == NULL) return NULL;
    PyObject *t = PyList_AsTuple(rows);
    Py_DECREF(rows);
    return t;
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

/* parse_size(text, source): the CLI's byte count (op_parse_size: digits, optionally K, M, G or
 * T, powers of 1024), or ValueError with the CLI's message naming source. */
static PyObject *py_parse_size(PyObject *self, PyObject *args) {
    (void)self;
    const char *text, *source;
    if (!PyArg_ParseTuple(args, "ss", &text, &source)) return NULL;
    size_t n;
    if (!op_parse_size(text, &n)) {
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
    unsigned char want[HINT_CODES] = {0};
    bool any = false;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(codes); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(codes, i));
        if (c < 0 || c >= HINT_CODES) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_setup: a dtype code");
            return NULL;
        }
        want[c] = 1;
        any = true;
    }
    Py_XSETREF(string_var, Py_NewRef(var));
    Py_XSETREF(hint_category, Py_NewRef(category));
    memcpy(hint_dtypes, want, sizeof want);
    hint_pending = any;
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
    {"op_function", py_op_function, METH_VARARGS,
     "op_function(op_index, names, npos, func): the op's function, bound in C"},
    {"ops", py_ops, METH_NOARGS, "the op table"},
    {"outputs", py_outputs, METH_NOARGS, "the op spec's outputs: (name, names, is_list) per op"},
    {"prepare", py_prepare, METH_VARARGS, "prepare(op_index, values, multi, result_type)"},
    {"_prepared_types", py_prepared_types, METH_O, "_prepared_types(TensorSpec): PreparedOp"},
    {"_register", py_register, METH_VARARGS, "set the sentinel, exceptions and dtype tables"},
    {"dtype_name", py_dtype_name, METH_O, "tensorx's name of a dtype code"},
    {"dtype_code", py_dtype_code, METH_O, "the dtype code of a name (0 if unknown)"},
    {"dtype_table", py_dtype_table, METH_NOARGS, "the dtype table: one dict of facts per dtype"},
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
    if (op_functions_init() < 0) return NULL;
    return files_init(PyModule_Create(&module)); /* with _tensorx_files.c's functions */
}
