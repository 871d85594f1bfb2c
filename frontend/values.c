/* SPDX-License-Identifier: Apache-2.0 */
/* values.c -- text to tensor elements for the CLI and the conformance runner: numbers with range
 * checks per dtype, half-precision conversions (round to nearest even), whole-file reading. */
#include "values.h"

#include "fault.h"
#include "opreg.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

uint16_t tv_f64_to_f16(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    uint16_t sign = (uint16_t)((b >> 48) & 0x8000);
    int exp = (int)((b >> 52) & 0x7FF);
    uint64_t man = b & 0xFFFFFFFFFFFFFull;
    if (exp == 0x7FF) return sign | 0x7C00 | (man ? 0x200 : 0);
    if (exp == 0) return sign;
    int e = exp - 1023;
    if (e > 15) return sign | 0x7C00;
    uint64_t full = man | (1ull << 52);
    int shift = e >= -14 ? 42 : 42 + (-14 - e);
    if (shift > 62) return sign;
    uint64_t kept = full >> shift, rem = full & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (kept & 1))) kept++;
    if (e >= -14) {
        unsigned he = (unsigned)(e + 15);
        if (kept >> 11) {
            kept >>= 1;
            he++;
        }
        if (he >= 31) return sign | 0x7C00;
        return (uint16_t)(sign | he << 10 | (kept & 0x3FF));
    }
    return (uint16_t)(sign | kept); /* subnormal; a carry into bit 10 is the smallest normal */
}

uint16_t tv_f32_to_bf16(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    if ((b & 0x7FFFFFFF) > 0x7F800000) return (uint16_t)((b >> 16) | 0x40);
    b += 0x7FFF + ((b >> 16) & 1);
    return (uint16_t)(b >> 16);
}

float tv_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1F, man = h & 0x3FF, b;
    if (exp == 0x1F) b = sign | 0x7F800000 | man << 13;
    else if (exp) b = sign | (exp + 112) << 23 | man << 13;
    else if (man) {
        float f = ldexpf((float)man, -24);
        return sign ? -f : f;
    } else b = sign;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

