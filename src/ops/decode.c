/* SPDX-License-Identifier: Apache-2.0 */
/* decode.c -- TF's ops that read numbers out of string tensors: tf.io.decode_raw (DecodeRaw, and
 * DecodePaddedRaw when fixed_length is given) and tf.strings.to_number (StringToNumber); and
 * encode_raw, decode_raw's inverse (a tensorx extension: TF has no such op).
 * decode_raw copies each string's bytes once into the output, reversing each element's bytes when
 * the data's byte order is not the host's.  string_to_number reproduces TF 2.21's parsers:
 * absl::SimpleAtof/SimpleAtod for floats and tsl::safe_strto32/safe_strto64 for integers. */
#include "core/internal.h"
#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "exec/pool.h"
#include "kernels/scalar/convert.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- decode_raw ---------------------------------------------------------------------------- */

/* TF's DecodeRaw out_type list; DecodePaddedRaw (fixed_length) lacks complex and bool.  uint32
 * and uint64 are a tensorx extension (TF's op definitions lack them), in both forms. */
static bool decode_type_ok(tx_dtype t, bool padded) {
    switch (t) {
    case TX_FLOAT16: case TX_FLOAT32: case TX_FLOAT64: case TX_INT32: case TX_UINT16:
    case TX_UINT8: case TX_INT16: case TX_INT8: case TX_INT64: case TX_BFLOAT16:
    case TX_UINT32: case TX_UINT64:
        return true;
    case TX_COMPLEX64: case TX_COMPLEX128: case TX_BOOL:
        return !padded;
    default:
        /* tensorx adds the 8-bit float types (one byte an element: no byte order); the sub-byte
         * types stay out: raw files hold them packed (decode to uint8, then unpack). */
        return tx__is_small_float(t) && !tx__is_subbyte(t);
    }
}

/* The work is split over the flat output, in whole elements, so that one long string is shared
 * between the threads as well as many short ones.  Long spans of a large output use the
 * streaming-store copy and swap kernels of the CPU level (the output cannot stay in the caches
 * anyway); short ones (records) use the plain kernels, which need no store fence per call. */
#define DECODE_STREAM_SPAN ((size_t)64 << 10)

typedef struct decode_job {
    char *dst;
    const tx_string *s;
    size_t row, size, part;   /* bytes per output row, per element, per swapped part */
    unsigned part_shift;      /* log2(part) */
    bool swap, stream, to_bool;
    bool packed; /* every string is one row long and follows the one before in memory */
    tx__cast_fn swap_plain, swap_stream; /* the byte-reversing copies for `part` */
    tx__bulk_copy_fn bulk_copy;
} decode_job;

/* Bytes [lo, hi) of output row r (lo, hi multiples of the element size): the input bytes that
 * are there, zero padding after them; with a swap, each `part`-byte element is reversed, padding
 * included (pad first, then swap). */
static void decode_span(const decode_job *j, int64_t r, size_t lo, size_t hi) {
    char *dst = j->dst + (size_t)r * j->row;
    const char *src = j->s[r].data;
    size_t len = j->s[r].size < j->row ? (size_t)j->s[r].size : j->row;
    size_t have = len < hi ? len : hi, done = lo; /* input bytes end at `have` in this span */
    if (have > lo) {
        bool stream = j->stream && have - lo >= DECODE_STREAM_SPAN;
        if (!j->swap) {
            if (stream) j->bulk_copy(dst + lo, src + lo, have - lo);
            else memcpy(dst + lo, src + lo, have - lo);
            done = have;
        } else {
            size_t full = (have - lo) >> j->part_shift;
            (stream ? j->swap_stream : j->swap_plain)(dst + lo, src + lo, (int64_t)full);
            done = lo + full * j->part;
            if (done < have) { /* a partial last element: zero-pad it, then swap */
                unsigned char tmp[16] = {0};
                memcpy(tmp, src + done, have - done);
                j->swap_plain(dst + done, tmp, 1);
                done += j->part;
            }
        }
    }
    if (hi > done) memset(dst + done, 0, hi - done);
    if (j->to_bool) /* a bool element is 0 or 1, whatever byte it came from */
        for (size_t k = lo; k < hi; k++) dst[k] = dst[k] != 0;
}

