/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx_prepared.c -- tensorx.PreparedOp: an op call prepared once (TX_PREPARE, through the op
 * spec's run function in prepare mode) and run many times on NumPy arrays (tx_op_run).
 *
 * prepare(op_index, values, multi, result_type) takes the values run() takes; the spec's
 * data_inputs name the parameters whose arrays give only dtype and shape.  A call of the object
 * takes one argument per data input (a sequence of arrays for a tensor-list input), checks each
 * array against what was prepared (dtype, shape, C-contiguous, aligned: never a copy), checks
 * `out` (writeable too, and no overlap with an input that tx_op_in_place does not allow) or
 * allocates the outputs, and runs the op with the GIL released.  The arrays stay alive through
 * the run because the call's arguments hold them.  The object is immutable: any thread may call
 * it. */
#define NO_IMPORT_ARRAY
#include "_tensorx.h"

/* What one input or output of the prepared op is: checked against each call's arrays. */
typedef struct slot {
    PyArray_Descr *descr; /* the NumPy dtype (out_dtypes' entry) */
    tx_dtype dtype;
    int ndim;
    npy_intp dims[NPY_MAXDIMS];
    size_t nbytes;
    char name[64]; /* "a", "values[2]", "output" */
} slot;

typedef struct prepared_op {
    PyObject_HEAD
    tx_op *op;
    const op_def *def;
    PyObject *inputs, *outputs; /* tuples of TensorSpec */
    PyObject *result_type;      /* None, or the op's named tuple of outputs */
    bool multi;                 /* results are a tuple (several outputs, or a list op) */
    size_t n_args;              /* the spec's data inputs: the call's positional arguments */
    Py_ssize_t arg_len[OP_MAX_OUTPUTS]; /* per data input: -1 one array, else a list's length */
    size_t n_in, n_out;
    slot *slots; /* n_in inputs, then n_out outputs */
} prepared_op;

static PyTypeObject prepared_type;
static PyObject *spec_type; /* tensorx.TensorSpec (a named tuple): name, dtype, shape */

static int types_ready(void) {
    if (!spec_type) {
        PyErr_SetString(PyExc_RuntimeError, "tensorx: _prepared_types() was not called");
        return -1;
    }
    return PyType_Ready(&prepared_type);
}

/* The package's exception class of st (registered by _register), or a builtin one. */
static PyObject *status_class(tx_status st) {
    return err_by_status[st] ? err_by_status[st] : PyExc_RuntimeError;
}

/* ---- prepare -------------------------------------------------------------------------------- */

/* Fills s from the prepared op's description of one tensor. */
static int fill_slot(prepared_op *self, slot *s, const tx_output_info *info, const char *what) {
    tx_dtype dt = info->dtype;
    PyObject *d = out_dtypes && (size_t)dt < (size_t)PyTuple_GET_SIZE(out_dtypes)
                      ? PyTuple_GET_ITEM(out_dtypes, dt) : NULL;
    if (!d || d == Py_None) {
        PyErr_Format(status_class(TX_UNIMPLEMENTED), "%s: %s: no NumPy dtype for %s",
                     self->def->name, what, tx_dtype_name(dt));
        return -1;
    }
    if (info->rank > NPY_MAXDIMS) {
        PyErr_Format(status_class(TX_UNIMPLEMENTED),
                     "%s: %s has rank %zu: NumPy arrays have at most %d dims", self->def->name,
                     what, info->rank, NPY_MAXDIMS);
        return -1;
    }
    s->descr = (PyArray_Descr *)Py_NewRef(d);
    s->dtype = dt;
    s->ndim = (int)info->rank;
    for (size_t k = 0; k < info->rank; k++) s->dims[k] = (npy_intp)info->dims[k];
    s->nbytes = info->nbytes;
    snprintf(s->name, sizeof s->name, "%s", what);
    return 0;
}

static PyObject *spec_of(const slot *s) {
    PyObject *shape = PyTuple_New(s->ndim), *spec = NULL;
    for (int k = 0; shape && k < s->ndim; k++) {
        PyObject *v = PyLong_FromSsize_t(s->dims[k]);
        if (!v) Py_CLEAR(shape);
        else PyTuple_SET_ITEM(shape, k, v);
    }
    if (shape) spec = PyObject_CallFunction(spec_type, "sON", s->name, (PyObject *)s->descr, shape);
    return spec;
}

/* The object around a new tx_op: its slots named from the spec (a's tensor lists give their
 * lengths).  Takes op. */
static PyObject *wrap_op(const op_def *def, const op_args *a, tx_op *op, bool multi,
                         PyObject *result_type) {
    prepared_op *self = PyObject_New(prepared_op, &prepared_type);
    if (!self) {
        tx_op_free(op);
        return NULL;
    }
    self->op = op;
    self->def = def;
    self->inputs = self->outputs = NULL;
    self->result_type = Py_NewRef(result_type);
    self->multi = multi;
    self->n_in = tx_op_input_count(op);
    self->n_out = tx_op_output_count(op);
    self->n_args = 0;
    self->slots = PyMem_Calloc(self->n_in + self->n_out, sizeof *self->slots);
    if (!self->slots) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    size_t i = 0;
    char what[64];
    for (size_t k = 0; k < OP_MAX_OUTPUTS && def->data_inputs[k]; k++) {
        const char *name = def->data_inputs[k];
        int p = op_param_index(def, name, strlen(name));
        size_t m = 1;
        self->arg_len[k] = -1;
        if (p >= 0 && def->params[p].kind == P_TENSOR_LIST) {
            (void)arg_list(a, name, &m);
            self->arg_len[k] = (Py_ssize_t)m;
        }
        for (size_t j = 0; j < m; j++, i++) {
            tx_output_info info = {sizeof info};
            if (self->arg_len[k] >= 0) snprintf(what, sizeof what, "%s[%zu]", name, j);
            else snprintf(what, sizeof what, "%s", name);
            if (i >= self->n_in || tx_op_input(op, i, &info) != TX_OK) {
                Py_DECREF(self);
                return PyErr_Format(status_class(TX_INTERNAL), "%s: the spec's data_inputs "
                                    "give more inputs than the prepared op's %zu", def->name,
                                    self->n_in);
            }
            if (fill_slot(self, &self->slots[i], &info, what) < 0) {
                Py_DECREF(self);
                return NULL;
            }
        }
        self->n_args++;
    }
    if (i != self->n_in) {
        Py_DECREF(self);
        return PyErr_Format(status_class(TX_INTERNAL), "%s: the spec's data_inputs give %zu "
                            "inputs, the prepared op takes %zu", def->name, i, self->n_in);
    }
    for (size_t j = 0; j < self->n_out; j++) {
        tx_output_info info = {sizeof info};
        if (!def->outputs_list && j < OP_MAX_OUTPUTS && def->outputs[j])
            snprintf(what, sizeof what, "%s", def->outputs[j]);
        else /* one name for a list of outputs */
            snprintf(what, sizeof what, "%s[%zu]", def->outputs[0] ? def->outputs[0] : "output",
                     j);
        if (tx_op_output(op, j, &info) != TX_OK) {
            Py_DECREF(self);
            return raise_status(TX_INTERNAL, tx_last_error());
        }
        if (fill_slot(self, &self->slots[self->n_in + j], &info, what) < 0) {
            Py_DECREF(self);
            return NULL;
        }
    }
    if (!(self->inputs = PyTuple_New((Py_ssize_t)self->n_in)) ||
        !(self->outputs = PyTuple_New((Py_ssize_t)self->n_out))) {
        Py_DECREF(self);
        return NULL;
    }
    for (size_t j = 0; j < self->n_in + self->n_out; j++) {
        PyObject *spec = spec_of(&self->slots[j]);
        if (!spec) {
            Py_DECREF(self);
            return NULL;
        }
        if (j < self->n_in) PyTuple_SET_ITEM(self->inputs, (Py_ssize_t)j, spec);
        else PyTuple_SET_ITEM(self->outputs, (Py_ssize_t)(j - self->n_in), spec);
    }
    return (PyObject *)self;
}

/* The library's words for an op it cannot prepare. */
static PyObject *no_prepared_form(const op_def *def) {
    return PyErr_Format(status_class(TX_UNIMPLEMENTED), "%s: has no prepared form yet "
                        "(docs/prepared.md lists the ops that have); call it directly", def->name);
}

/* prepare(op_index, values, multi, result_type): the op's call with `values` (one per parameter,
 * as run() takes them) prepared; multi: results are a tuple, of result_type when that is not
 * None. */
PyObject *py_prepare(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t index;
    PyObject *values, *result_type;
    int multi;
    if (!PyArg_ParseTuple(args, "nO!pO", &index, &PyTuple_Type, &values, &multi, &result_type))
        return NULL;
    if (types_ready() < 0) return NULL;
    const op_def *def = index >= 0 ? op_at((size_t)index) : NULL;
    if (!def) return PyErr_Format(PyExc_IndexError, "no op %zd", index);
    size_t np = 0;
    while (np < OP_MAX_PARAMS && def->params[np].name) np++;
    if ((size_t)PyTuple_GET_SIZE(values) != np)
        return PyErr_Format(PyExc_TypeError, "%s takes %zu values", def->name, np);
    if (!def->data_inputs[0]) /* its run function may not prepare: the library's words */
        return no_prepared_form(def);
    op_args a;
    memset(&a, 0, sizeof a);
    a.def = def;
    inputs_info ii;
    memset(&ii, 0, sizeof ii);
    op_outputs o = {0};
    tx_op *op = NULL;
    o.prepare = &op;
    PyObject *result = NULL;
    tx_status st = TX_OK;
    char msg[2048];
    for (size_t i = 0; i < np; i++)
        if (fill_value(def, &def->params[i], PyTuple_GET_ITEM(values, (Py_ssize_t)i), &a.v[i],
                       &ii) < 0)
            goto done;
    if (op_error() != tx_last_error()) op_fail(TX_OK, "%s", "");
    tx_clear_error();
    if ((st = op_args_finish(&a)) != TX_OK) {
        raise_status(st, op_error());
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    if (op_error() != tx_last_error()) op_fail(TX_OK, "%s", "");
    tx_clear_error();
    st = def->run(&a, &o);
    if (st != TX_OK) snprintf(msg, sizeof msg, "%s", op_error());
    if (op_error() != tx_last_error()) op_fail(TX_OK, "%s", "");
    Py_END_ALLOW_THREADS
    if (st != TX_OK) {
        raise_status(st, msg);
    } else if (!op) { /* the run function ran the op instead: it has no prepared form */
        no_prepared_form(def);
    } else {
        result = wrap_op(def, &a, op, multi, result_type);
        op = NULL;
    }
done:
    tx_op_free(op);
    op_outputs_clear(&o);
    for (size_t i = 0; i < np; i++) op_value_clear(&a.v[i]);
    Py_XDECREF(ii.vstring);
    return result;
}

/* _prepared_types(spec_type): PreparedOp, whose inputs and outputs are described by spec_type
 * (the package's named tuple of name, dtype, shape). */
PyObject *py_prepared_types(PyObject *self, PyObject *spec) {
    (void)self;
    Py_XSETREF(spec_type, Py_NewRef(spec));
    if (types_ready() < 0) return NULL;
    return Py_NewRef((PyObject *)&prepared_type);
}

/* ---- run ------------------------------------------------------------------------------------ */

static PyObject *shape_text(int ndim, const npy_intp *dims) {
    PyObject *t = PyTuple_New(ndim), *r = NULL;
    for (int k = 0; t && k < ndim; k++) {
        PyObject *v = PyLong_FromSsize_t(dims[k]);
        if (!v) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, k, v);
    }
    if (t) r = PyObject_Repr(t);
    Py_XDECREF(t);
    return r;
}

/* Whether descr is the dtype of s: NumPy's equivalence (int64 'l' and 'q' alike), or the other
 * NumPy form of a dtype NumPy lacks (the structured one when ml_dtypes is there). */
static bool same_dtype(PyArray_Descr *descr, const slot *s) {
    if (descr == s->descr || PyArray_EquivTypes(descr, s->descr)) return true;
    PyObject *code = in_dtypes ? PyDict_GetItemWithError(in_dtypes, (PyObject *)descr) : NULL;
    if (!code) {
        PyErr_Clear();
        return false;
    }
    return PyLong_AsLong(code) == (long)s->dtype;
}

/* The data pointer of `obj` for slot s, or NULL with an exception naming `role` ("input",
 * "out") and the rule it broke. */
static void *check_array(const prepared_op *self, PyObject *obj, const slot *s,
                         const char *role, bool writable) {
    const char *op = self->def->name;
    if (!PyArray_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: %s %s: expected an ndarray, got %.80s", op, role,
                     s->name, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyArrayObject *arr = (PyArrayObject *)obj;
    if (!same_dtype(PyArray_DESCR(arr), s)) {
        PyErr_Format(PyExc_ValueError, "%s: %s %s: dtype %R, prepared for %R", op, role,
                     s->name, (PyObject *)PyArray_DESCR(arr), (PyObject *)s->descr);
        return NULL;
    }
    bool same_shape = PyArray_NDIM(arr) == s->ndim;
    for (int k = 0; same_shape && k < s->ndim; k++) same_shape = PyArray_DIM(arr, k) == s->dims[k];
    if (!same_shape) {
        PyObject *got = shape_text(PyArray_NDIM(arr), PyArray_DIMS(arr));
        PyObject *want = got ? shape_text(s->ndim, s->dims) : NULL;
        if (want)
            PyErr_Format(PyExc_ValueError, "%s: %s %s: shape %U, prepared for %U", op, role,
                         s->name, got, want);
        Py_XDECREF(got);
        Py_XDECREF(want);
        return NULL;
    }
    if (!PyArray_IS_C_CONTIGUOUS(arr) || !PyArray_ISALIGNED(arr)) {
        PyErr_Format(PyExc_ValueError, "%s: %s %s: the array is not %s: a prepared op reads and "
                     "writes arrays in place and never copies (%s makes one that is)", op, role,
                     s->name, PyArray_IS_C_CONTIGUOUS(arr) ? "aligned" : "C-contiguous",
                     writable ? "np.empty" : "np.ascontiguousarray");
        return NULL;
    }
    if (writable && !PyArray_ISWRITEABLE(arr)) {
        PyErr_Format(PyExc_ValueError, "%s: out %s: the array is read-only", op, s->name);
        return NULL;
    }
    if (!writable && s->dtype == TX_BOOL) {
        /* TensorFlow's bools are the bytes 0 and 1; the op call reads any other byte as true
         * through a copy, which a prepared op does not make */
        const unsigned char *p = PyArray_DATA(arr);
        unsigned char bits = 0;
        for (size_t i = 0; i < s->nbytes; i++) bits |= p[i];
        if (bits > 1) {
            PyErr_Format(PyExc_ValueError, "%s: input %s: a bool array with bytes other than 0 "
                         "and 1 (a view of other bytes); np.not_equal(x, 0) gives TensorFlow's "
                         "bools", op, s->name);
            return NULL;
        }
    }
    return PyArray_DATA(arr);
}

/* Whether the byte ranges of two slots' memory overlap (empty ones never do). */
static bool overlap(const void *p, size_t n, const void *q, size_t m) {
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return n && m && a < b + m && b < a + n;
}

#define STACK_SLOTS 32

/* The call: (*data_inputs, out=None) -> the output, or a tuple of them. */
static PyObject *prepared_call(PyObject *obj, PyObject *args, PyObject *kwargs) {
    prepared_op *self = (prepared_op *)obj;
    const char *op = self->def->name;
    PyObject *out = Py_None;
    if (kwargs && PyDict_GET_SIZE(kwargs)) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(kwargs, &pos, &key, &value)) {
            if (!PyUnicode_Check(key) || PyUnicode_CompareWithASCIIString(key, "out") != 0)
                return PyErr_Format(PyExc_TypeError, "%s (prepared): unexpected keyword "
                                    "argument %R: the data inputs are positional, out= names "
                                    "the outputs", op, key);
            out = value;
        }
    }
    if ((size_t)PyTuple_GET_SIZE(args) != self->n_args) {
        PyObject *names = PyTuple_New((Py_ssize_t)self->n_args);
        for (size_t k = 0; names && k < self->n_args; k++)
            PyTuple_SET_ITEM(names, (Py_ssize_t)k, PyUnicode_FromString(self->def->data_inputs[k]));
        if (names)
            PyErr_Format(PyExc_TypeError, "%s (prepared): takes %zu data inputs %R, got %zd "
                         "arguments", op, self->n_args, names, PyTuple_GET_SIZE(args));
        Py_XDECREF(names);
        return NULL;
    }
    const void *in_stack[STACK_SLOTS];
    void *out_stack[STACK_SLOTS];
    const void **in = self->n_in <= STACK_SLOTS ? in_stack : PyMem_Calloc(self->n_in, sizeof *in);
    void **outp = self->n_out <= STACK_SLOTS ? out_stack : PyMem_Calloc(self->n_out, sizeof *outp);
    PyObject *seqs[OP_MAX_OUTPUTS] = {NULL}; /* the tensor lists' items, held for the run */
    PyObject *outs = NULL;                   /* a tuple of the output arrays */
    PyObject *result = NULL;
    if (!in || !outp) {
        PyErr_NoMemory();
        goto done;
    }
    size_t i = 0;
    for (size_t k = 0; k < self->n_args; k++) {
        PyObject *arg = PyTuple_GET_ITEM(args, (Py_ssize_t)k);
        if (self->arg_len[k] < 0) {
            if (!(in[i] = check_array(self, arg, &self->slots[i], "input", false))) goto done;
            i++;
            continue;
        }
        /* a tuple of the items: a list could lose one to another thread during the run */
        if (PyArray_Check(arg) || !(seqs[k] = PySequence_Tuple(arg))) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: input %s: expected a sequence of %zd ndarrays, "
                         "got %.80s", op, self->def->data_inputs[k], self->arg_len[k],
                         Py_TYPE(arg)->tp_name);
            goto done;
        }
        if (PyTuple_GET_SIZE(seqs[k]) != self->arg_len[k]) {
            PyErr_Format(PyExc_ValueError, "%s: input %s: %zd arrays, prepared for %zd", op,
                         self->def->data_inputs[k], PyTuple_GET_SIZE(seqs[k]),
                         self->arg_len[k]);
            goto done;
        }
        for (Py_ssize_t j = 0; j < self->arg_len[k]; j++, i++)
            if (!(in[i] = check_array(self, PyTuple_GET_ITEM(seqs[k], j), &self->slots[i],
                                      "input", false)))
                goto done;
    }
    if (out == Py_None) {
        if (!(outs = PyTuple_New((Py_ssize_t)self->n_out))) goto done;
        for (size_t j = 0; j < self->n_out; j++) {
            const slot *s = &self->slots[self->n_in + j];
            Py_INCREF(s->descr); /* stolen */
            PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, s->descr, s->ndim, s->dims, NULL,
                                                 NULL, 0, NULL);
            if (!arr) goto done;
            PyTuple_SET_ITEM(outs, (Py_ssize_t)j, arr);
            outp[j] = PyArray_DATA((PyArrayObject *)arr);
        }
    } else {
        if (PyTuple_Check(out)) { /* NumPy's out=: an array, or a tuple of one per output */
            outs = Py_NewRef(out);
        } else if (self->n_out == 1 && !self->multi) {
            outs = PyTuple_Pack(1, out);
        } else {
            PyErr_Format(PyExc_TypeError, "%s: out: a tuple of %zu ndarrays, got %.80s", op,
                         self->n_out, Py_TYPE(out)->tp_name);
            goto done;
        }
        if (!outs) goto done;
        if ((size_t)PyTuple_GET_SIZE(outs) != self->n_out) {
            PyErr_Format(PyExc_ValueError, "%s: out: %zd arrays, the op makes %zu outputs", op,
                         PyTuple_GET_SIZE(outs), self->n_out);
            goto done;
        }
        for (size_t j = 0; j < self->n_out; j++) {
            const slot *s = &self->slots[self->n_in + j];
            if (!(outp[j] = check_array(self, PyTuple_GET_ITEM(outs, (Py_ssize_t)j), s, "out",
                                        true)))
                goto done;
            for (size_t m = 0; m < self->n_in; m++) {
                const slot *t = &self->slots[m];
                if (!overlap(outp[j], s->nbytes, in[m], t->nbytes)) continue;
                if (outp[j] == in[m] && s->nbytes == t->nbytes && tx_op_in_place(self->op, j, m))
                    continue;
                PyErr_Format(PyExc_ValueError, "%s: out %s shares memory with input %s, which "
                             "this op cannot write in place (PreparedOp.in_place says which "
                             "it can)", op, s->name, t->name);
                goto done;
            }
            for (size_t m = 0; m < j; m++) {
                if (!overlap(outp[j], s->nbytes, outp[m], self->slots[self->n_in + m].nbytes))
                    continue;
                PyErr_Format(PyExc_ValueError, "%s: out %s shares memory with out %s", op,
                             s->name, self->slots[self->n_in + m].name);
                goto done;
            }
        }
    }
    tx_status st;
    char msg[1024];
    Py_BEGIN_ALLOW_THREADS
    st = tx_op_run(self->op, in, (void *const *)outp, NULL);
    if (st != TX_OK) snprintf(msg, sizeof msg, "%s", tx_last_error());
    Py_END_ALLOW_THREADS
    if (st != TX_OK) {
        raise_status(st, msg);
        goto done;
    }
    if (!self->multi) result = Py_NewRef(PyTuple_GET_ITEM(outs, 0));
    else if (self->result_type == Py_None) result = Py_NewRef(outs);
    else result = PyObject_Call(self->result_type, outs, NULL);