float tv_bf16_to_f32(uint16_t h) {
    uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* The one-byte float formats, from their definitions: mantissa bits, exponent bias, value bits,
 * and how each treats the specials. */
typedef enum f8_style {
    F8_IEEE, /* float8_e5m2: infinities and NaNs as IEEE */
    F8_FN,   /* float8_e4m3fn: no infinity, S1111111 is NaN, overflow is NaN */
    F8_FNUZ, /* one NaN 0x80, no -0, no infinity, overflow is NaN */
    F8_MX,   /* float6 / float4: no NaN or infinity, overflow saturates, NaN -> zero of other sign */
    F8_E8M0  /* exponent only: 2^(code - 127), 0xff is NaN */
} f8_style;

typedef struct f8_format {
    int mbits, bias, bits;
    f8_style style;
} f8_format;

static f8_format f8_format_of(tx_dtype dt) {
    switch (dt) {
    case TX_FLOAT8_E5M2: return (f8_format){2, 15, 8, F8_IEEE};
    case TX_FLOAT8_E4M3FN: return (f8_format){3, 7, 8, F8_FN};
    case TX_FLOAT8_E4M3FNUZ: return (f8_format){3, 8, 8, F8_FNUZ};
    case TX_FLOAT8_E4M3B11FNUZ: return (f8_format){3, 11, 8, F8_FNUZ};
    case TX_FLOAT8_E5M2FNUZ: return (f8_format){2, 16, 8, F8_FNUZ};
    case TX_FLOAT6_E2M3FN: return (f8_format){3, 1, 6, F8_MX};
    case TX_FLOAT6_E3M2FN: return (f8_format){2, 3, 6, F8_MX};
    case TX_FLOAT4_E2M1FN: return (f8_format){1, 1, 4, F8_MX};
    default: return (f8_format){0, 127, 8, F8_E8M0};
    }
}

/* The value of magnitude code `a` (exponent and mantissa fields). */
static double f8_magnitude(int a, f8_format f) {
    int ex = a >> f.mbits, m = a & ((1 << f.mbits) - 1);
    if (ex == 0) return ldexp(m, 1 - f.bias - f.mbits);
    return ldexp(m + (1 << f.mbits), ex - f.bias - f.mbits);
}

/* Written independently of the library's bit-level code (src/kernels/scalar/convert.h): scaling
 * by the value's quantum and rint() (ties to even in the default rounding mode). */
uint8_t tv_f64_to_f8(double d, tx_dtype dt) {
    f8_format f = f8_format_of(dt);
    if (f.style == F8_E8M0) {
        if (isnan(d) || d <= 0 || isinf(d)) return 0xFF;
        int e;
        double fr = frexp(d, &e);                 /* d = fr * 2^e, fr in [0.5, 1) */
        int k = e - 1 + (fr >= 0.75);             /* nearest power of two, halfway rounds up */
        return k > 127 ? 0xFF : k < -127 ? 0 : (uint8_t)(k + 127);
    }
    int sbit = 1 << (f.bits - 1), maxcode = f.style == F8_IEEE ? 0x7B : f.style == F8_FN ? 0x7E
                                                                                     : sbit - 1;
    uint8_t sign = signbit(d) ? (uint8_t)sbit : 0;
    double maxv = f8_magnitude(maxcode, f);
    if (isnan(d)) {
        switch (f.style) {
        case F8_IEEE: return sign | 0x7E;
        case F8_FN: return sign | 0x7F;
        case F8_FNUZ: return 0x80;
        default: return (uint8_t)(sign ^ sbit);
        }
    }
    int over = f.style == F8_IEEE ? sign | 0x7C : f.style == F8_FN ? sign | 0x7F
             : f.style == F8_FNUZ ? 0x80 : sign | maxcode;
    double a = fabs(d);
    if (isinf(a)) return (uint8_t)over;
    int emin = 1 - f.bias, e;
    uint8_t zero = f.style == F8_FNUZ ? 0 : sign;
    if (a == 0) return zero;
    frexp(a, &e); /* a = f * 2^e with f in [0.5, 1): the leading bit is 2^(e-1) */
    int qexp = (e - 1 < emin ? emin : e - 1) - f.mbits;
    double r = ldexp(rint(ldexp(a, -qexp)), qexp); /* exact scaling, one rounding */
    if (r > maxv) return (uint8_t)over;
    if (r == 0) return zero;
    frexp(r, &e);
    if (e - 1 < emin) return (uint8_t)(sign | (int)ldexp(r, -(emin - f.mbits))); /* subnormal */
    int frac = (int)ldexp(r, f.mbits - (e - 1)) - (1 << f.mbits);
    return (uint8_t)(sign | ((e - 1 + f.bias) << f.mbits) | frac);
}

double tv_f8_to_f64(uint8_t b, tx_dtype dt) {
    f8_format f = f8_format_of(dt);
    switch (f.style) {
    case F8_E8M0: return b == 0xFF ? NAN : ldexp(1.0, b - 127);
    case F8_FNUZ: if (b == 0x80) return -NAN; break; /* read as a negative NaN, as ml_dtypes does */
    case F8_IEEE:
        if ((b & 0x7F) > 0x7C) return b & 0x80 ? -NAN : NAN;
        if ((b & 0x7F) == 0x7C) return b & 0x80 ? -INFINITY : INFINITY;
        break;
    case F8_FN: if ((b & 0x7F) == 0x7F) return b & 0x80 ? -NAN : NAN; break;
    case F8_MX: break;
    }
    int sbit = 1 << (f.bits - 1);
    double v = f8_magnitude(b & (sbit - 1), f);
    return b >= sbit ? -v : v; /* any bit at or above the sign bit reads as negative (ml_dtypes) */
}

static bool parse_double(const char *s, double *out) {
    if (!s || !*s) return false;
    const char *p = s;
    int neg = 0;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if (!strcasecmp(p, "nan")) { *out = neg ? -NAN : NAN; return true; }
    if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) { *out = neg ? -INFINITY : INFINITY; return true; }
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *end == '\0' && end != s;
}

