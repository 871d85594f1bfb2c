/* SPDX-License-Identifier: Apache-2.0 */
/* test_plan.c -- size before run (tx_plan_enter / tx_plan_leave / TX_PLAN).
 *
 * - Every representative call of op_examples.h, and a table of failing and hostile calls,
 *   through the CLI's op table: the plan agrees with the run (op_plan_agrees: same status and
 *   message, or the same outputs), plan mode leaks nothing and sets no output.
 * - Through the C API with a counting allocator: hostile shapes (tile, pad, one_hot,
 *   space_to_batch_nd, extract_image_patches) give exactly the op's error without one allocator
 *   call; successful plans of single- and multi-output ops, views, upper bounds, data-dependent
 *   sizes and string bytes record what the run then makes, also without allocating; the checked
 *   cast's value errors are found in plan mode too.
 * Both tables also go through each op's prepared form (op_prepared_agrees) where it has one.
 * The conformance suites are checked the same way by ctest's conformance.plan
 * (`tensorx conform --plan`), and every op fuzzer input by fuzz.ops. */
#include "testutil.h"

#include "opreg.h"
#include "op_examples.h"
#include "op_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a counting allocator ---- */
static long calls;

static void *count_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    calls++;
    void *p = NULL;
    return posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) ? NULL : p;
}

static void count_free(void *p, size_t size, void *ctx) {
    (void)size;
    (void)ctx;
    free(p);
}

static const tx_allocator counting = {count_alloc, count_free, NULL};

/* ---- through the op spec ---- */

/* Plans, then runs, the call; returns the run's status. */
static tx_status plan_and_run(const op_example *c) {
    op_plan_result r;
    op_args a;
    parse_case(c, &a);
    long live = tu_alloc_live();
    op_plan_run(a.def, &a, &r);
    if (tu_alloc_live() != live) fail_msg("%s %s: plan mode leaked %ld block(s)", c->op, c->args[0], tu_alloc_live() - live);
    op_outputs o = {0};
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    tx_status st = a.def->run(&a, &o);
    char why[512];
    bool agrees = op_plan_agrees(&r, st, &o, why, sizeof why);
    op_plan_result_clear(&r);
    if (!agrees) fail_msg("%s %s: %s", c->op, c->args[0], why);
    /* The prepared form, where the op has one, gives the same (docs/prepared.md). */
    if (!op_prepared_agrees(a.def, &a, st, &o, why, sizeof why))
        fail_msg("%s %s: %s", c->op, c->args[0], why);
    if (st == TX_OK && !op_outputs_bounded(&a, &o, why, sizeof why))
        fail_msg("%s %s: %s", c->op, c->args[0], why);
    /* A fixed number of outputs is the spec's (op_def.outputs). */
    size_t named = 0;
    while (named < OP_MAX_OUTPUTS && a.def->outputs[named]) named++;
    if (st == TX_OK && !a.def->outputs_list && o.n != named)
        fail_msg("%s: the op spec names %zu outputs, the run made %zu", c->op, named, o.n);
    op_outputs_clear(&o);
    op_args_clear(&a);
    return st;
}

static void test_examples_agree(void **state) {
    (void)state;
    tu_alloc_install();
    for (size_t i = 0; i < sizeof tx_op_examples / sizeof tx_op_examples[0]; i++) {
        tx_status st = plan_and_run(&tx_op_examples[i]);
        if (st != TX_OK) fail_msg("%s: the representative call fails: %s", tx_op_examples[i].op, op_error());
    }
    assert_int_equal(tu_alloc_live(), 0);
    tu_alloc_uninstall();
}

