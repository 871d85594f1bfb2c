/* SPDX-License-Identifier: Apache-2.0 */
/* dtype.c -- the dtype table, generated from dtypes.def, and dtype name parsing (canonical names
 * plus TensorFlow's aliases). */
#include "core/internal.h"

#include <float.h>

/* The columns of dtypes.def as the fields of tx_dtype_info. */
#define IRANGE(lo, hi) (lo), (hi), 0.0, 0.0
#define FRANGE(max) 0, 0, (max), -(max)
#define URANGE(lo, hi) 0, 0, (hi), (lo)
#define NORANGE 0, 0, 0.0, 0.0
/* The dtype whose storage C type an element has: the integer type of the same bits. */
#define STORAGE(ctype, E)                                                                        \
    _Generic((ctype){0}, int8_t: TX_INT8, uint8_t: TX_UINT8, int16_t: TX_INT16,                  \
             uint16_t: TX_UINT16, int32_t: TX_INT32, uint32_t: TX_UINT32, int64_t: TX_INT64,     \
             uint64_t: TX_UINT64, default: TX_##E)
#define DTYPE_INFO(ctx, E, name, ctype, size, kind, descr, rules, range, dl_code, dl_bits,     \
                   print, tf, onnx, numpy, bits)                                                 \
    {TX_##E, name, size, TX_KIND_##kind, descr, numpy, STORAGE(ctype, E), range,                 \
     dl_code, dl_bits, TX_PRINT_##print, tf, onnx, bits},
static const tx__dtype_info dtype_table[] = {TX__DTYPES(DTYPE_INFO, ~)};
#undef DTYPE_INFO

/* The storage types must have the sizes the table says, and the TF column must be the enum
 * value tensorx.h writes out. */
#define DTYPE_CHECK(ctx, E, name, ctype, size, kind, descr, rules, range, dl_code, dl_bits,    \
                    print, tf, onnx, numpy, bits)                                                \
    _Static_assert(sizeof(ctype) == (size), "dtypes.def: size of " name);                      \
    _Static_assert(TX_##E == (tf) || ((tf) == 0 && TX_##E >= 64),                             \
                   "dtypes.def: TF DataType of " name);                                          \
    _Static_assert((bits) > 0 && (bits) <= 8 * (size), "dtypes.def: value bits of " name);
TX__DTYPES(DTYPE_CHECK, ~)
#undef DTYPE_CHECK

#define DTYPE_COUNT (sizeof dtype_table / sizeof dtype_table[0])

/* The by-id index, built at compile time: each dtype's position in the table, then its row. */
#define DTYPE_POSITION(ctx, E, ...) POSITION_##E,
enum { TX__DTYPES(DTYPE_POSITION, ~) };
#undef DTYPE_POSITION
#define DTYPE_BY_ID(ctx, E, ...) [TX_##E] = &dtype_table[POSITION_##E],
const tx__dtype_info *const tx__dtype_by_id[TX__DTYPE_ID_LIMIT] = {TX__DTYPES(DTYPE_BY_ID, ~)};
#undef DTYPE_BY_ID

const tx_dtype_info *tx_dtype_info_of(tx_dtype t) { return tx__dtype(t); }

size_t tx__dtype_count(void) { return DTYPE_COUNT; }
const tx__dtype_info *tx__dtype_at(size_t i) { return i < DTYPE_COUNT ? &dtype_table[i] : NULL; }

const char *tx_dtype_name(tx_dtype t) {
    const tx__dtype_info *d = tx__dtype(t);
    return d ? d->name : "invalid";
}

size_t tx_dtype_size(tx_dtype t) {
    const tx__dtype_info *d = tx__dtype(t);
    return d ? d->size : 0;
}

tx_dtype_kind tx_dtype_kind_of(tx_dtype t) {
    const tx__dtype_info *d = tx__dtype(t);
    return d ? d->kind : TX_KIND_INVALID;
}

static const struct { const char *alias; tx_dtype id; } aliases[] = {
    {"half", TX_FLOAT16},   {"float", TX_FLOAT32}, {"double", TX_FLOAT64},
    {"f16", TX_FLOAT16},    {"bf16", TX_BFLOAT16}, {"f32", TX_FLOAT32},
    {"f64", TX_FLOAT64},    {"i8", TX_INT8},       {"u8", TX_UINT8},
    {"i16", TX_INT16},      {"u16", TX_UINT16},    {"i32", TX_INT32},
    {"u32", TX_UINT32},     {"i64", TX_INT64},     {"u64", TX_UINT64},
    {"c64", TX_COMPLEX64},  {"c128", TX_COMPLEX128}, {"bytes", TX_STRING},
};

tx_dtype tx_dtype_from_name(const char *name) {
    if (name == NULL) {
        tx__fail(TX_INVALID_ARGUMENT, "dtype: name is NULL");
        return TX_INVALID_DTYPE;
    }
    const char *n = name;
    if (strncmp(n, "tf.", 3) == 0) n += 3;
    char low[32];
    size_t len = strlen(n);
    if (len >= sizeof low) goto unknown;
    for (size_t i = 0; i <= len; i++) /* ASCII only: names are ASCII, whatever the locale */
        low[i] = n[i] >= 'A' && n[i] <= 'Z' ? (char)(n[i] - 'A' + 'a') : n[i];
    const char *s = low;
    if (strncmp(s, "dt_", 3) == 0) s += 3;
    /* the first byte first: this runs on every call that names a dtype */
    for (size_t i = 0; i < DTYPE_COUNT; i++)
        if (s[0] == dtype_table[i].name[0] && strcmp(s, dtype_table[i].name) == 0)
            return dtype_table[i].id;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (s[0] == aliases[i].alias[0] && strcmp(s, aliases[i].alias) == 0) return aliases[i].id;
unknown:
    tx__fail(TX_INVALID_ARGUMENT, "dtype: unknown dtype name '%.40s'", name);
    return TX_INVALID_DTYPE;
}