/* A whole row: the common case of a string at least a row long (records) is one copy or swap. */
static inline void decode_row(const decode_job *j, int64_t r, bool fast) {
    if (fast && j->s[r].size >= j->row) {
        char *dst = j->dst + (size_t)r * j->row;
        if (!j->swap) memcpy(dst, j->s[r].data, j->row);
        else j->swap_plain(dst, j->s[r].data, (int64_t)(j->row >> j->part_shift));
    } else {
        decode_span(j, r, 0, j->row);
    }
}

static void decode_piece(void *ctx, int64_t begin, int64_t end) {
    const decode_job *j = ctx;
    const int64_t per = (int64_t)(j->row / j->size); /* elements per row */
    const bool fast = !j->to_bool && !(j->stream && j->row >= DECODE_STREAM_SPAN);
    int64_t r = begin / per, e = begin;
    if (e > r * per) { /* a row the piece starts inside */
        int64_t stop = end < (r + 1) * per ? end : (r + 1) * per;
        decode_span(j, r, (size_t)(e - r * per) * j->size, (size_t)(stop - r * per) * j->size);
        e = stop;
        r++;
    }
    int64_t whole = (end - e) / per;
    for (int64_t k = 0; k < whole;) {
        /* Rows whose bytes follow each other in memory (records packed in one buffer, as a
         * string tensor built in one go stores them) are one block: one large copy or swap,
         * with streaming stores when the output is large, instead of a small one per row. */
        const tx_string *sr = j->s + r + k;
        int64_t m = 1;
        if (fast && j->packed) m = whole - k;
        else if (fast && sr[0].size >= j->row)
            while (k + m < whole && sr[m].size >= j->row && sr[m].data == sr[m - 1].data + j->row) m++;
        if (m == 1) {
            decode_row(j, r + k, fast);
        } else {
            char *dst = j->dst + (size_t)(r + k) * j->row;
            const size_t bytes = (size_t)m * j->row;
            if (!j->swap) (j->stream ? j->bulk_copy : tx__kernels_get()->bulk_copy)(dst, sr[0].data, bytes);
            else (j->stream ? j->swap_stream : j->swap_plain)(dst, sr[0].data, (int64_t)(bytes >> j->part_shift));
        }
        k += m;
    }
    r += whole;
    e += whole * per;
    if (e < end) decode_span(j, r, 0, (size_t)(end - e) * j->size); /* a row it ends inside */
}

