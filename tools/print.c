/* SPDX-License-Identifier: Apache-2.0 */
/* print.c -- numpy-repr-like printing of tensors for the CLI: array([[1, 2],\n       [3, 4]],
 * dtype=int32), floats in shortest round-trip form, strings as Python bytes literals, large
 * tensors summarised with "..." as numpy does (edge items 3 beyond 1000 elements). */
#define TX_EXPERIMENTAL_API /* the dtype table: each dtype's print format (tensorx.h) */
#include "print.h"

#include "values.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define EDGE 3
#define SUMMARY_THRESHOLD 1000

/* Whether back reads as the same value as v in the float type of print format fmt. */
static bool round_trips(double back, double v, tx_print_format fmt) {
    switch (fmt) {
    case TX_PRINT_FLOAT16: return tv_f64_to_f16(back) == tv_f64_to_f16(v);
    case TX_PRINT_BFLOAT16: return tv_f32_to_bf16((float)back) == tv_f32_to_bf16((float)v);
    case TX_PRINT_FLOAT32: return (float)back == (float)v;
    default: return back == v;
    }
}

/* Python repr of a float: the fewest significant digits that read back as the same value of the
 * tensor's dtype, positional for exponents in [-4, 16), scientific (1e+20, 1e-05) otherwise,
 * and ".0" on integral positional values. */
static void fmt_real(char *buf, size_t cap, double v, tx_print_format fmt) {
    if (isnan(v)) { snprintf(buf, cap, "nan"); return; }
    if (isinf(v)) { snprintf(buf, cap, v < 0 ? "-inf" : "inf"); return; }
    char sci[64];
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec - 1, v);
        if (round_trips(strtod(sci, NULL), v, fmt)) break;
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

/* Part `part` (0 real, 1 imaginary) of element i of a float or complex tensor, read as the
 * float type its print format names (float8, whose format is float64's, from its byte). */
static double real_at(const tx_tensor *t, const tx_dtype_info *info, int64_t i, int part) {
    const char *d = tx_tensor_data_const(t);
    size_t n = info->kind == TX_KIND_COMPLEX ? 2 : 1, w = info->size / n;
    const char *p = d + ((size_t)i * n + (size_t)part) * w;
    uint16_t h;
    float f;
    double x;
    switch (info->print) {
    case TX_PRINT_FLOAT16: memcpy(&h, p, 2); return tv_f16_to_f32(h);
    case TX_PRINT_BFLOAT16: memcpy(&h, p, 2); return tv_bf16_to_f32(h);
    case TX_PRINT_FLOAT32: memcpy(&f, p, 4); return f;
    default:
        if (w == 1) return tv_f8_to_f64((uint8_t)*p, info->id);
        memcpy(&x, p, 8);
        return x;
    }
}

/* Element i of an integer tensor: its value, as tx_tensor_get_int reads it, or the bits of a type
 * whose values pass int64 (uint64), which that refuses. */
static uint64_t int_bits_at(const tx_tensor *t, const tx_dtype_info *info, int64_t i) {
    uint64_t u = 0;
    if (info->max > INT64_MAX) {
        memcpy(&u, (const char *)tx_tensor_data_const(t) + (size_t)i * sizeof u, sizeof u);
        return u;
    }
    int64_t v = 0;
    (void)tx_tensor_get_int(t, i, &v); /* never fails: an integer dtype and i in range */
    return (uint64_t)v;
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
    const tx_dtype_info *info = tx_dtype_info_of(tx_tensor_dtype(t));
    char a[64], b[64];
    if (info == NULL) {
        fputs("?", f);
        return;
    }
    switch (info->print) {
    case TX_PRINT_BOOL:
        fputs(((const char *)tx_tensor_data_const(t))[i] ? "True" : "False", f);
        break;
    case TX_PRINT_INT: fprintf(f, "%" PRId64, (int64_t)int_bits_at(t, info, i)); break;
    case TX_PRINT_UINT: fprintf(f, "%" PRIu64, int_bits_at(t, info, i)); break;
    case TX_PRINT_BYTES: {
        const tx_string *s = tx_tensor_string(t, i);
        put_bytes(f, s->data, s->size);
        break;
    }
    default:
        if (info->kind != TX_KIND_COMPLEX) {
            fmt_real(a, sizeof a, real_at(t, info, i, 0), info->print);
            fputs(a, f);
            break;
        }
        /* Python: (1+2j), (1.5-2j); integral parts without ".0". */
        double re = real_at(t, info, i, 0), im = real_at(t, info, i, 1);
        fmt_real(a, sizeof a, re, info->print);
        fmt_real(b, sizeof b, im, info->print);
        for (char *s = a; s; s = NULL) { size_t n = strlen(s); if (n > 2 && !strcmp(s + n - 2, ".0")) s[n - 2] = 0; }
        for (char *s = b; s; s = NULL) { size_t n = strlen(s); if (n > 2 && !strcmp(s + n - 2, ".0")) s[n - 2] = 0; }
        bool neg = signbit(im) && !isnan(im);
        fprintf(f, "(%s%s%sj)", a, neg ? "" : "+", b);
        break;
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
