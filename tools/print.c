/* SPDX-License-Identifier: Apache-2.0 */
/* print.c -- numpy-repr-like printing of tensors for the CLI: array([[1, 2],\n       [3, 4]],
 * dtype=int32), floats in shortest round-trip form, strings as Python bytes literals, large
 * tensors summarised with "..." as numpy does (edge items 3 beyond 1000 elements). */
#include "print.h"

#include "values.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define EDGE 3
#define SUMMARY_THRESHOLD 1000

static bool round_trips(double back, double v, tx_dtype dt) {
    if (dt == TX_FLOAT16) return tv_f64_to_f16(back) == tv_f64_to_f16(v);
    if (dt == TX_BFLOAT16) return tv_f32_to_bf16((float)back) == tv_f32_to_bf16((float)v);
    /* float8: exact digits (shortest ones would print 448 as 450.0). */
    if (dt == TX_FLOAT32 || dt == TX_COMPLEX64) return (float)back == (float)v;
    return back == v;
}

/* Python repr of a float: the fewest significant digits that read back as the same value of the
 * tensor's dtype, positional for exponents in [-4, 16), scientific (1e+20, 1e-05) otherwise,
 * and ".0" on integral positional values. */
static void fmt_real(char *buf, size_t cap, double v, tx_dtype dt) {
    if (isnan(v)) { snprintf(buf, cap, "nan"); return; }
    if (isinf(v)) { snprintf(buf, cap, v < 0 ? "-inf" : "inf"); return; }
    char sci[64];
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec - 1, v);
        if (round_trips(strtod(sci, NULL), v, dt)) break;
    }
    /* sci is [-]d[.ddd]e[+-]XX: collect the digits and the exponent. */
    char digits[32];
    size_t nd = 0;
    const char *p = sci;
    bool neg = *p == '-';
    if (neg) p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    int exp = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = '\0';
    size_t n = 0;
    if (neg) buf[n++] = '-';
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            n += (size_t)snprintf(buf + n, cap - n, "0.");
            for (int k = -1; k > exp; k--) buf[n++] = '0';
            n += (size_t)snprintf(buf + n, cap - n, "%s", digits);
        } else {
            for (int k = 0; k <= exp; k++) buf[n++] = (size_t)k < nd ? digits[k] : '0';
            buf[n++] = '.';
            if ((size_t)exp + 1 < nd) n += (size_t)snprintf(buf + n, cap - n, "%s", digits + exp + 1);
            else buf[n++] = '0';
            buf[n] = '\0';
        }
    } else {
        buf[n++] = digits[0];
        if (nd > 1) n += (size_t)snprintf(buf + n, cap - n, ".%s", digits + 1);
        snprintf(buf + n, cap - n, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    }
}

static double real_at(const tx_tensor *t, int64_t i, int part) {
    const char *d = tx_tensor_data_const(t);
    switch (tx_tensor_dtype(t)) {
    case TX_FLOAT16: { uint16_t h; memcpy(&h, d + i * 2, 2); return tv_f16_to_f32(h); }
    case TX_BFLOAT16: { uint16_t h; memcpy(&h, d + i * 2, 2); return tv_bf16_to_f32(h); }
    case TX_FLOAT8_E5M2: case TX_FLOAT8_E4M3FN: return tv_f8_to_f64((uint8_t)d[i], tx_tensor_dtype(t));
    case TX_FLOAT32: return ((const float *)d)[i];
    case TX_FLOAT64: return ((const double *)d)[i];
    case TX_COMPLEX64: return ((const float *)d)[2 * i + part];
    case TX_COMPLEX128: return ((const double *)d)[2 * i + part];
    default: return 0;
    }
}

static void put_bytes(FILE *f, const char *s, uint64_t n) {
    fputs("b'", f);
    for (uint64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '\'') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c == '\r') fputs("\\r", f);
        else if (c == '\t') fputs("\\t", f);
        else if (c < 32 || c >= 127) fprintf(f, "\\x%02x", c);
        else fputc(c, f);
    }
    fputc('\'', f);
}