tx_status tx_decode_raw(const tx_tensor *input_bytes, tx_dtype out_type, int little_endian,
                        const int64_t *fixed_length, tx_tensor **out) {
    static const char *op = "decode_raw";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input_bytes, "input_bytes");
    TX_REQUIRE(input_bytes->dtype == TX_STRING, TX_INVALID_ARGUMENT,
               "%s: input_bytes must be a string tensor, got %s", op,
               tx_dtype_name(input_bytes->dtype));
    TX_REQUIRE(tx__dtype(out_type) != NULL, TX_INVALID_ARGUMENT, "%s: out_type %d is not a dtype",
               op, (int)out_type);
    bool padded = fixed_length != NULL, packed = false;
    TX_REQUIRE(decode_type_ok(out_type, padded), TX_UNIMPLEMENTED,
               padded ? "%s: out_type %s is not supported with fixed_length (TF's DecodePaddedRaw "
                        "takes float16, float32, float64, int32, uint16, uint8, int16, int8, int64, "
                        "bfloat16; tensorx adds uint32, uint64 and the float8 types)"
                      : "%s: out_type %s is not supported (TF's DecodeRaw takes float16, float32, "
                        "float64, int32, uint16, uint8, int16, int8, int64, complex64, complex128, "
                        "bool, bfloat16; tensorx adds uint32, uint64 and the float8 types; "
                        "sub-byte types are decoded as uint8 and unpacked)",
               op, tx_dtype_name(out_type));
    TX_REQUIRE(input_bytes->rank < TX_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: the result would exceed the maximum rank %d", op, TX_MAX_RANK);
    const tx_string *s = (const tx_string *)input_bytes->data;
    const int64_t n = input_bytes->numel;
    const int64_t size = (int64_t)tx_dtype_size(out_type);
    int64_t row; /* bytes per output row */
    if (padded) {
        int64_t fl = *fixed_length;
        /* TF checks the multiple first, then the sign (decode_padded_raw_op.cc). */
        TX_REQUIRE(fl % size == 0, TX_INVALID_ARGUMENT,
                   "%s: fixed_length (%" PRId64 ") must be a multiple of the size of out_type "
                   "(%" PRId64 ")", op, fl, size);
        TX_REQUIRE(fl > 0, TX_INVALID_ARGUMENT,
                   "%s: fixed_length (%" PRId64 ") must be greater than zero", op, fl);
        row = fl;
    } else {
        int64_t len = n > 0 ? (int64_t)s[0].size : 0;
        /* Blocks of records checked without a branch per record (the exact search only on a
         * mismatch), noting on the way whether they lie back to back in one buffer. */
        const uintptr_t base = n > 0 ? (uintptr_t)s[0].data : 0;
        uintptr_t gap = 0;
        for (int64_t b = 0; b < n; b += 4096) {
            const int64_t e = n - b > 4096 ? b + 4096 : n;
            uint64_t diff = 0;
            for (int64_t i = b; i < e; i++) {
                diff |= s[i].size ^ (uint64_t)len;
                gap |= (uintptr_t)s[i].data ^ (base + (uintptr_t)i * (uintptr_t)len);
            }
            for (int64_t i = b; diff && i < e; i++)
                TX_REQUIRE((uint64_t)len == s[i].size, TX_INVALID_ARGUMENT,
                           "%s: DecodeRaw requires input strings to all be the same size, but "
                           "element %" PRId64 " has size %" PRIu64 " != %" PRId64
                           " (give fixed_length to pad or truncate)",
                           op, i, s[i].size, len);
        }
        packed = n > 0 && gap == 0;
        TX_REQUIRE(len % size == 0, TX_INVALID_ARGUMENT,
                   "%s: Input to DecodeRaw has length %" PRId64 " that is not a multiple of "
                   "%" PRId64 ", the size of %s", op, len, size, tx_dtype_name(out_type));
        row = len;
    }
    int64_t dims[TX_MAX_RANK];
    if (input_bytes->rank) memcpy(dims, input_bytes->dims, input_bytes->rank * sizeof *dims);
    dims[input_bytes->rank] = row / size;
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc_flags(op, out_type, input_bytes->rank + 1, dims,
                                  fixed_length ? 0u : TX_OUTPUT_DATA_DEPENDENT, &t));
    size_t part = (size_t)((out_type == TX_COMPLEX64 || out_type == TX_COMPLEX128) ? size / 2 : size);
    bool swap = size > 1 && (little_endian != 0) != (TX_HOST_LITTLE_ENDIAN != 0);
    const tx__kernels *K = tx__kernels_get();
    decode_job j = {t->data, s, (size_t)row, (size_t)size, part,
                    part == 8 ? 3u : part == 4 ? 2u : part == 2 ? 1u : 0u, swap,
                    (int64_t)t->nbytes >= tx__stream_seq_min_bytes, out_type == TX_BOOL, packed,
                    NULL, NULL, K->bulk_copy_stream};
    if (swap) {
        j.swap_plain = K->byteswap[tx__swap_index(part)];
        j.swap_stream = K->byteswap_stream[tx__swap_index(part)];
    }
    if (row > 0) tx__parallel_for(t->numel, ((int64_t)256 << 10) / size, decode_piece, &j);
    *out = t;
    return TX_OK;
}

/* ---- encode_raw ------------------------------------------------------------------------------ */