/* Calls that fail, some with results far too big to exist: the plan must give the same error. */
static const op_example failing[] = {
    {"tile", {"input=[[1,2],[3,4]]", "multiples=4611686018427387904,4"}},
    {"tile", {"input=[1,2]", "multiples=1,2"}},
    {"pad", {"tensor=[1,2]", "paddings=[[0,9223372036854775800]]"}},
    {"pad", {"tensor=[1,2]", "paddings=[[3,0]]", "mode=REFLECT"}},
    {"one_hot", {"indices=[0,1,2,3]", "depth=4611686018427387904", "dtype=float64"}},
    {"one_hot", {"indices=[0,1]", "depth=-1"}},
    {"space_to_batch_nd",
     {"input=[[[[1],[2]],[[3],[4]]]]", "block_shape=1,1", "paddings=[[0,4294967296],[0,4294967296]]"}},
    {"space_to_batch_nd", {"input=[[[[1],[2]],[[3],[4]]]]", "block_shape=3,1", "paddings=[[0,0],[0,0]]"}},
    {"extract_image_patches",
     {"images=[[[[1],[2]],[[3],[4]]]]", "ksizes=2,3,3,1", "strides=1,1,1,1", "rates=1,1,1,1", "padding=VALID"}},
    {"sequence_mask", {"lengths=[1,2]", "maxlen=4611686018427387904:int64", "dtype=float64"}},
    {"reshape", {"tensor=[1,2,3]", "shape=2,-1"}},
    {"reshape", {"tensor=[1,2,3]", "shape=[[3]]"}},
    {"gather", {"params=[1,2,3]", "indices=[0,3]"}},
    {"gather_nd", {"params=[[1,2],[3,4]]", "indices=[[0,2]]"}},
    {"split", {"value=[1,2,3]", "split_dim=0", "size_splits=1,-1,-1"}},
    {"split", {"value=[1,2,3]", "split_dim=0", "num_split=2"}},
    {"unpack", {"value=[[1,2],[3,4]]", "num=3"}},
    {"dynamic_partition", {"data=[1,2,3]", "partitions=[0,2,1]", "num_partitions=2"}},
    {"unique_with_counts", {"x=[[1,2]]"}},
    {"string_to_number", {"string_tensor=[\"1\",\"x\"]", "out_type=int32"}},
    {"string_tensor_pack", {"begins=0,2", "ends=2,9", "symbols=[1,2,3]:uint8"}},
    {"strided_slice", {"input_=[1,2,3]", "begin=0", "end=2", "strides=0"}},
    {"decode_raw", {"input_bytes=[\"abc\",\"ab\"]", "out_type=int16"}},
    {"transpose", {"a=[[1,2]]", "perm=0,0"}},
    {"boolean_mask", {"tensor=[1,2,3]", "mask=[true,false]"}},
    {"dynamic_stitch", {"indices=[0,-1]", "data=[1,2]"}},
    {"cast", {"x=[1,-2,300,-1]", "dtype=int8", "mode=checked"}},
    {"cast", {"x=[0.5,0.1]", "dtype=float16", "mode=checked", "exact_float=true"}},
    {"cast", {"x=[1.5,nan]", "dtype=int32", "mode=checked"}},
};

static void test_failing_calls_agree(void **state) {
    (void)state;
    tu_alloc_install();
    for (size_t i = 0; i < sizeof failing / sizeof failing[0]; i++)
        if (plan_and_run(&failing[i]) == TX_OK) fail_msg("%s %s: expected to fail", failing[i].op, failing[i].args[0]);
    assert_int_equal(tu_alloc_live(), 0);
    tu_alloc_uninstall();
}

/* Outputs with more dims than op_plan_result holds in place (20 outputs of rank 30: 600 dims):
 * op_plan_run plans again with room for all of them, and the plan agrees with the run. */
static void test_many_dims_agree(void **state) {
    (void)state;
    char value[160] = "value=";
    for (int d = 0; d < 29; d++) strcat(value, "[");
    strcat(value, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]");
    for (int d = 0; d < 29; d++) strcat(value, "]");
    const op_example c = {"split", {value, "split_dim=29", "num_split=20"}};
    tu_alloc_install();
    assert_int_equal(plan_and_run(&c), TX_OK);
    op_args a;
    parse_case(&c, &a);
    op_plan_result r;
    op_plan_run(a.def, &a, &r);
    assert_int_equal(r.st, TX_OK);
    assert_int_equal(r.plan.count, 20);
    assert_int_equal(r.plan.dims_count, 600);
    assert_true(r.plan.dims_count > OP_PLAN_DIMS);
    assert_non_null(r.dims_heap);
    assert_ptr_equal(r.info[19].dims, r.dims_heap + 570);
    assert_int_equal(r.info[19].dims[29], 1);
    op_plan_result_clear(&r);
    op_args_clear(&a);
    assert_int_equal(tu_alloc_live(), 0);
    tu_alloc_uninstall();
}