static bool parse_float(const char *s, float *out) {
    double d;
    if (!parse_double(s, &d)) return false;
    if (isnan(d) || isinf(d)) { *out = (float)d; return true; }
    char *end;
    *out = strtof(s, &end); /* direct decimal -> float rounding, no double rounding */
    return true;
}

static bool parse_int(const char *s, long long lo, unsigned long long hi, unsigned long long *bits) {
    if (!s || !*s) return false;
    if (!strcmp(s, "true") || !strcmp(s, "True")) { *bits = 1; return hi >= 1; }
    if (!strcmp(s, "false") || !strcmp(s, "False")) { *bits = 0; return true; }
    char *end;
    errno = 0;
    if (s[0] == '-') {
        long long v = strtoll(s, &end, 10);
        if (*end || errno || v < lo) return false;
        *bits = (unsigned long long)v;
        return true;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > hi) return false;
    *bits = v;
    return true;
}

tx_status tv_set_number(tx_tensor *t, int64_t i, const char *re, const char *im) {
    char *d = (char *)tx_tensor_data(t);
    tx_dtype dt = tx_tensor_dtype(t);
    size_t w = tx_dtype_size(dt);
    unsigned long long u;
    double x, y = 0;
    float f, g = 0;
    switch (dt) {
#define INT_CASE(E, T, LO, HI)                                                                    \
    case E: {                                                                                     \
        if (!parse_int(re, LO, HI, &u))                                                           \
            return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a valid %s value", re, tx_dtype_name(dt)); \
        T v = (T)u;                                                                               \
        memcpy(d + i * (int64_t)w, &v, sizeof v);                                                 \
        return TX_OK;                                                                             \
    }
    INT_CASE(TX_BOOL, uint8_t, 0, 1)
    INT_CASE(TX_INT8, int8_t, INT8_MIN, INT8_MAX)
    INT_CASE(TX_QINT8, int8_t, INT8_MIN, INT8_MAX)
    INT_CASE(TX_UINT8, uint8_t, 0, UINT8_MAX)
    INT_CASE(TX_QUINT8, uint8_t, 0, UINT8_MAX)
    INT_CASE(TX_INT16, int16_t, INT16_MIN, INT16_MAX)
    INT_CASE(TX_QINT16, int16_t, INT16_MIN, INT16_MAX)
    INT_CASE(TX_UINT16, uint16_t, 0, UINT16_MAX)
    INT_CASE(TX_QUINT16, uint16_t, 0, UINT16_MAX)
    INT_CASE(TX_INT32, int32_t, INT32_MIN, INT32_MAX)
    INT_CASE(TX_QINT32, int32_t, INT32_MIN, INT32_MAX)
    INT_CASE(TX_UINT32, uint32_t, 0, UINT32_MAX)
    INT_CASE(TX_INT64, int64_t, INT64_MIN, INT64_MAX)
    INT_CASE(TX_UINT64, uint64_t, 0, UINT64_MAX)
#undef INT_CASE
    case TX_INT4: /* the value in the low bits, zeros above, as TF 2.21 stores it */
    case TX_UINT4:
    case TX_INT2:
    case TX_UINT2: {
        int bits = dt == TX_INT4 || dt == TX_UINT4 ? 4 : 2;
        bool is_signed = dt == TX_INT4 || dt == TX_INT2;
        int64_t lo = is_signed ? -(1 << (bits - 1)) : 0;
        int64_t hi = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
        if (!parse_int(re, lo, hi, &u))
            return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a valid %s value", re, tx_dtype_name(dt));
        d[i] = (char)(u & ((1u << bits) - 1u));
        return TX_OK;
    }
    case TX_FLOAT32:
    case TX_COMPLEX64:
        if (!parse_float(re, &f) || (im && !parse_float(im, &g)))
            return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a valid %s value", re, tx_dtype_name(dt));
        memcpy(d + i * (int64_t)w, &f, 4);
        if (dt == TX_COMPLEX64) memcpy(d + i * (int64_t)w + 4, &g, 4);
        return TX_OK;
    case TX_FLOAT64:
    case TX_COMPLEX128:
    case TX_FLOAT16:
    case TX_BFLOAT16:
        if (!parse_double(re, &x) || (im && !parse_double(im, &y)))
            return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a valid %s value", re, tx_dtype_name(dt));
        if (dt == TX_FLOAT16 || dt == TX_BFLOAT16) {
            uint16_t h;
            if (dt == TX_FLOAT16) h = tv_f64_to_f16(x);
            else if (parse_float(re, &f)) /* bfloat16: from the float32 value */
                h = tv_f32_to_bf16(f);
            else
                return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a valid %s value", re, tx_dtype_name(dt));
            memcpy(d + i * 2, &h, 2);
            return TX_OK;
        }
        memcpy(d + i * (int64_t)w, &x, 8);
        if (dt == TX_COMPLEX128) memcpy(d + i * (int64_t)w + 8, &y, 8);
        return TX_OK;
    case TX_FLOAT8_E5M2:
    case TX_FLOAT8_E4M3FN:
    case TX_FLOAT8_E4M3FNUZ:
    case TX_FLOAT8_E4M3B11FNUZ:
    case TX_FLOAT8_E5M2FNUZ:
    case TX_FLOAT8_E8M0FNU:
    case TX_FLOAT6_E2M3FN:
    case TX_FLOAT6_E3M2FN:
    case TX_FLOAT4_E2M1FN:
        if (!parse_double(re, &x) || im)
            return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a valid %s value", re, tx_dtype_name(dt));
        ((uint8_t *)d)[i] = tv_f64_to_f8(x, dt);
        return TX_OK;
    default:
        return op_fail(TX_INVALID_ARGUMENT, "cannot set a %s element from a number", tx_dtype_name(dt));
    }
}

tx_status tv_read_file(const char *path, char **data, size_t *size) {
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return op_fail_io("read", path, errno);
    struct stat sb;
    int err = fstat(fd, &sb) != 0 ? errno : S_ISDIR(sb.st_mode) ? EISDIR : 0;
    /* A regular file is read into one block of its size (+1 to see the end without growing). */
    size_t cap = !err && S_ISREG(sb.st_mode) && sb.st_size > 0 && (uint64_t)sb.st_size < SIZE_MAX
                     ? (size_t)sb.st_size + 1
                     : (size_t)1 << 16,
           n = 0;
    char *buf = err ? NULL : malloc(cap);
    bool oom = !err && !buf;
    while (buf) {
        if (n == cap) {
            char *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                oom = true;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) err = errno;
        if (got <= 0) break;
        n += (size_t)got;
    }
    if (!is_stdin) close(fd);
    if (err || oom) {
        free(buf);
        return err ? op_fail_io("read", path, err)
                   : op_fail(TX_RESOURCE_EXHAUSTED, "out of memory reading '%s'", path);
    }
    *data = buf;
    *size = n;
    return TX_OK;
}

tx_status tv_load_npy(const char *path, tx_tensor **out) {
    *out = NULL;
    bool is_stdin = strcmp(path, "-") == 0;
    /* Opened here for the CLI's error classes (io_error with the system's reason); the library
     * then maps the file or reads it straight into the tensor. */
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return op_fail_io("read", path, errno);
    struct stat sb;
    int err = fstat(fd, &sb) != 0 ? errno : S_ISDIR(sb.st_mode) ? EISDIR : 0;
    if (!is_stdin) close(fd);
    if (err) return op_fail_io("read", path, err);
    if (!is_stdin) {
        /* A mapped file that shrinks under us raises SIGBUS: the CLI's handler names it. */
        int slot = fault_watch(NULL, 0, path, false);
        tx_status st = tx_npy_load(path, out);
        fault_unwatch(slot);
        if (st == TX_OK) fault_watch(tx_tensor_data_const(*out), tx_tensor_nbytes(*out), path, false);
        return st;
    }
    tx_status st = tx_npy_load_fd(STDIN_FILENO, out);
    /* An empty pipe is what a failed earlier stage of a pipeline leaves. */
    if (st == TX_OUT_OF_RANGE)
        return op_fail(OP_IO_ERROR, "no input on stdin (did the previous command fail?)");
    return st;
}