done:
    for (size_t k = 0; k < OP_MAX_OUTPUTS; k++) Py_XDECREF(seqs[k]);
    Py_XDECREF(outs);
    if (in != in_stack) PyMem_Free((void *)in);
    if (outp != out_stack) PyMem_Free(outp);
    return result;
}

static PyObject *prepared_in_place(PyObject *obj, PyObject *args) {
    prepared_op *self = (prepared_op *)obj;
    Py_ssize_t out, inp;
    if (!PyArg_ParseTuple(args, "nn:in_place", &out, &inp)) return NULL;
    if (out < 0 || (size_t)out >= self->n_out || inp < 0 || (size_t)inp >= self->n_in)
        return PyErr_Format(PyExc_IndexError, "%s: in_place(out, inp): out is 0..%zd and inp "
                            "0..%zd, got (%zd, %zd)", self->def->name,
                            (Py_ssize_t)self->n_out - 1, (Py_ssize_t)self->n_in - 1, out, inp);
    return PyBool_FromLong(tx_op_in_place(self->op, (size_t)out, (size_t)inp));
}

static void prepared_dealloc(PyObject *obj) {
    prepared_op *self = (prepared_op *)obj;
    tx_op_free(self->op);
    if (self->slots)
        for (size_t j = 0; j < self->n_in + self->n_out; j++) Py_XDECREF(self->slots[j].descr);
    PyMem_Free(self->slots);
    Py_XDECREF(self->inputs);
    Py_XDECREF(self->outputs);
    Py_XDECREF(self->result_type);
    PyObject_Free(obj);
}

