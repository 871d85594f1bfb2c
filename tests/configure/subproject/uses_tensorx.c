/* SPDX-License-Identifier: Apache-2.0 */
/* uses_tensorx.c -- the subproject check's program: the library links and runs, and its version
 * is the header's. */
#include <stdio.h>
#include <tensorx.h>

int main(void) {
    const float v[4] = {1, 2, 3, 4};
    tx_tensor *x = NULL, *y = NULL;
    if (tx_tensor_from_data(TX_FLOAT32, 2, (const int64_t[]){2, 2}, v, sizeof v, &x) != TX_OK ||
        tx_transpose(x, NULL, 0, &y) != TX_OK)
        return 1;
    const float *t = tx_tensor_data(y);
    int ok = t[0] == 1 && t[1] == 3 && t[2] == 2 && t[3] == 4 && tx_version_number() == TX_VERSION_NUMBER;
    printf("tensorx %s: transpose %s\n", tx_version_string(), ok ? "ok" : "WRONG");
    tx_tensor_free(x);
    tx_tensor_free(y);
    return ok ? 0 : 1;
}