/* x's bytes are already the concatenation of the output strings in row-major order, so the work
 * is one copy (or byte-reversing copy) of the whole buffer into one storage, split over threads. */
typedef struct encode_job {
    char *dst;
    const char *src;
    size_t part;     /* bytes per swapped unit (an element, or a complex part) */
    tx__cast_fn swap; /* NULL: plain copy */
    bool to_bool;     /* bool: write 0 or 1 whatever byte a wrapped tensor holds */
} encode_job;

static void encode_piece(void *ctx, int64_t begin, int64_t end) {
    const encode_job *j = ctx;
    size_t lo = (size_t)begin * j->part, n = (size_t)(end - begin);
    if (j->swap) j->swap(j->dst + lo, j->src + lo, (int64_t)n);
    else if (j->to_bool)
        for (size_t k = lo; k < lo + n; k++) j->dst[k] = j->src[k] != 0;
    else memcpy(j->dst + lo, j->src + lo, n * j->part);
}

tx_status tx_encode_raw(const tx_tensor *x, int little_endian, tx_tensor **out) {
    static const char *op = "encode_raw";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, x, "x");
    TX_REQUIRE(x->dtype != TX_STRING, TX_INVALID_ARGUMENT,
               "%s: x must be a numeric or bool tensor, got string", op);
    TX_REQUIRE(x->rank >= 1, TX_INVALID_ARGUMENT,
               "%s: x must have rank >= 1 (each output string holds one row of the last dim), got "
               "a scalar", op);
    const size_t size = tx_dtype_size(x->dtype);
    const tx_dtype_kind kind = tx_dtype_kind_of(x->dtype);
    /* Bytes per output string: at most nbytes when x has elements (and unused when it has none:
     * then the output has no element either). */
    const size_t row = x->nbytes > 0 ? (size_t)x->dims[x->rank - 1] * size : 0;
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, TX_STRING, x->rank - 1, x->dims, &t));
    char *bytes = NULL;
    if (x->nbytes > 0) {
        tx_status st = tx__string_storage(t, x->nbytes, &bytes);
        if (st != TX_OK) {
            tx_tensor_free(t);
            return st;
        }
        const size_t part = kind == TX_KIND_COMPLEX ? size / 2 : size;
        const bool swap = part > 1 && (little_endian != 0) != (TX_HOST_LITTLE_ENDIAN != 0);
        encode_job j = {bytes, x->data, part,
                        swap ? tx__kernels_get()->byteswap[tx__swap_index(part)] : NULL,
                        x->dtype == TX_BOOL};
        tx__parallel_for((int64_t)(x->nbytes / part), ((int64_t)256 << 10) / (int64_t)part,
                         encode_piece, &j);
    }
    tx_string *rec = (tx_string *)t->data;
    for (int64_t i = 0; i < t->numel; i++) {
        rec[i].size = row;
        rec[i].data = row ? bytes + (size_t)i * row : "";
    }
    *out = t;
    return TX_OK;
}

/* ---- string_to_number ---------------------------------------------------------------------- */