/* ---- through the C API ---- */
#define CAP 8
static tx_output_info info[CAP];
#define DIMS_CAP (CAP * TX_MAX_RANK)
static int64_t plan_dims[DIMS_CAP];
static tx_plan plan = TX_PLAN_INIT(info, CAP, plan_dims, DIMS_CAP);

/* Plans `call` (which writes *outp), asserting no allocator call and no output; then the caller
 * runs the same call and compares. */
#define PLAN(call, outp)                                                                         \
    do {                                                                                         \
        calls = 0;                                                                               \
        *(outp) = (tx_tensor *)&calls; /* ops must reset it */                                   \
        plan_st = TX_PLAN(&plan, call);                                                          \
        snprintf(plan_msg, sizeof plan_msg, "%s", plan_st == TX_OK ? "" : tx_last_error());      \
        if (calls != 0) fail_msg("%s: plan mode called the allocator %ld time(s)", #call, calls); \
        if (*(outp) != NULL) fail_msg("%s: plan mode set the output", #call);                    \
    } while (0)

static tx_status plan_st;
static char plan_msg[512];

/* The run of the same call must fail the same way. */
static void same_error(const char *what, tx_status run_st, tx_tensor *out) {
    if (run_st == TX_OK) fail_msg("%s: the run succeeded", what);
    if (plan_st != run_st || strcmp(plan_msg, tx_last_error()) != 0)
        fail_msg("%s: plan %s '%s', run %s '%s'", what, tx_status_name(plan_st), plan_msg,
                 tx_status_name(run_st), tx_last_error());
    assert_null(out);
    assert_int_equal(plan.count, 0);
    assert_int_equal(plan.dims_count, 0);
}

/* Output i of the plan describes t exactly. */
static void same_output(size_t i, const tx_tensor *t, unsigned flags) {
    assert_int_equal(plan_st, TX_OK);
    const tx_output_info *p = &info[i];
    assert_int_equal(p->dtype, tx_tensor_dtype(t));
    assert_int_equal(p->rank, tx_tensor_rank(t));
    for (size_t d = 0; d < p->rank; d++) assert_int_equal(p->dims[d], tx_tensor_dims(t)[d]);
    assert_int_equal(p->numel, tx_tensor_numel(t));
    assert_int_equal(p->nbytes, tx_tensor_nbytes(t));
    assert_int_equal(p->flags, flags);
    assert_int_equal(p->struct_size, sizeof(tx_output_info));
}

static void test_hostile_shapes(void **state) {
    (void)state;
    tx_set_allocator(&counting);
    tx_tensor *x = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 2), TU_VALS(1, 2, 3, 4)), *y = NULL;

    /* tile: 2 * 2^62 rows overflows int64; 2^31 * 2^31 floats overflow size_t. */
    tx_tensor *m = tu_i64(2, (const int64_t[]){(int64_t)1 << 62, 1});
    PLAN(tx_tile(x, m, &y), &y);
    same_error("tile int64", tx_tile(x, m, &y), y);
    tx_tensor_free(m);
    m = tu_i64(2, (const int64_t[]){(int64_t)1 << 30, (int64_t)1 << 30});
    PLAN(tx_tile(x, m, &y), &y);
    same_error("tile size_t", tx_tile(x, m, &y), y);
    tx_tensor_free(m);

    /* pad: after = INT64_MAX - 1. */
    tx_tensor *pads = tu_tensor(TX_INT64, 2, TU_DIMS(2, 2), TU_VALS(0, 0, 0, 0));
    ((int64_t *)tx_tensor_data(pads))[3] = INT64_MAX - 1;
    PLAN(tx_pad(x, pads, TX_PAD_CONSTANT, NULL, &y), &y);
    same_error("pad", tx_pad(x, pads, TX_PAD_CONSTANT, NULL, &y), y);
    tx_tensor_free(pads);

    /* one_hot: 4 x 2^61 float64 = 2^66 bytes. */
    tx_tensor *idx = tu_i32(4, (const int32_t[]){0, 1, 2, 3});
    PLAN(tx_one_hot(idx, (int64_t)1 << 61, NULL, NULL, -1, TX_FLOAT64, &y), &y);
    same_error("one_hot", tx_one_hot(idx, (int64_t)1 << 61, NULL, NULL, -1, TX_FLOAT64, &y), y);
    tx_tensor_free(idx);

    /* space_to_batch_nd: 2^40 x 2^40 padded spatial dims. */
    tx_tensor *img = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(1, 2, 2, 1), &img), TX_OK);
    tx_tensor *block = tu_i64(2, (const int64_t[]){1, 1});
    tx_tensor *sp = tu_tensor(TX_INT64, 2, TU_DIMS(2, 2), TU_VALS(0, 0, 0, 0));
    ((int64_t *)tx_tensor_data(sp))[1] = (int64_t)1 << 40;
    ((int64_t *)tx_tensor_data(sp))[3] = (int64_t)1 << 40;
    PLAN(tx_space_to_batch_nd(img, block, sp, &y), &y);
    same_error("space_to_batch_nd", tx_space_to_batch_nd(img, block, sp, &y), y);
    tx_tensor_free(block);
    tx_tensor_free(sp);
    tx_tensor_free(img);

    /* extract_image_patches: [1, 2^20, 2^20, 0] holds nothing, but 3x3 SAME patches of it would
     * be [1, 2^20, 2^20, 0] too -- use a tight limit instead: 32 x 32 SAME windows of a 32 x 32
     * image are 4 MiB of float32, over a 1 MiB limit. */
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(1, 32, 32, 1), &img), TX_OK);
    const int64_t k32[4] = {1, 32, 32, 1}, ones[4] = {1, 1, 1, 1};
    tx_set_max_tensor_bytes((size_t)1 << 20);
    PLAN(tx_extract_image_patches(img, k32, 4, ones, 4, ones, 4, TX_PADDING_SAME, &y), &y);
    same_error("extract_image_patches",
               tx_extract_image_patches(img, k32, 4, ones, 4, ones, 4, TX_PADDING_SAME, &y), y);
    tx_set_max_tensor_bytes(0);
    /* Without the limit the plan says 1 x 32 x 32 x 1024 floats, and the run agrees. */
    PLAN(tx_extract_image_patches(img, k32, 4, ones, 4, ones, 4, TX_PADDING_SAME, &y), &y);
    assert_int_equal(tx_extract_image_patches(img, k32, 4, ones, 4, ones, 4, TX_PADDING_SAME, &y), TX_OK);
    assert_int_equal(plan.count, 1);
    same_output(0, y, 0);
    assert_int_equal(info[0].nbytes, (size_t)4 << 20);
    tx_tensor_free(y);
    y = NULL;
    tx_tensor_free(img);

    /* A failure in plan mode leaves plan mode: the next call runs. */
    assert_int_equal(tx_tensor_copy(x, &y), TX_OK);
    assert_non_null(y);
    tx_tensor_free(y);
    tx_tensor_free(x);
    tx_set_allocator(NULL);
}

