/* SPDX-License-Identifier: Apache-2.0 */
/* test_args.c -- the tools' one command-line parser, op_args_parse (frontend/args.c), which the CLI,
 * its streaming path, the fuzz seed maker and the example-driven tests share: name=value words
 * matched to the op's parameters and parsed by kind, defaults and required arguments, the usage
 * errors in argv order (with "did you mean" hints), options through the caller's hook, the text
 * of each argument, an unparsed parameter, and nothing left behind on failure.  The CLI's own
 * messages and exit codes are checked end to end by tests/cli/usage.sh. */
#include "testutil.h"

#include "args.h"
#include "opreg.h"

#include <string.h>

static tx_status parse(op_args *a, const char *op, int argc, const char *const *argv, op_cmdline *cl) {
    const op_def *d = op_find(op);
    assert_non_null(d);
    op_fail(TX_OK, "%s", "");
    return op_args_parse(a, d, argc, argv, cl);
}

#define ARGV(...) ((const char *const[]){__VA_ARGS__})
#define ARGC(...) ((int)(sizeof ARGV(__VA_ARGS__) / sizeof(const char *)))
#define PARSE(a, op, cl, ...) parse((a), (op), ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (cl))

static void assert_cleared(const op_args *a) {
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) {
        assert_false(a->v[i].present);
        assert_null(a->v[i].tensor);
        assert_null(a->v[i].list);
        assert_null(a->v[i].s);
        assert_null(a->v[i].ints);
    }
}

static void assert_usage(tx_status st, const char *message) {
    assert_int_equal(st, OP_USAGE);
    if (!strstr(op_error(), message)) fail_msg("message '%s' lacks '%s'", op_error(), message);
}

static void test_values_and_defaults(void **state) {
    (void)state;
    op_args a;
    op_cmdline cl = {0};
    assert_int_equal(PARSE(&a, "decode_raw", &cl, "out_type=int16", "input_bytes=\"ab\""), TX_OK);
    assert_int_equal(arg_dtype(&a, "out_type"), TX_INT16);
    assert_int_equal(tx_tensor_dtype(arg_tensor(&a, "input_bytes")), TX_STRING);
    assert_true(arg_bool(&a, "little_endian")); /* the default, "true" */
    assert_false(arg_has(&a, "fixed_length")); /* optional: stays absent */
    assert_string_equal(cl.text[op_param_index(a.def, "out_type", 8)], "int16");
    assert_string_equal(cl.text[op_param_index(a.def, "input_bytes", 11)], "\"ab\"");
    assert_null(cl.text[op_param_index(a.def, "little_endian", 13)]);
    op_args_clear(&a);

    /* No cmdline: the same, for callers that only have name=value words. */
    assert_int_equal(PARSE(&a, "reshape", NULL, "tensor=[1,2,3,4]", "shape=2,2"), TX_OK);
    assert_int_equal(tx_tensor_numel(arg_tensor(&a, "shape")), 2);
    op_args_clear(&a);
    assert_int_equal(parse(&a, "reshape", 0, NULL, NULL), OP_USAGE);
    assert_cleared(&a);
}

static void test_no_defaults(void **state) {
    (void)state;
    op_args a;
    op_cmdline cl = {.no_defaults = true};
    assert_int_equal(PARSE(&a, "decode_raw", &cl, "out_type=int16"), TX_OK); /* input_bytes missing */
    assert_true(arg_has(&a, "out_type"));
    assert_false(arg_has(&a, "little_endian"));
    assert_false(arg_has(&a, "input_bytes"));
    assert_int_equal(op_args_finish(&a), OP_USAGE); /* what the defaults would have said */
    assert_usage(OP_USAGE, "missing required argument 'input_bytes'");
    op_args_clear(&a);
}

static void test_usage_errors(void **state) {
    (void)state;
    op_args a;
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1]", "shap=[1]"),
                 "unknown argument 'shap'; did you mean 'shape'? (tensorx reshape --help lists them)");
    assert_cleared(&a);
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1]", "zzzz=1"),
                 "unknown argument 'zzzz' (tensorx reshape --help lists them)");
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1]", "shape"), "expected name=value, got 'shape'");
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1]", "=[1]"), "expected name=value, got '=[1]'");
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1]", "shape=[1]", "shape=[1]"), "argument 'shape' given twice");
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1]"),
                 "missing required argument 'shape' (see tensorx reshape --help)");
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1]", "shape=[1]", "-o", "x.npy"), "unknown option '-o'");
    assert_cleared(&a);
    /* In argv order: the first bad word is the one reported. */
    assert_usage(PARSE(&a, "reshape", NULL, "bogus=1", "tensor"), "unknown argument 'bogus'");
    assert_usage(PARSE(&a, "reshape", NULL, "tensor", "bogus=1"), "expected name=value, got 'tensor'");
}

