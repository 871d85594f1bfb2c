/* SPDX-License-Identifier: Apache-2.0 */
/* _tensorx_functions.c -- the op functions: tensorx.cast and every other op with one output as a
 * callable that binds its arguments in C (op_function, below) and runs the op (run_values). */
#define NO_IMPORT_ARRAY
#include "_tensorx.h"

/* tensorx.<op> for an op with one output: a callable that binds its arguments in C and runs the
 * op -- the work of the Python function __init__.py makes for it (`func`), without that
 * function's frame and argument tuple, a quarter of a 16-element cast's call.  It binds as the
 * function's signature does: the first `npos` parameters by position, any by keyword, one not
 * given is `absent` (the table's default; a parameter whose default is None treats absent as it
 * treats None).  Every other call -- out=, an unknown or repeated keyword, too many positional
 * arguments, a required one missing -- goes to `func`, which runs it or raises Python's own
 * TypeError.  Attributes (the signature through __wrapped__, __doc__, __name__, __module__) are
 * func's; pickling names the package's attribute, as for a function. */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    const op_entry *entry;
    Py_ssize_t npos;
    unsigned required; /* bit i: parameter i has no default */
    PyObject *names;   /* the parameters' names as Python spells them (a tuple of str) */
    PyObject *func;
} op_function;

static Py_ssize_t op_function_param(const op_function *f, PyObject *key) {
    Py_ssize_t n = PyTuple_GET_SIZE(f->names);
    for (Py_ssize_t i = 0; i < n; i++) /* keywords are interned: identity is the usual match */
        if (PyTuple_GET_ITEM(f->names, i) == key) return i;
    for (Py_ssize_t i = 0; i < n; i++) {
        int eq = PyUnicode_Check(key) ? PyUnicode_Compare(PyTuple_GET_ITEM(f->names, i), key) : 1;
        if (eq == 0) return i;
        if (eq == -1 && PyErr_Occurred()) PyErr_Clear(); /* func reports it */
    }
    return -1;
}

static PyObject *op_function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                        PyObject *kwnames) {
    op_function *f = (op_function *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *values[OP_MAX_PARAMS];
    unsigned given = 0;
    if (nargs > f->npos) goto by_func;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        values[i] = args[i];
        given |= 1u << i;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        Py_ssize_t i = op_function_param(f, PyTuple_GET_ITEM(kwnames, k));
        if (i < 0 || (given >> i & 1)) goto by_func;
        values[i] = args[nargs + k];
        given |= 1u << i;
    }
    if ((given & f->required) != f->required) goto by_func;
    for (size_t i = 0; i < f->entry->nparams; i++)
        if (!(given >> i & 1)) values[i] = absent;
    return run_values(f->entry, values, 2);
by_func:
    return PyObject_Vectorcall(f->func, args, nargsf, kwnames);
}

static void op_function_dealloc(PyObject *self) {
    op_function *f = (op_function *)self;
    Py_XDECREF(f->names);
    Py_XDECREF(f->func);
    Py_TYPE(self)->tp_free(self);
}

/* __wrapped__, __class__ and the pickling methods are the object's own; the rest are func's. */
static PyObject *op_function_getattro(PyObject *self, PyObject *name) {
    op_function *f = (op_function *)self;
    if (PyUnicode_Check(name)) {
        const char *s = PyUnicode_AsUTF8(name);
        if (!s) return NULL;
        if (!strcmp(s, "__wrapped__")) return Py_NewRef(f->func);
        if (strcmp(s, "__class__") && strcmp(s, "__reduce__") && strcmp(s, "__reduce_ex__"))
            return PyObject_GetAttr(f->func, name);
    }
    return PyObject_GenericGetAttr(self, name);
}

/* As a function: bound to an instance when it is a class attribute (which also makes inspect, and
 * so help(), take it for a routine). */
static PyObject *op_function_get(PyObject *self, PyObject *obj, PyObject *type) {
    (void)type;
    if (obj == NULL || obj == Py_None) return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static PyObject *op_function_repr(PyObject *self) {
    return PyObject_Repr(((op_function *)self)->func);
}

/* pickle: the global tensorx.<name> (a string from __reduce__ names a module attribute) */
static PyObject *op_function_reduce(PyObject *self, PyObject *noargs) {
    (void)noargs;
    return PyObject_GetAttrString(((op_function *)self)->func, "__qualname__");
}

/* __doc__ as a descriptor of the type (not the type's own doc string): what pydoc reads */
static PyObject *op_function_doc(PyObject *self, void *closure) {
    (void)closure;
    return PyObject_GetAttrString(((op_function *)self)->func, "__doc__");
}

static PyGetSetDef op_function_getset[] = {{"__doc__", op_function_doc, NULL, NULL, NULL},
                                           {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef op_function_methods[] = {
    {"__reduce__", op_function_reduce, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};

static PyTypeObject op_function_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorx._tensorx.op_function",
    .tp_basicsize = sizeof(op_function),
    .tp_dealloc = op_function_dealloc,
    .tp_vectorcall_offset = offsetof(op_function, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = op_function_repr,
    .tp_getattro = op_function_getattro,
    .tp_descr_get = op_function_get,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_methods = op_function_methods,
    .tp_getset = op_function_getset,
};

/* op_function(index, names, npos, func): the op function of op `index` (see op_function). */
PyObject *py_op_function(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *index, *names, *func;
    Py_ssize_t npos;
    if (!PyArg_ParseTuple(args, "OO!nO", &index, &PyTuple_Type, &names, &npos, &func)) return NULL;
    const op_entry *entry = op_by_index(index);
    if (!entry) return NULL;
    if ((size_t)PyTuple_GET_SIZE(names) != entry->nparams || npos < 0 ||
        (size_t)npos > entry->nparams || !PyCallable_Check(func)) {
        PyErr_SetString(PyExc_ValueError, "op_function: a name per parameter, npos, a callable");
        return NULL;
    }
    op_function *f = PyObject_New(op_function, &op_function_type);
    if (!f) return NULL;
    f->vectorcall = op_function_vectorcall;
    f->entry = entry;
    f->npos = npos;
    f->required = 0;
    for (size_t i = 0; i < entry->nparams; i++)
        if (!entry->def->params[i].def) f->required |= 1u << i;
    f->names = Py_NewRef(names);
    f->func = Py_NewRef(func);
    return (PyObject *)f;
}

int op_functions_init(void) { return PyType_Ready(&op_function_type); }