/* The checked cast's error comes from the values: the plan must find the same first inexact
 * element without an output to cast into, also far past the first few hundred elements. */
static void test_checked_cast(void **state) {
    (void)state;
    tx_set_allocator(&counting);
    tx_tensor *x = NULL, *y = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, 2, TU_DIMS(40, 100), &x), TX_OK);
    int32_t *v = tx_tensor_data(x);
    for (int i = 0; i < 4000; i++) v[i] = i % 200 - 100;
    v[3777] = 300;
    v[3999] = -129;
    PLAN(tx_cast_in_mode(x, TX_INT8, TX_CAST_CHECKED, 0, &y), &y);
    same_error("checked cast to int8", tx_cast_in_mode(x, TX_INT8, TX_CAST_CHECKED, 0, &y), y);
    assert_non_null(strstr(plan_msg, "element 3777 (index [37,77]) is 300"));
    /* Once every element fits, the plan records the output the run makes. */
    v[3777] = 100;
    v[3999] = -128;
    PLAN(tx_cast_in_mode(x, TX_INT8, TX_CAST_CHECKED, 0, &y), &y);
    assert_int_equal(tx_cast_in_mode(x, TX_INT8, TX_CAST_CHECKED, 0, &y), TX_OK);
    assert_int_equal(plan.count, 1);
    same_output(0, y, 0);
    tx_tensor_free(y);
    y = NULL;
    tx_tensor_free(x);

    /* float64 -> float16 with exact_float: 0.1 rounds; complex64 -> float32 drops a nonzero
     * imaginary part. */
    assert_int_equal(tx_tensor_new(TX_FLOAT64, 1, TU_DIMS(600), &x), TX_OK);
    double *d = tx_tensor_data(x);
    for (int i = 0; i < 600; i++) d[i] = i * 0.25;
    d[555] = 0.1;
    PLAN(tx_cast_in_mode(x, TX_FLOAT16, TX_CAST_CHECKED, TX_CAST_EXACT_FLOAT, &y), &y);
    same_error("checked cast to float16", tx_cast_in_mode(x, TX_FLOAT16, TX_CAST_CHECKED, TX_CAST_EXACT_FLOAT, &y), y);
    tx_tensor_free(x);
    assert_int_equal(tx_tensor_new(TX_COMPLEX64, 1, TU_DIMS(300), &x), TX_OK);
    float *c = tx_tensor_data(x);
    for (int i = 0; i < 600; i++) c[i] = i % 2 ? 0.0f : (float)i;
    c[2 * 299 + 1] = 1.0f;
    PLAN(tx_cast_in_mode(x, TX_FLOAT32, TX_CAST_CHECKED, 0, &y), &y);
    same_error("checked cast of complex64", tx_cast_in_mode(x, TX_FLOAT32, TX_CAST_CHECKED, 0, &y), y);
    tx_tensor_free(x);
    tx_set_allocator(NULL);
}