static void test_bad_value(void **state) {
    (void)state;
    op_args a;
    /* A value that does not parse keeps its own status; the message names the argument. */
    assert_int_equal(PARSE(&a, "shape", NULL, "input=[1,2]", "out_type=float128"), TX_INVALID_ARGUMENT);
    assert_string_equal(op_error(), "argument 'out_type': out_type: unknown dtype 'float128'");
    assert_cleared(&a); /* the tensor parsed before it is gone */
    op_cmdline cl = {0};
    assert_int_equal(PARSE(&a, "reshape", &cl, "tensor=[1,2", "shape=1"), TX_INVALID_ARGUMENT);
    assert_non_null(strstr(op_error(), "argument 'tensor': "));
    assert_string_equal(cl.text[0], "[1,2"); /* the text of the word that failed is kept */
    assert_string_equal(cl.text[1], "1");    /* every word is checked before any value is read */
    /* Usage errors come before any value is parsed (or any file read): an unknown or missing
     * argument after a bad value is the one reported. */
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1,2", "bogus=1"), "unknown argument 'bogus'");
    assert_usage(PARSE(&a, "reshape", NULL, "tensor=[1,2"), "missing required argument 'shape'");
    /* Literals before files: a bad literal after a .npy that does not exist is the one reported. */
    assert_int_equal(PARSE(&a, "reshape", NULL, "tensor=/nonexistent/x.npy", "shape=[1,x]"),
                     TX_INVALID_ARGUMENT);
    assert_non_null(strstr(op_error(), "argument 'shape': "));
}

/* An option hook in the style of the CLI's: -o FILE recorded, --flag taken, the rest refused. */
typedef struct {
    const char *out;
    int flags;
} seen;

static tx_status hook(void *ctx, int argc, const char *const *argv, int *i) {
    seen *s = ctx;
    if (!strcmp(argv[*i], "--flag")) {
        s->flags++;
        return TX_OK;
    }
    if (!strcmp(argv[*i], "-o") && *i + 1 < argc) {
        s->out = argv[++*i];
        return TX_OK;
    }
    return op_fail(OP_USAGE, "hook refuses '%s'", argv[*i]);
}

static void test_options(void **state) {
    (void)state;
    op_args a;
    seen s = {0};
    op_cmdline cl = {.option = hook, .ctx = &s};
    /* The word after -o is the hook's, even when it looks like name=value. */
    assert_int_equal(PARSE(&a, "reshape", &cl, "--flag", "tensor=[1]", "-o", "shape=[9]", "shape=[1]", "--flag"),
                     TX_OK);
    assert_string_equal(s.out, "shape=[9]");
    assert_int_equal(s.flags, 2);
    assert_int_equal(tx_tensor_numel(arg_tensor(&a, "shape")), 1);
    op_args_clear(&a);
    assert_usage(PARSE(&a, "reshape", &cl, "tensor=[1]", "shape=[1]", "--nope"), "hook refuses '--nope'");
    assert_cleared(&a);
}

static void test_unparsed(void **state) {
    (void)state;
    op_args a;
    op_cmdline cl = {.unparsed = "x"};
    /* The streamed input's text is kept, not read (no such file is needed), and counts as given. */
    assert_int_equal(PARSE(&a, "cast", &cl, "x=/no/such/file.npy", "dtype=int8"), TX_OK);
    assert_true(arg_has(&a, "x"));
    assert_null(arg_tensor(&a, "x"));
    assert_string_equal(cl.text[0], "/no/such/file.npy");
    assert_string_equal(arg_str(&a, "mode"), "default");
    op_args_clear(&a);
    assert_usage(PARSE(&a, "cast", &cl, "x=a.npy", "x=b.npy", "dtype=int8"), "argument 'x' given twice");
}

static void test_nearest(void **state) {
    (void)state;
    static const char *const names[] = {"reshape", "transpose", "one_hot", "out_type", "pack"};
    assert_string_equal(op_nearest("reshap", names, 5), "reshape");
    assert_string_equal(op_nearest("tranpsose", names, 5), "transpose"); /* a swap is one edit */
    assert_string_equal(op_nearest("One_Hot", names, 5), "one_hot");     /* case ignored */
    assert_string_equal(op_nearest("out", names, 5), "out_type");        /* the only name it begins */
    assert_null(op_nearest("frobnicate", names, 5));
    char buf[64];
    assert_string_equal(op_did_you_mean("packk", names, 5, buf, sizeof buf), "; did you mean 'pack'?");
    assert_string_equal(op_did_you_mean("zzzz", names, 5, buf, sizeof buf), "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_defaults),
        cmocka_unit_test(test_no_defaults),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_bad_value),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_unparsed),
        cmocka_unit_test(test_nearest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
