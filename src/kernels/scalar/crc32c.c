/* SPDX-License-Identifier: Apache-2.0 */
/* crc32c.c -- the portable CRC-32C kernel (kernels/crc32c.h): slicing by 8, eight table lookups
 * per 8 bytes, over tables built once from the polynomial. */
#include "kernels/crc32c.h"

#include <pthread.h>

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* table[0] is the byte-at-a-time table of the reflected polynomial; table[k][b] is the CRC of
 * byte b followed by k zero bytes, so eight lookups fold eight bytes at once. */
static void build_table(void) {
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int i = 0; i < 8; i++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
        table[0][b] = c;
    }
    for (int k = 1; k < 8; k++)
        for (uint32_t b = 0; b < 256; b++)
            table[k][b] = (table[k - 1][b] >> 8) ^ table[0][table[k - 1][b] & 0xFF];
}

uint32_t tx__crc32c_scalar(uint32_t crc, const void *data, size_t n) {
    pthread_once(&table_once, build_table);
    const unsigned char *p = data;
    uint32_t c = ~crc;
    for (; n >= 8; n -= 8, p += 8) {
        /* little-endian assembly, whatever the host's order */
        const uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                                 (uint32_t)p[3] << 24);
        c = table[7][lo & 0xFF] ^ table[6][(lo >> 8) & 0xFF] ^ table[5][(lo >> 16) & 0xFF] ^
            table[4][lo >> 24] ^ table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^
            table[0][p[7]];
    }
    for (; n > 0; n--, p++) c = (c >> 8) ^ table[0][(c ^ *p) & 0xFF];
    return ~c;
}