void print_element(FILE *f, const tx_tensor *t, int64_t i) {
    const char *d = tx_tensor_data_const(t);
    char a[64], b[64];
    tx_dtype dt = tx_tensor_dtype(t);
    switch (dt) {
    case TX_BOOL: fputs(d[i] ? "True" : "False", f); break;
    case TX_INT8: case TX_QINT8: fprintf(f, "%d", ((const int8_t *)d)[i]); break;
    case TX_UINT8: case TX_QUINT8: fprintf(f, "%u", ((const uint8_t *)d)[i]); break;
    case TX_INT4: fprintf(f, "%d", (int)((((const uint8_t *)d)[i] & 0xFu) ^ 8u) - 8); break;
    case TX_UINT4: fprintf(f, "%u", ((const uint8_t *)d)[i] & 0xFu); break;
    case TX_INT16: case TX_QINT16: fprintf(f, "%d", ((const int16_t *)d)[i]); break;
    case TX_UINT16: case TX_QUINT16: fprintf(f, "%u", ((const uint16_t *)d)[i]); break;
    case TX_INT32: case TX_QINT32: fprintf(f, "%" PRId32, ((const int32_t *)d)[i]); break;
    case TX_UINT32: fprintf(f, "%" PRIu32, ((const uint32_t *)d)[i]); break;
    case TX_INT64: fprintf(f, "%" PRId64, ((const int64_t *)d)[i]); break;
    case TX_UINT64: fprintf(f, "%" PRIu64, ((const uint64_t *)d)[i]); break;
    case TX_FLOAT16: case TX_BFLOAT16: case TX_FLOAT32: case TX_FLOAT64:
    case TX_FLOAT8_E5M2: case TX_FLOAT8_E4M3FN:
        fmt_real(a, sizeof a, real_at(t, i, 0), dt);
        fputs(a, f);
        break;
    case TX_COMPLEX64: case TX_COMPLEX128: {
        /* Python: (1+2j), (1.5-2j); integral parts without ".0". */
        double re = real_at(t, i, 0), im = real_at(t, i, 1);
        fmt_real(a, sizeof a, re, dt);
        fmt_real(b, sizeof b, im, dt);
        for (char *s = a; s; s = NULL) { size_t n = strlen(s); if (n > 2 && !strcmp(s + n - 2, ".0")) s[n - 2] = 0; }
        for (char *s = b; s; s = NULL) { size_t n = strlen(s); if (n > 2 && !strcmp(s + n - 2, ".0")) s[n - 2] = 0; }
        bool neg = signbit(im) && !isnan(im);
        fprintf(f, "(%s%s%sj)", a, neg ? "" : "+", b);
        break;
    }
    case TX_STRING: {
        const tx_string *s = tx_tensor_string(t, i);
        put_bytes(f, s->data, s->size);
        break;
    }
    default: fputs("?", f);
    }
}

static void rec(FILE *f, const tx_tensor *t, size_t axis, int64_t base, const int64_t *strides,
                size_t indent, bool summarize) {
    size_t rank = tx_tensor_rank(t);
    const int64_t *dims = tx_tensor_dims(t);
    if (axis == rank) {
        print_element(f, t, base);
        return;
    }
    fputc('[', f);
    int64_t n = dims[axis];
    bool cut = summarize && n > 2 * EDGE;
    for (int64_t k = 0; k < n; k++) {
        if (k > 0) {
            /* numpy's separators: ", " in the last axis, ",\n" (one more newline per outer axis)
             * and an indent elsewhere. */
            if (axis + 1 == rank) fputs(", ", f);
            else {
                fputc(',', f);
                for (size_t nl = 0; nl < rank - axis - 1; nl++) fputc('\n', f);
                fprintf(f, "%*s", (int)(indent + axis + 1), "");
            }
        }
        if (cut && k == EDGE) {
            fputs("...", f);
            k = n - EDGE - 1;
            continue;
        }
        rec(f, t, axis + 1, base + k * strides[axis], strides, indent, summarize);
    }
    fputc(']', f);
}

void print_tensor(FILE *f, const tx_tensor *t) {
    size_t rank = tx_tensor_rank(t);
    const int64_t *dims = tx_tensor_dims(t);
    const char *name = tx_dtype_name(tx_tensor_dtype(t));
    if (tx_tensor_numel(t) == 0) {
        fputs("array([], ", f);
        if (rank != 1) {
            fputs("shape=(", f);
            for (size_t d = 0; d < rank; d++) fprintf(f, d ? ", %" PRId64 : "%" PRId64, dims[d]);
            fputs("), ", f);
        }
        fprintf(f, "dtype=%s)\n", name);
        return;
    }
    int64_t *strides = calloc(rank ? rank : 1, sizeof *strides);
    if (!strides) return;
    int64_t s = 1; /* products of the dims of a tensor with elements: at most its numel */
    for (size_t d = rank; d-- > 0;) {
        strides[d] = s;
        s *= dims[d];
    }
    fputs("array(", f);
    rec(f, t, 0, 0, strides, 6, tx_tensor_numel(t) > SUMMARY_THRESHOLD);
    fprintf(f, ", dtype=%s)\n", name);
    free(strides);
}