/* double-conversion's whitespace (and isspace() in the C locale). */
static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_xdigit(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static bool only_spaces(const char *s, size_t i, size_t len) {
    while (i < len && is_space(s[i])) i++;
    return i == len;
}

/* The digits kept for the conversion: more than any float64 needs to round correctly (767
 * significant decimal digits, 14 hex digits); the digits after them only matter through whether
 * one is nonzero, which a final 1 (a sticky digit) stands for. */
#define KEEP_DEC 780
#define KEEP_HEX 40
#define EXP_CLAMP 100000 /* beyond it (at most KEEP_DEC digits) every value is 0 or inf */

/* Appends the digits s[i..j) of `base` skipping the leading zeros (before any kept digit) and
 * dropping the digits past `keep` (counted in *dropped, and *sticky when one is nonzero). */
static void keep_digits(const char *s, size_t i, size_t j, char *buf, size_t *b, size_t keep,
                        int64_t *dropped, bool *sticky) {
    for (; i < j; i++) {
        if (*b == 0 && s[i] == '0') continue;
        if (*b < keep) buf[(*b)++] = s[i];
        else {
            (*dropped)++;
            *sticky |= s[i] != '0';
        }
    }
}

/* An exponent's digits s[i..) (at least one), saturated; returns the index after them. */
static size_t read_exponent(const char *s, size_t i, size_t len, int64_t *exp, bool *ok) {
    bool neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    *ok = i < len && is_digit(s[i]);
    int64_t e = 0;
    for (; i < len && is_digit(s[i]); i++) e = e >= 1000000000 ? e : e * 10 + (s[i] - '0');
    *exp = neg ? -e : e;
    return i;
}

/* glibc's strtoull(seq, &end, 0) on a NaN's n-char-sequence: the payload when the whole sequence
 * is one number (decimal, 0-octal or 0x-hex, saturated), else 0 (a plain quiet NaN). */
static uint64_t nan_payload(const char *s, size_t n) {
    unsigned base = 10;
    size_t i = 0;
    if (n >= 3 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && is_xdigit(s[2])) base = 16, i = 2;
    else if (n >= 1 && s[0] == '0') base = 8;
    uint64_t v = 0;
    bool over = false;
    for (; i < n; i++) {
        char c = lower(s[i]);
        unsigned d = is_digit(c) ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 99;
        if (d >= base) return 0; /* strtoull stopped before the ')' */
        if (v > (UINT64_MAX - d) / base) over = true;
        v = v * base + d;
    }
    return over ? UINT64_MAX : v;
}

/* What TF 2.21's StringToNumber takes as a float (absl::SimpleAtof / SimpleAtod, i.e.
 * absl::from_chars after stripping ASCII whitespace and one leading '+'); TF 2.21 decides:
 *   [ws] [+|-] ( digits [. digits] [(e|E) [+|-] digits]       at least one digit
 *              | 0x hexdigits [. hexdigits] [(p|P) [+|-] digits]   (0X too)
 *              | inf | infinity | nan [ ( [A-Za-z0-9_]* ) ] )     letters in any case
 *   [ws]
 * Any length; an all-whitespace or empty string is refused.  A NaN's parenthesised number is its
 * payload, as glibc's nan() makes it (the low 22 / 51 mantissa bits, quiet bit set).  The
 * rounding (to nearest even, overflow to inf) is done by strtod/strtof on a canonical text
 * without a radix point, so the locale cannot matter. */
static bool parse_float(const char *s, size_t len, bool is_double, double *dout, float *fout) {
    size_t i = 0;
    while (len > 0 && is_space(s[len - 1])) len--;
    while (i < len && is_space(s[i])) i++;
    if (i < len && s[i] == '+') {
        i++;
        if (i < len && s[i] == '-') return false;
    }
    bool neg = i < len && s[i] == '-';
    if (neg) i++;
    if (i == len) return false;
    char c = lower(s[i]);
    if (c == 'i' || c == 'n') {
        static const char inf[] = "infinity", nan[] = "nan";
        const char *w = c == 'i' ? inf : nan;
        size_t k = 0;
        while (k < 3 && i + k < len && lower(s[i + k]) == w[k]) k++;
        if (k < 3) return false;
        i += 3;
        if (c == 'i') {
            if (len - i == 5) /* "inf" or the whole "infinity" */
                for (k = 3; k < 8; k++, i++)
                    if (lower(s[i]) != inf[k]) return false;
            if (i != len) return false;
            if (is_double) *dout = neg ? -INFINITY : INFINITY;
            else *fout = neg ? -INFINITY : INFINITY;
            return true;
        }
        uint64_t payload = 0;
        if (i < len) {
            if (s[i] != '(' || s[len - 1] != ')') return false;
            for (k = i + 1; k < len - 1; k++)
                if (!(is_digit(s[k]) || (lower(s[k]) >= 'a' && lower(s[k]) <= 'z') || s[k] == '_'))
                    return false;
            payload = nan_payload(s + i + 1, len - i - 2);
        }
        if (is_double) {
            uint64_t bits = (neg ? 0xfff8000000000000ull : 0x7ff8000000000000ull) |
                            (payload & 0x7ffffffffffffull);
            memcpy(dout, &bits, sizeof bits);
        } else {
            uint32_t bits = (neg ? 0xffc00000u : 0x7fc00000u) | (uint32_t)(payload & 0x3fffffu);
            memcpy(fout, &bits, sizeof bits);
        }
        return true;
    }
    char buf[KEEP_DEC + 40];
    size_t b = 0;
    int64_t exp = 0;
    bool sticky = false, hex = s[i] == '0' && i + 1 < len && lower(s[i + 1]) == 'x';
    size_t start = hex ? i + 2 : i, j = start;
    bool (*digit)(char) = hex ? is_xdigit : is_digit;
    while (j < len && digit(s[j])) j++;
    size_t int_end = j, frac_start = j, frac_end = j;
    if (j < len && s[j] == '.') {
        frac_start = frac_end = ++j;
        while (frac_end < len && digit(s[frac_end])) frac_end++;
        j = frac_end;
    }
    if (int_end == start && frac_end == frac_start) return false; /* no digit */
    if (j < len && lower(s[j]) == (hex ? 'p' : 'e')) {
        bool ok;
        j = read_exponent(s, j + 1, len, &exp, &ok);
        if (!ok) return false;
    }
    if (j != len) return false;
    /* The digits, leading zeros skipped, as an integer N scaled by base^scale: the digits past
     * `keep` dropped (and a sticky 1 for them), the fraction digits dividing. */
    size_t keep = hex ? KEEP_HEX : KEEP_DEC;
    int64_t dropped = 0;
    keep_digits(s, start, int_end, buf + 3, &b, keep, &dropped, &sticky);
    keep_digits(s, frac_start, frac_end, buf + 3, &b, keep, &dropped, &sticky);
    if (sticky) buf[3 + b++] = '1', dropped--;
    if (b == 0) buf[3 + b++] = '0';
    int64_t scale = dropped - (int64_t)(frac_end - frac_start);
    int64_t e = exp + (hex ? 4 : 1) * scale;
    e = e > EXP_CLAMP ? EXP_CLAMP : e < -EXP_CLAMP ? -EXP_CLAMP : e;
    char *text = buf + 3 - (hex ? 2 : 0) - (neg ? 1 : 0), *o = text;
    if (neg) *o++ = '-';
    if (hex) *o++ = '0', *o++ = 'x';
    snprintf(buf + 3 + b, sizeof buf - 3 - b, "%c%" PRId64, hex ? 'p' : 'e', e);
    errno = 0; /* ERANGE (overflow to inf, underflow) is a valid result here */
    if (is_double) *dout = strtod(text, NULL);
    else *fout = strtof(text, NULL);
    return true;
}

/* tsl::safe_strto32 / safe_strto64 / safe_strtou32 / safe_strtou64 (absl::SimpleAtoi): optional
 * surrounding whitespace, an optional '+' or '-', decimal digits, no overflow.  max_neg 0: an
 * unsigned type, where a '-' fails even before "0" (absl's safe_uint_internal). */
static bool parse_int(const char *s, size_t len, uint64_t max_pos, uint64_t max_neg,
                      int64_t *out) {
    size_t i = 0;
    while (i < len && is_space(s[i])) i++;
    bool neg = i < len && s[i] == '-';
    if (neg && max_neg == 0) return false;
    if (neg || (i < len && s[i] == '+')) i++;
    if (i == len || !is_digit(s[i])) return false;
    uint64_t limit = neg ? max_neg : max_pos, v = 0;
    for (; i < len && is_digit(s[i]); i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (limit - d) / 10) return false;
        v = v * 10 + d;
    }
    if (!only_spaces(s, i, len)) return false;
    *out = neg ? (v == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return true;
}

/* The offending string for an error message: printable ASCII as is, other bytes as \xHH, cut
 * after 64 bytes. */
static const char *quote(char *buf, size_t cap, const char *s, uint64_t len) {
    size_t o = 0;
    for (uint64_t i = 0; i < len && o + 8 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 64) {
            o += (size_t)snprintf(buf + o, cap - o, "...");
            break;
        }
        if (c >= 32 && c < 127) buf[o++] = (char)c;
        else o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
    }
    buf[o] = '\0';
    return buf;
}

