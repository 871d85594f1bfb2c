/* SPDX-License-Identifier: Apache-2.0 */
/* string_pack.c -- string tensors to and from the flat form that inference runtimes pass around
 * (OpenVINO's StringTensorUnpack / StringTensorPack): a [2, 2] string tensor becomes begins,
 * ends (int32, [2, 2]) and one uint8 buffer of symbols, and packing those gives the strings back.
 * The strings may hold any byte, NUL included.  The program checks the round trip and the flat
 * form, and exits non-zero on a mismatch.  usage: string_pack */
#include <stdio.h>
#include <string.h>
#include <tensorx.h>

static int check(tx_status st, const char *what) {
    if (st != TX_OK) fprintf(stderr, "%s: %s: %s\n", what, tx_status_name(st), tx_last_error());
    return st != TX_OK;
}

int main(void) {
    const char *words[4] = {"Intel", "OpenVINO", "", "a\0b"};
    const size_t lens[4] = {5, 8, 0, 3};
    const int64_t dims[2] = {2, 2};
    tx_tensor *strings = NULL, *flat[3] = {NULL, NULL, NULL}, *back = NULL;
    int bad = check(tx_tensor_new_strings(2, dims, words, lens, &strings), "strings") ||
              check(tx_string_tensor_unpack(strings, flat), "unpack") ||
              check(tx_string_tensor_pack(flat[0], flat[1], flat[2], &back), "pack");
    if (!bad) {
        const int32_t *b = tx_tensor_data_const(flat[0]), *e = tx_tensor_data_const(flat[1]);
        const char *sym = tx_tensor_data_const(flat[2]); /* a read-only view */
        bad = tx_tensor_numel(flat[2]) != 16 || memcmp(sym, "IntelOpenVINOa\0b", 16) != 0;
        for (int i = 0; i < 4 && !bad; i++) {
            const tx_string *s = tx_tensor_string(back, i);
            bad = e[i] - b[i] != (int32_t)lens[i] || s->size != lens[i] || memcmp(s->data, words[i], lens[i]) != 0;
        }
        if (bad) fprintf(stderr, "pack(unpack(x)) != x\n");
        else printf("string_pack: 4 strings <-> %lld symbol bytes, round trip exact\n",
                    (long long)tx_tensor_numel(flat[2]));
    }
    tx_tensor_free(strings);
    for (int i = 0; i < 3; i++) tx_tensor_free(flat[i]);
    tx_tensor_free(back);
    tx_shutdown(); /* joins tensorx's worker threads, empties its allocation cache */
    return bad;
}