static void test_outputs(void **state) {
    (void)state;
    tx_set_allocator(&counting);
    tx_tensor *x = tu_tensor(TX_INT32, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6)), *y = NULL;

    /* A single new tensor. */
    tx_tensor *m = tu_i32(2, (const int32_t[]){2, 2});
    PLAN(tx_tile(x, m, &y), &y);
    assert_int_equal(tx_tile(x, m, &y), TX_OK);
    assert_int_equal(plan.count, 1);
    same_output(0, y, 0);
    assert_int_equal(info[0].nbytes, 4 * 6 * 4);
    tx_tensor_free(y);
    tx_tensor_free(m);

    /* Views need no data. */
    tx_tensor *shape = tu_i64(1, (const int64_t[]){6});
    PLAN(tx_reshape(x, shape, &y), &y);
    assert_int_equal(tx_reshape(x, shape, &y), TX_OK);
    same_output(0, y, TX_OUTPUT_VIEW);
    tx_tensor_free(y);
    tx_tensor_free(shape);
    PLAN(tx_expand_dims(x, 0, &y), &y);
    assert_int_equal(tx_expand_dims(x, 0, &y), TX_OK);
    same_output(0, y, TX_OUTPUT_VIEW);
    tx_tensor_free(y);
    PLAN(tx_bitcast(x, TX_UINT8, &y), &y);
    assert_int_equal(tx_bitcast(x, TX_UINT8, &y), TX_OK);
    same_output(0, y, TX_OUTPUT_VIEW);
    tx_tensor_free(y);

    /* Several outputs: all recorded before the op unwinds; more than the capacity still counts. */
    tx_tensor *outs[12] = {NULL};
    PLAN(tx_unpack(x, TX_UNPACK_INFER_NUM, 1, outs), &outs[0]);
    assert_int_equal(tx_unpack(x, TX_UNPACK_INFER_NUM, 1, outs), TX_OK);
    assert_int_equal(plan.count, 3);
    for (size_t i = 0; i < 3; i++) same_output(i, outs[i], 0);
    for (size_t i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor *wide = NULL;
    assert_int_equal(tx_tensor_new(TX_INT8, 2, TU_DIMS(2, 12), &wide), TX_OK);
    plan.capacity = 2;
    PLAN(tx_split(wide, 1, 12, outs), &outs[0]);
    assert_int_equal(plan.count, 12);
    assert_int_equal(plan.dims_count, 24);
    assert_int_equal(info[1].dims[1], 1);
    assert_ptr_equal(info[1].dims, plan_dims + 2);
    plan.capacity = CAP;
    /* Dims past dims_capacity: those outputs have NULL dims, the full dims_count says the room
     * to retry with, and the rest of each entry is filled. */
    plan.dims_capacity = 5;
    PLAN(tx_split(wide, 1, 12, outs), &outs[0]);
    assert_int_equal(plan.count, 12);
    assert_int_equal(plan.dims_count, 24);
    assert_ptr_equal(info[0].dims, plan_dims);
    assert_ptr_equal(info[1].dims, plan_dims + 2);
    assert_null(info[2].dims);
    assert_null(info[7].dims);
    assert_int_equal(info[7].rank, 2);
    assert_int_equal(info[7].nbytes, 2);
    plan.dims_capacity = DIMS_CAP;
    tx_tensor_free(wide);
    /* A scalar output has no dims: NULL, and dims_count 0. */
    tx_tensor *one = tu_i32(1, (const int32_t[]){5});
    PLAN(tx_squeeze(one, NULL, 0, &y), &y);
    assert_int_equal(plan.count, 1);
    assert_int_equal(plan.dims_count, 0);
    assert_int_equal(info[0].rank, 0);
    assert_null(info[0].dims);
    tx_tensor_free(one);
    const int64_t sizes[3] = {1, -1, 1};
    PLAN(tx_split_v(x, sizes, 3, 1, outs), &outs[0]);
    assert_int_equal(tx_split_v(x, sizes, 3, 1, outs), TX_OK);
    assert_int_equal(plan.count, 3);
    for (size_t i = 0; i < 3; i++) same_output(i, outs[i], 0);
    for (size_t i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor *a = tu_i32(2, (const int32_t[]){1, 2}), *b = tu_tensor(TX_FLOAT64, 1, TU_DIMS(3), TU_VALS(1, 2, 3));
    tx_tensor *c3 = tu_i32(3, (const int32_t[]){7, 8, 9});
    const tx_tensor *args[2] = {a, c3};
    PLAN(tx_meshgrid(args, 2, TX_MESHGRID_XY, outs), &outs[0]);
    assert_int_equal(tx_meshgrid(args, 2, TX_MESHGRID_XY, outs), TX_OK);
    assert_int_equal(plan.count, 2);
    for (size_t i = 0; i < 2; i++) same_output(i, outs[i], 0);
    for (size_t i = 0; i < 2; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(c3);
    tx_tensor *in_shape = tu_i32(2, (const int32_t[]){5, 7}), *blk = tu_i32(2, (const int32_t[]){2, 3});
    PLAN(tx_required_space_to_batch_paddings(in_shape, blk, NULL, outs), &outs[0]);
    assert_int_equal(tx_required_space_to_batch_paddings(in_shape, blk, NULL, outs), TX_OK);
    assert_int_equal(plan.count, 2);
    for (size_t i = 0; i < 2; i++) same_output(i, outs[i], 0);
    for (size_t i = 0; i < 2; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(in_shape);
    tx_tensor_free(blk);

    /* Sizes that depend on values: unique and dynamic_partition record bounds, boolean_mask and
     * string_tensor_unpack exact sizes. */
    PLAN(tx_unique_with_counts(a, TX_INT64, outs), &outs[0]);
    assert_int_equal(tx_unique_with_counts(a, TX_INT64, outs), TX_OK);
    assert_int_equal(plan.count, 3);
    assert_int_equal(info[0].flags, TX_OUTPUT_UPPER_BOUND | TX_OUTPUT_DATA_DEPENDENT);
    assert_int_equal(info[0].dims[0], 2);
    same_output(1, outs[1], 0);
    assert_int_equal(info[2].dtype, TX_INT64);
    for (size_t i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor *parts = tu_i32(3, (const int32_t[]){1, 1, 0});
    PLAN(tx_dynamic_partition(b, parts, 2, outs), &outs[0]);
    assert_int_equal(plan.count, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(info[i].dims[0], 3);
        assert_int_equal(info[i].nbytes, 24);
        assert_int_equal(info[i].flags, TX_OUTPUT_UPPER_BOUND | TX_OUTPUT_DATA_DEPENDENT);
    }
    tx_tensor_free(parts);
    tx_tensor *mask = tu_tensor(TX_BOOL, 1, TU_DIMS(3), TU_VALS(1, 0, 1));
    PLAN(tx_boolean_mask(b, mask, 0, &y), &y);
    assert_int_equal(tx_boolean_mask(b, mask, 0, &y), TX_OK);
    same_output(0, y, TX_OUTPUT_DATA_DEPENDENT);
    tx_tensor_free(y);
    tx_tensor_free(mask);
    tx_tensor *s = tu_strings(1, TU_DIMS(2), (const char *const[]){"abc", "de"});
    PLAN(tx_string_tensor_unpack(s, outs), &outs[0]);
    assert_int_equal(tx_string_tensor_unpack(s, outs), TX_OK);
    assert_int_equal(plan.count, 3);
    same_output(0, outs[0], 0);
    /* tu_strings keeps the bytes back to back in one storage: symbols is a view of them. */
    same_output(2, outs[2], TX_OUTPUT_DATA_DEPENDENT | TX_OUTPUT_VIEW);
    assert_int_equal(info[2].nbytes, 5);

    /* String bytes: pack copies the span [0, 5) of symbols; a string copy shares its bytes. */
    PLAN(tx_string_tensor_pack(outs[0], outs[1], outs[2], &y), &y);
    assert_int_equal(tx_string_tensor_pack(outs[0], outs[1], outs[2], &y), TX_OK);
    same_output(0, y, TX_OUTPUT_DATA_DEPENDENT);
    assert_int_equal(info[0].string_bytes, 5);
    tx_tensor_free(y);
    for (size_t i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    PLAN(tx_cast(s, TX_STRING, &y), &y);
    assert_int_equal(tx_cast(s, TX_STRING, &y), TX_OK);
    same_output(0, y, 0);
    assert_int_equal(info[0].string_bytes, 0);
    tx_tensor_free(y);
    tx_tensor_free(s);

    /* An op with no outputs plans to zero outputs. */
    tx_tensor *empty = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 2, TU_DIMS(0, 3), &empty), TX_OK);
    calls = 0;
    assert_int_equal(TX_PLAN(&plan, tx_unpack(empty, TX_UNPACK_INFER_NUM, 0, outs)), TX_OK);
    assert_int_equal(calls, 0);
    assert_int_equal(plan.count, 0);
    tx_tensor_free(empty);

    /* A NULL plan is no plan: the call runs. */
    assert_int_equal(TX_PLAN((tx_plan *)NULL, tx_cast(a, TX_INT64, &y)), TX_OK);
    assert_non_null(y);
    tx_tensor_free(y);
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(x);
    tx_set_allocator(NULL);
}

/* A plan whose struct sizes the library does not know (not made with TX_PLAN_INIT, or made by a
 * newer header) is refused naming the member, after the op was only validated: nothing is
 * allocated, no output is made, and the plan is not written. */
static void test_struct_sizes(void **state) {
    (void)state;
    tx_set_allocator(&counting);
    tx_tensor *x = tu_tensor(TX_INT32, 1, TU_DIMS(3), TU_VALS(1, 2, 3)), *y = NULL;
    static const struct { size_t struct_size, output_size; const char *message; } bad[] = {
        {0, sizeof(tx_output_info), "plan: plan->struct_size is 0, not the size of a tx_plan"},
        {sizeof(tx_plan) - 1, sizeof(tx_output_info), "plan->struct_size is"},
        {sizeof(tx_plan) + 8, sizeof(tx_output_info), "make it with TX_PLAN_INIT"},
        {sizeof(tx_plan), 0, "plan: plan->output_size is 0, not the size of a tx_output_info"},
        {sizeof(tx_plan), sizeof(tx_output_info) + 8, "plan->output_size is"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tx_output_info one[1];
        memset(one, 0x5A, sizeof one);
        tx_plan p = TX_PLAN_INIT(one, 1, NULL, 0);
        p.struct_size = bad[i].struct_size;
        p.output_size = bad[i].output_size;
        p.count = 77;
        calls = 0;
        y = (tx_tensor *)&calls;
        tu_assert_error(TX_PLAN(&p, tx_cast(x, TX_INT64, &y)), TX_INVALID_ARGUMENT, bad[i].message);
        assert_int_equal(calls, 0);
        assert_null(y);
        assert_int_equal(p.count, 77);
        assert_int_equal(one[0].struct_size, 0x5A5A5A5A5A5A5A5Aull);
        /* The plan's error wins over the op's own. */
        tu_assert_error(TX_PLAN(&p, tx_cast(NULL, TX_INT64, &y)), TX_INVALID_ARGUMENT, bad[i].message);
    }
    /* After a refused plan the thread is out of plan mode: the call runs. */
    assert_int_equal(tx_cast(x, TX_INT64, &y), TX_OK);
    assert_non_null(y);
    tx_tensor_free(y);
    tx_tensor_free(x);
    tx_set_allocator(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples_agree),
        cmocka_unit_test(test_failing_calls_agree),
        cmocka_unit_test(test_many_dims_agree),
        cmocka_unit_test(test_hostile_shapes),
        cmocka_unit_test(test_checked_cast),
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_struct_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
