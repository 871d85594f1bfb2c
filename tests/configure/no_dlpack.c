/* SPDX-License-Identifier: Apache-2.0 */
/* no_dlpack.c -- run by tests/configure/run.sh against a library built without the DLPack header:
 * both DLPack functions exist (same ABI) and return TX_UNIMPLEMENTED with a message that names the
 * CMake option, set *out to NULL and leave the producer's tensor alone. */
#include <stdio.h>
#include <string.h>
#include <tensorx.h>

static int fails(const char *what, tx_status st, const void *out) {
    const char *msg = tx_last_error();
    if (st == TX_UNIMPLEMENTED && out == NULL && strstr(msg, "built without DLPack") &&
        strstr(msg, "TX_WITH_DLPACK"))
        return 0;
    fprintf(stderr, "%s: got %s (%s), out %p\n", what, tx_status_name(st), msg, out);
    return 1;
}

int main(void) {
    unsigned char producer[64];
    memset(producer, 0xA5, sizeof producer);
    tx_tensor *t = (tx_tensor *)producer, *x = NULL;
    tx_status st = tx_tensor_from_dlpack((struct DLManagedTensor *)(void *)producer, &t);
    int bad = fails("from_dlpack", st, t);
    for (size_t i = 0; i < sizeof producer; i++) bad |= producer[i] != 0xA5;
    const float v[2] = {1, 2};
    if (tx_tensor_from_data(TX_FLOAT32, 1, (const int64_t[]){2}, v, sizeof v, &x) != TX_OK) return 1;
    struct DLManagedTensor *m = (struct DLManagedTensor *)(void *)producer;
    st = tx_tensor_to_dlpack(x, &m);
    bad |= fails("to_dlpack", st, m);
    tx_tensor_free(x);
    if (!bad) printf("no_dlpack: both DLPack functions return unimplemented, naming TX_WITH_DLPACK\n");
    return bad;
}
