/* SPDX-License-Identifier: Apache-2.0 */
/* sensor_be.c -- decode a big-endian sensor dump: data/sensor_be.bin holds 8 samples x 4
 * channels of big-endian int16.  The file is memory-mapped as one string (no copy), decoded with
 * tf.io.decode_raw's rule (little_endian = false), shaped [8, 4] and converted to float32.  The
 * program checks every value against a byte-by-byte decoding of its own and exits non-zero on a
 * mismatch.  usage: sensor_be [DATA_DIR] */
#include <stdio.h>
#include <string.h>
#include <tensorx.h>

static int check(tx_status st, const char *what) {
    if (st != TX_OK) fprintf(stderr, "%s: %s: %s\n", what, tx_status_name(st), tx_last_error());
    return st != TX_OK;
}

int main(int argc, char **argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/sensor_be.bin", argc > 1 ? argv[1] : "data");
    unsigned char raw[64];
    FILE *f = fopen(path, "rb");
    if (!f || fread(raw, 1, sizeof raw, f) != sizeof raw) {
        fprintf(stderr, "cannot read 64 bytes from %s\n", path);
        return 1;
    }
    fclose(f);

    tx_tensor *bytes = NULL, *flat = NULL, *shape = NULL, *samples = NULL, *volts = NULL;
    const int64_t two[1] = {2};
    const int32_t dims[2] = {8, 4};
    int bad = check(tx_file_map_string(path, 0, 64, &bytes), "map") ||
              check(tx_decode_raw(bytes, TX_INT16, 0, NULL, &flat), "decode_raw") ||
              check(tx_tensor_from_data(TX_INT32, 1, two, dims, sizeof dims, &shape), "shape") ||
              check(tx_reshape(flat, shape, &samples), "reshape") ||
              check(tx_cast(samples, TX_FLOAT32, &volts), "cast");
    if (!bad) {
        const int16_t *s = tx_tensor_data_const(samples);
        const float *v = tx_tensor_data_const(volts);
        for (int i = 0; i < 32 && !bad; i++) {
            int16_t want = (int16_t)(raw[2 * i] << 8 | raw[2 * i + 1]);
            if (s[i] != want || v[i] != (float)want) {
                fprintf(stderr, "element %d: got %d / %g, want %d\n", i, s[i], v[i], want);
                bad = 1;
            }
        }
        if (!bad)
            printf("sensor_be: %lldx%lld samples, channel 0 from %g to %g\n",
                   (long long)tx_tensor_dim(volts, 0), (long long)tx_tensor_dim(volts, 1), v[0], v[28]);
    }
    tx_tensor_free(bytes);
    tx_tensor_free(flat);
    tx_tensor_free(shape);
    tx_tensor_free(samples);
    tx_tensor_free(volts);
    tx_shutdown(); /* joins tensorx's worker threads, empties its allocation cache */
    return bad;
}