/* Parses every element into dst (NULL: only checks them); returns the first element that does
 * not parse, or -1. */
static int64_t parse_all(const tx_tensor *strings, tx_dtype out_type, void *dst) {
    const tx_string *s = (const tx_string *)strings->data;
    for (int64_t i = 0; i < strings->numel; i++) {
        const char *p = s[i].data;
        size_t len = (size_t)s[i].size;
        bool ok;
        double d;
        float f;
        int64_t v;
        switch (out_type) {
        case TX_FLOAT32:
            ok = parse_float(p, len, false, &d, &f);
            if (ok && dst) memcpy((float *)dst + i, &f, sizeof f);
            break;
        case TX_FLOAT64:
            ok = parse_float(p, len, true, &d, &f);
            if (ok && dst) memcpy((double *)dst + i, &d, sizeof d);
            break;
        case TX_INT32:
            ok = parse_int(p, len, INT32_MAX, (uint64_t)INT32_MAX + 1, &v);
            if (ok && dst) ((int32_t *)dst)[i] = (int32_t)v;
            break;
        case TX_UINT32:
            ok = parse_int(p, len, UINT32_MAX, 0, &v);
            if (ok && dst) ((uint32_t *)dst)[i] = (uint32_t)v;
            break;
        case TX_UINT64:
            ok = parse_int(p, len, UINT64_MAX, 0, &v);
            if (ok && dst) ((uint64_t *)dst)[i] = (uint64_t)v;
            break;
        default:
            ok = parse_int(p, len, INT64_MAX, (uint64_t)INT64_MAX + 1, &v);
            if (ok && dst) ((int64_t *)dst)[i] = v;
            break;
        }
        if (!ok) return i;
    }
    return -1;
}

