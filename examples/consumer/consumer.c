/* SPDX-License-Identifier: Apache-2.0 */
/* consumer.c -- the README's C example: make a tensor, reshape it (a view), print the result,
 * and show how errors read.  Built out of tree against the installed library by the tests. */
#include <stdio.h>
#include <tensorx.h>

int main(void) {
    const float data[6] = {1, 2, 3, 4, 5, 6};
    const int64_t dims[1] = {6}, shape_dims[1] = {2};
    const int32_t new_shape[2] = {2, -1};
    tx_tensor *x = NULL, *shape = NULL, *y = NULL;
    if (tx_tensor_from_data(TX_FLOAT32, 1, dims, data, sizeof data, &x) != TX_OK ||
        tx_tensor_from_data(TX_INT32, 1, shape_dims, new_shape, sizeof new_shape, &shape) != TX_OK)
        return 1;
    tx_status st = tx_reshape(x, shape, &y); /* y shares x's buffer: no copy */
    if (st != TX_OK) {
        fprintf(stderr, "%s: %s\n", tx_status_name(st), tx_last_error());
        return 1;
    }
    printf("reshape: %lldx%lld %s\n", (long long)tx_tensor_dim(y, 0), (long long)tx_tensor_dim(y, 1),
           tx_tensor_shares_buffer(x, y) ? "view" : "copy");
    tx_tensor *bad = NULL;
    const int32_t two_unknowns[3] = {3, -1, -1};
    const int64_t three[1] = {3};
    tx_tensor_free(shape);
    tx_tensor_from_data(TX_INT32, 1, three, two_unknowns, sizeof two_unknowns, &shape);
    st = tx_reshape(x, shape, &bad); /* fails: bad stays NULL */
    printf("error: %s: %s\n", tx_status_name(st), tx_last_error());
    tx_tensor_free(x);
    tx_tensor_free(shape);
    tx_tensor_free(y);
    tx_shutdown(); /* joins tensorx's worker threads, empties its allocation cache */
    return 0;
}
