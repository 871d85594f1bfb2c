/* SPDX-License-Identifier: Apache-2.0 */
/* harness.h -- the prelude of the C examples in the docs pages and README.md (tests/docs/c_examples.py
 * wraps each block in a function after this).  show(label, t) prints a tensor on one line as
 *   label = [[1, 2], [3, 4]] (int32)
 * and the test compares everything a block prints with its "prints:" comments. */
#include <tensorx.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest decimal form that reads back as the same value of the element's precision. */
static inline void show_real(double v, int single) {
    char buf[40];
    if (isnan(v)) {
        fputs(signbit(v) ? "-nan" : "nan", stdout);
        return;
    }
    if (isinf(v)) {
        fputs(v < 0 ? "-inf" : "inf", stdout);
        return;
    }
    int digits = 1;
    for (; digits < 17; digits++) {
        snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
        if (single ? (float)strtod(buf, NULL) == (float)v : strtod(buf, NULL) == v) break;
    }
    snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    int exp10 = atoi(strchr(buf, 'e') + 1);
    if (exp10 > -5 && exp10 < 16) /* positional notation, as NumPy prints, with those digits */
        snprintf(buf, sizeof buf, "%.*f", digits - 1 - exp10 > 0 ? digits - 1 - exp10 : 0, v);
    fputs(buf, stdout);
    if (!strpbrk(buf, ".e")) fputs(".0", stdout); /* 2.0, not 2: the reader sees a float */
}

static inline void show_element(const tx_tensor *t, const void *p, int64_t i) {
    switch (tx_tensor_dtype(t)) {
    case TX_BOOL: fputs(((const uint8_t *)p)[i] ? "true" : "false", stdout); break;
    case TX_INT8: case TX_QINT8: printf("%d", ((const int8_t *)p)[i]); break;
    case TX_UINT8: case TX_QUINT8: printf("%u", ((const uint8_t *)p)[i]); break;
    case TX_INT4: printf("%d", (int)((((const uint8_t *)p)[i] & 0xFu) ^ 8u) - 8); break;
    case TX_UINT4: printf("%u", ((const uint8_t *)p)[i] & 0xFu); break;
    case TX_INT16: case TX_QINT16: printf("%d", ((const int16_t *)p)[i]); break;
    case TX_UINT16: case TX_QUINT16: printf("%u", ((const uint16_t *)p)[i]); break;
    case TX_INT32: case TX_QINT32: printf("%" PRId32, ((const int32_t *)p)[i]); break;
    case TX_UINT32: printf("%" PRIu32, ((const uint32_t *)p)[i]); break;
    case TX_INT64: printf("%" PRId64, ((const int64_t *)p)[i]); break;
    case TX_UINT64: printf("%" PRIu64, ((const uint64_t *)p)[i]); break;
    case TX_FLOAT32: show_real(((const float *)p)[i], 1); break;
    case TX_FLOAT64: show_real(((const double *)p)[i], 0); break;
    case TX_FLOAT16: case TX_BFLOAT16: show_real(((const float *)p)[i], 1); break; /* cast below */
    case TX_COMPLEX64:
    case TX_COMPLEX128: {
        int single = tx_tensor_dtype(t) == TX_COMPLEX64;
        double re = single ? ((const float *)p)[2 * i] : ((const double *)p)[2 * i];
        double im = single ? ((const float *)p)[2 * i + 1] : ((const double *)p)[2 * i + 1];
        putchar('(');
        show_real(re, single);
        if (!signbit(im) || isnan(im)) putchar('+');
        show_real(im, single);
        fputs("j)", stdout);
        break;
    }
    case TX_STRING: {
        const tx_string *s = tx_tensor_string(t, i);
        putchar('"');
        for (uint64_t k = 0; k < s->size; k++) {
            unsigned char c = (unsigned char)s->data[k];
            if (c == '"' || c == '\\') printf("\\%c", c);
            else if (c >= 32 && c < 127) putchar(c);
            else printf("\\x%02x", c);
        }
        putchar('"');
        break;
    }
    default: fputs("?", stdout);
    }
}

static inline void show_dims(const tx_tensor *t, const void *p, size_t axis, int64_t *index) {
    if (axis == tx_tensor_rank(t)) {
        show_element(t, p, (*index)++);
        return;
    }
    putchar('[');
    for (int64_t k = 0; k < tx_tensor_dim(t, axis); k++) {
        if (k) fputs(", ", stdout);
        show_dims(t, p, axis + 1, index);
    }
    putchar(']');
}

/* Prints "label = VALUES (dtype)"; float16 and bfloat16 values are shown through float32. */
static inline void show(const char *label, const tx_tensor *t) {
    tx_tensor *wide = NULL;
    int64_t index = 0;
    printf("%s = ", label);
    if (!t) {
        puts("NULL");
        return;
    }
    tx_dtype dt = tx_tensor_dtype(t);
    if ((dt == TX_FLOAT16 || dt == TX_BFLOAT16) && tx_cast(t, TX_FLOAT32, &wide) != TX_OK) {
        printf("(%s)\n", tx_last_error());
        return;
    }
    show_dims(t, tx_tensor_data_const(wide ? wide : t), 0, &index);
    printf(" (%s)\n", tx_dtype_name(dt));
    tx_tensor_free(wide);
}