tx_status tx_string_to_number(const tx_tensor *string_tensor, tx_dtype out_type,
                              tx_tensor **out) {
    static const char *op = "string_to_number";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, string_tensor, "string_tensor");
    TX_REQUIRE(string_tensor->dtype == TX_STRING, TX_INVALID_ARGUMENT,
               "%s: string_tensor must be a string tensor, got %s", op,
               tx_dtype_name(string_tensor->dtype));
    TX_REQUIRE(out_type == TX_FLOAT32 || out_type == TX_FLOAT64 || out_type == TX_INT32 ||
                   out_type == TX_INT64 || out_type == TX_UINT32 || out_type == TX_UINT64,
               TX_UNIMPLEMENTED,
               "%s: out_type %s is not supported (float32, float64, int32, int64, uint32, uint64)",
               op, tx__dtype(out_type) ? tx_dtype_name(out_type) : "(unknown)");
    /* Whether a string parses decides the error, so a plan parses them too (writing nothing). */
    int64_t numel, bad = -1;
    TX_TRY(tx__check_output(op, out_type, string_tensor->rank, string_tensor->dims, &numel));
    if (tx__planning()) bad = parse_all(string_tensor, out_type, NULL);
    tx_tensor *t = NULL;
    if (bad < 0) {
        TX_TRY(tx__tensor_alloc(op, out_type, string_tensor->rank, string_tensor->dims, &t));
        bad = parse_all(string_tensor, out_type, t->data);
    }
    if (bad >= 0) {
        tx_tensor_free(t);
        const tx_string *s = (const tx_string *)string_tensor->data;
        char q[300];
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: StringToNumberOp could not correctly convert string: %s "
                        "(element %" PRId64 ", out_type %s)",
                        op, quote(q, sizeof q, s[bad].data, s[bad].size), bad,
                        tx_dtype_name(out_type));
    }
    *out = t;
    return TX_OK;
}
