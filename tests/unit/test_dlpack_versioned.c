/* SPDX-License-Identifier: Apache-2.0 */
/* test_dlpack_versioned.c -- DLPack 1.x: the versioned struct and its read-only flag (read-only
 * imports, exports of read-only tensors), its errors and allocation failures.  A build without
 * DLPack (TX_WITH_DLPACK) has nothing to run here; test_dlpack.c checks its stubs. */
#include "dlpack_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- DLPack 1.x: the versioned struct and read-only memory ---- */

#if TX_HAVE_DLPACK
/* t cannot leave through the unversioned export (its consumer could write); the versioned export
 * gives the same bytes with DLPACK_FLAG_BITMASK_READ_ONLY. */
static void assert_export_read_only(const tx_tensor *t) {
    struct DLManagedTensor *m = (struct DLManagedTensor *)&m; /* must come back NULL */
    tu_assert_error(tx_tensor_to_dlpack(t, &m), TX_INVALID_ARGUMENT, "to_dlpack: t is read-only");
    assert_null(m);
    DLManagedTensorVersioned *v = NULL;
    assert_int_equal(tx_tensor_to_dlpack_versioned(t, &v), TX_OK);
    assert_int_equal(v->version.major, 1);
    assert_int_equal(v->version.minor, 0);
    assert_int_equal(v->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
    assert_ptr_equal(v->dl_tensor.data, tx_tensor_data_const(t));
    /* Imported back, it is still read-only. */
    tx_tensor *back = NULL;
    assert_int_equal(tx_tensor_from_dlpack_versioned(v, &back), TX_OK);
    assert_ptr_equal(tx_tensor_data_const(back), tx_tensor_data_const(t));
    assert_false(tx_tensor_is_writable(back));
    tx_tensor_free(back); /* calls v's deleter */
    /* A copy is writable and leaves through either export. */
    tx_tensor *c = NULL;
    assert_int_equal(tx_tensor_copy(t, &c), TX_OK);
    assert_int_equal(tx_tensor_to_dlpack(c, &m), TX_OK);
    m->deleter(m);
    assert_int_equal(tx_tensor_to_dlpack_versioned(c, &v), TX_OK);
    assert_int_equal(v->flags, 0);
    v->deleter(v);
    tx_tensor_free(c);
}

static void test_versioned_import_read_only(void **state) {
    (void)state;
    int deleted = 0;
    /* Row-major: used in place, read-only, and so are its views. */
    vproducer *p = make_vproducer(kDLInt, 16, 2, TU_DIMS(3, 4), NULL, 64, 8,
                                  DLPACK_FLAG_BITMASK_READ_ONLY, &deleted);
    tx_tensor *t = NULL, *flat = NULL, *shape = tu_i64(1, TU_DIMS(12));
    assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
    assert_ptr_equal(tx_tensor_data_const(t), (char *)p->block + 8);
    tu_assert_shape(t, TX_INT16, 2, TU_DIMS(3, 4));
    tu_assert_read_only(t);
    assert_export_read_only(t);
    assert_int_equal(tx_reshape(t, shape, &flat), TX_OK);
    assert_export_read_only(flat);
    /* The versioned export holds the producer's memory like any view. */
    DLManagedTensorVersioned *v = NULL;
    assert_int_equal(tx_tensor_to_dlpack_versioned(flat, &v), TX_OK);
    tx_tensor_free(t);
    tx_tensor_free(flat);
    assert_int_equal(deleted, 0);
    v->deleter(v);
    assert_int_equal(deleted, 1);
    tx_tensor_free(shape);

    /* Copied (transposed strides): the copy is read-only too, whatever the layout. */
    deleted = 0;
    p = make_vproducer(kDLInt, 32, 2, TU_DIMS(2, 3), TU_DIMS(1, 2), 24, 0,
                       DLPACK_FLAG_BITMASK_READ_ONLY, &deleted);
    int32_t *blk = p->block;
    for (int i = 0; i < 6; i++) blk[i] = i;
    assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
    assert_int_equal(deleted, 1);
    tu_assert_values(t, TU_VALS(0, 2, 4, 1, 3, 5));
    tu_assert_read_only(t);
    tx_tensor_free(t);

    /* Without the flag (IS_COPIED alone says nothing about writing), and through the
     * unversioned struct, which cannot carry it: writable, in place. */
    uint64_t writable_flags[2] = {0, DLPACK_FLAG_BITMASK_IS_COPIED};
    for (int k = 0; k < 2; k++) {
        deleted = 0;
        p = make_vproducer(kDLFloat, 32, 1, TU_DIMS(4), NULL, 16, 0, writable_flags[k], &deleted);
        assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
        tu_assert_writable(t);
        assert_ptr_equal(tx_tensor_data(t), p->block);
        tx_tensor_free(t);
        assert_int_equal(deleted, 1);
    }
    deleted = 0;
    producer *u = make_producer(kDLFloat, 32, 1, TU_DIMS(4), NULL, 16, 0, &deleted);
    assert_int_equal(tx_tensor_from_dlpack(&u->m, &t), TX_OK);
    tu_assert_writable(t);
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);
}