static PyObject *prepared_repr(PyObject *obj) {
    prepared_op *self = (prepared_op *)obj;
    return PyUnicode_FromFormat("<tensorx.PreparedOp %s: inputs %R, outputs %R>", self->def->name,
                                self->inputs, self->outputs);
}

static PyObject *get_name(PyObject *obj, void *closure) {
    (void)closure;
    return PyUnicode_FromString(((prepared_op *)obj)->def->name);
}
static PyObject *get_inputs(PyObject *obj, void *closure) {
    (void)closure;
    return Py_NewRef(((prepared_op *)obj)->inputs);
}
static PyObject *get_outputs(PyObject *obj, void *closure) {
    (void)closure;
    return Py_NewRef(((prepared_op *)obj)->outputs);
}

static PyGetSetDef prepared_getset[] = {
    {"name", get_name, NULL, "the op's name", NULL},
    {"inputs", get_inputs, NULL,
     "the data inputs a call takes, in order: a TensorSpec (name, dtype, shape) per array", NULL},
    {"outputs", get_outputs, NULL, "the outputs: a TensorSpec (name, dtype, shape) each", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef prepared_methods[] = {
    {"run", (PyCFunction)(void (*)(void))prepared_call, METH_VARARGS | METH_KEYWORDS,
     "run(*data_inputs, out=None): the same as calling the object"},
    {"in_place", prepared_in_place, METH_VARARGS,
     "in_place(out, inp): whether output `out` may be exactly input `inp`'s array"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject prepared_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorx.PreparedOp",
    .tp_basicsize = sizeof(prepared_op),
    .tp_dealloc = prepared_dealloc,
    .tp_repr = prepared_repr,
    .tp_call = prepared_call,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An op call prepared once (tensorx.prepare), run many times: "
              "op(*data_inputs, out=None).  docs/python.md, \"Prepared ops\".",
    .tp_methods = prepared_methods,
    .tp_getset = prepared_getset,
};
