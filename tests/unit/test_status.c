/* SPDX-License-Identifier: Apache-2.0 */
/* test_status.c -- the one status list: the library's statuses (TX_STATUS_LIST), the tools' own
 * (OP_STATUS_LIST, which the CLI and the Python package use) and the library's internal plan
 * status have distinct codes and names, and each name function gives the list's names. */
#include "testutil.h"
#include "core/internal.h"
#include "opreg.h"

#include <string.h>

/* Every code in one switch: two equal codes are duplicate case labels, which do not compile. */
static int known(int code) {
    switch (code) {
#define CASE(NAME, code, name) \
    case code: return 1;
        TX_STATUS_LIST(CASE)
        OP_STATUS_LIST(CASE)
#undef CASE
    case (int)TX__PLANNED: return 0;
    }
    return -1;
}

typedef struct {
    int code;
    const char *name, *from_function;
} status_row;

static void test_codes_and_names_unique(void **state) {
    (void)state;
    const status_row rows[] = {
#define ROW(NAME, code, name) {code, name, tx_status_name(TX_##NAME)},
        TX_STATUS_LIST(ROW)
#undef ROW
#define ROW(NAME, code, name) {code, name, op_status_name(OP_##NAME)},
        OP_STATUS_LIST(ROW)
#undef ROW
    };
    const size_t n = sizeof rows / sizeof rows[0];
    assert_int_equal(n, 9);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(known(rows[i].code), 1);
        assert_int_not_equal(rows[i].code, (int)TX__PLANNED);
        assert_string_equal(rows[i].from_function, rows[i].name);
        assert_string_equal(op_status_name((tx_status)rows[i].code), rows[i].name);
        for (size_t j = 0; j < i; j++) {
            assert_int_not_equal(rows[i].code, rows[j].code);
            assert_true(strcmp(rows[i].name, rows[j].name) != 0);
        }
        /* The library's are TF's codes (below 1000); the tools' are 1000 and up. */
        assert_true(i < n - 2 ? rows[i].code < 1000 : rows[i].code >= 1000);
    }
    assert_string_equal(tx_status_name((tx_status)OP_USAGE), "unknown");
    assert_string_equal(tx_status_name(TX__PLANNED), "unknown");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codes_and_names_unique),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