static void test_versioned_import_errors(void **state) {
    (void)state;
    int deleted = 0;
    tx_tensor *t = NULL;
    tu_assert_error(tx_tensor_from_dlpack_versioned(NULL, &t), TX_INVALID_ARGUMENT,
                    "from_dlpack_versioned: managed is NULL");
    vproducer *p = make_vproducer(kDLInt, 8, 1, TU_DIMS(4), NULL, 4, 0, 0, &deleted);
    tu_assert_error(tx_tensor_from_dlpack_versioned(&p->m, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    /* Another major version is another layout: refused, and the deleter stays the caller's. */
    const uint32_t majors[2] = {0, 2};
    for (int k = 0; k < 2; k++) {
        p->m.version.major = majors[k];
        t = (tx_tensor *)&t;
        tu_assert_error(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_UNIMPLEMENTED,
                        "DLPack major version");
        assert_null(t);
        assert_int_equal(deleted, 0);
    }
    /* The DLTensor checks are tx_tensor_from_dlpack's, named after this function. */
    p->m.version.major = 1;
    p->m.version.minor = 7; /* a later minor version keeps the layout */
    p->m.dl_tensor.device.device_type = kDLCUDA;
    tu_assert_error(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_UNIMPLEMENTED,
                    "from_dlpack_versioned: device type 2 is not the CPU");
    p->m.dl_tensor.device.device_type = kDLCPU;
    p->m.dl_tensor.dtype.lanes = 4;
    tu_assert_error(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_INVALID_ARGUMENT,
                    "from_dlpack_versioned: dtype has 4 lanes");
    assert_int_equal(deleted, 0);
    p->m.dl_tensor.dtype.lanes = 1;
    assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);
}

static void test_versioned_export(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT64, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6)), *back = NULL;
    DLManagedTensorVersioned *v = NULL;
    assert_int_equal(tx_tensor_to_dlpack_versioned(x, &v), TX_OK);
    assert_int_equal(v->version.major, 1);
    assert_int_equal(v->version.minor, 0);
    assert_int_equal(v->flags, 0); /* writable */
    const DLTensor *dl = &v->dl_tensor;
    assert_ptr_equal(dl->data, tx_tensor_data(x));
    assert_int_equal(dl->device.device_type, kDLCPU);
    assert_int_equal(dl->dtype.code, kDLFloat);
    assert_int_equal(dl->dtype.bits, 64);
    assert_int_equal(dl->ndim, 2);
    assert_int_equal(dl->shape[1], 3);
    assert_int_equal(dl->strides[0], 3);
    assert_int_equal(dl->strides[1], 1);
    void *data = tx_tensor_data(x);
    tx_tensor_free(x); /* the export keeps the buffer */
    assert_int_equal(tx_tensor_from_dlpack_versioned(v, &back), TX_OK);
    assert_ptr_equal(tx_tensor_data(back), data); /* a round trip without a copy, still writable */
    tu_assert_values(back, TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor_free(back);
    /* Errors. */
    tx_tensor *s = tu_strings(1, TU_DIMS(1), (const char *const[]){"a"});
    v = (DLManagedTensorVersioned *)&v;
    tu_assert_error(tx_tensor_to_dlpack_versioned(s, &v), TX_UNIMPLEMENTED,
                    "to_dlpack_versioned: string has no DLPack dtype");
    assert_null(v);
    tu_assert_error(tx_tensor_to_dlpack_versioned(NULL, &v), TX_INVALID_ARGUMENT,
                    "to_dlpack_versioned: t is NULL");
    tu_assert_error(tx_tensor_to_dlpack_versioned(s, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tx_tensor_free(s);
}

/* Every read-only tensor the library makes: a mapped window and its views, a mapped string and
 * unpack's view of its bytes.  None leaves through the unversioned export. */
static void test_read_only_export_refused(void **state) {
    (void)state;
    unsigned char data[32];
    for (int i = 0; i < 32; i++) data[i] = (unsigned char)(3 * i);
    char *path = temp_file(data, sizeof data);
    tx_tensor *t = NULL, *v = NULL, *parts[3] = {NULL, NULL, NULL};
    for (int swapped = 0; swapped < 2; swapped++) {
        assert_int_equal(tx_file_map(path, 4, TX_INT32, 2, TU_DIMS(2, 3), swapped, &t), TX_OK);
        assert_export_read_only(t);
        assert_int_equal(tx_bitcast(t, TX_UINT16, &v), TX_OK);
        assert_export_read_only(v);
        tx_tensor_free(v);
        assert_int_equal(tx_squeeze(t, NULL, 0, &v), TX_OK);
        assert_export_read_only(v);
        tx_tensor_free(v);
        assert_int_equal(tx_expand_dims(t, -1, &v), TX_OK);
        assert_export_read_only(v);
        tx_tensor_free(v);
        assert_int_equal(tx_tensor_ref(t, &v), TX_OK);
        assert_export_read_only(v);
        tx_tensor_free(v);
        tx_tensor_free(t);
    }
    assert_int_equal(tx_file_map_string(path, 0, 32, &t), TX_OK);
    assert_int_equal(tx_string_tensor_unpack(t, parts), TX_OK);
    assert_export_read_only(parts[2]);
    for (int i = 0; i < 3; i++) tx_tensor_free(parts[i]);
    tx_tensor_free(t);
    unlink(path);
}

/* Allocation failure in the versioned import and export: resource_exhausted, nothing leaked,
 * the producer's deleter not called. */
static void test_versioned_alloc_failure(void **state) {
    (void)state;
    tx_tensor *src = tu_tensor(TX_INT32, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6));
    tu_alloc_install();
    for (int mode = 0; mode < 3; mode++) {
        for (long k = 1;; k++) {
            int deleted = 0;
            vproducer *p = mode == 0 ? make_vproducer(kDLInt, 32, 2, TU_DIMS(2, 3), NULL, 24, 0,
                                                      DLPACK_FLAG_BITMASK_READ_ONLY, &deleted)
                         : mode == 1 ? make_vproducer(kDLInt, 32, 2, TU_DIMS(2, 3), TU_DIMS(1, 2), 24,
                                                      0, DLPACK_FLAG_BITMASK_READ_ONLY, &deleted)
                                     : NULL;
            tu_alloc_fail_at(k);
            tx_tensor *t = NULL;
            DLManagedTensorVersioned *m = NULL;
            tx_status st = mode < 2 ? tx_tensor_from_dlpack_versioned(&p->m, &t)
                                    : tx_tensor_to_dlpack_versioned(src, &m);
            tu_alloc_fail_at(0);
            if (st == TX_OK) {
                if (t) assert_false(tx_tensor_is_writable(t));
                tx_tensor_free(t);
                if (m) m->deleter(m);
                if (p) assert_int_equal(deleted, 1);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(t);
            assert_null(m);
            assert_int_equal(tu_alloc_live(), 0);
            if (p) {
                assert_int_equal(deleted, 0);
                p->m.deleter(&p->m);
            }
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(src);
}

#endif /* TX_HAVE_DLPACK */

int main(void) {
#if TX_HAVE_DLPACK
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versioned_import_read_only),
        cmocka_unit_test(test_versioned_import_errors),
        cmocka_unit_test(test_versioned_export),
        cmocka_unit_test(test_read_only_export_refused),
        cmocka_unit_test(test_versioned_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#else
    return 0;
#endif
}
