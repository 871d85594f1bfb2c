/* SPDX-License-Identifier: Apache-2.0 */
/* npy_stream.c -- .npy headers on their own, for reading and writing files piecewise: the CLI's
 * streaming of decode_raw / cast / bitcast over files larger than memory reads a header with
 * tx_npy_read_info, maps windows of the data with tx_file_map, and writes its output as
 * tx_npy_write_header followed by the data chunk by chunk.  The rules are tx_npy_load's and
 * tx_npy_save's (src/io/npy_header.c): the same accepted header grammar, the same descr
 * conventions, and byte-identical headers on output. */
#include "core/internal.h"
#include "io/npy_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>

/* Header text longer than this is refused (numpy writes a few hundred bytes at most). */
#define MAX_HEADER_TEXT (16u << 20)

/* ---- reading ----------------------------------------------------------------------------------- */

static tx_status read_info(FILE *f, const char *path, tx_npy_info *info) {
    struct stat sb;
    TX_REQUIRE(fstat(fileno(f), &sb) == 0, TX_INVALID_ARGUMENT, "npy: cannot stat '%s': %s", path,
               strerror(errno));
    TX_REQUIRE(S_ISREG(sb.st_mode), TX_INVALID_ARGUMENT, "npy: '%s' is not a regular file", path);
    uint64_t fsize = (uint64_t)sb.st_size;
    unsigned char pre[12];
    size_t got = fread(pre, 1, sizeof pre, f);
    size_t start;
    uint64_t hlen;
    TX_TRY(tx__npy_prefix(pre, got, fsize, &start, &hlen));
    TX_REQUIRE(hlen <= MAX_HEADER_TEXT, TX_INVALID_ARGUMENT,
               "npy: header of %llu bytes is longer than %u", (unsigned long long)hlen,
               MAX_HEADER_TEXT);
    size_t whole = start + (size_t)hlen;
    unsigned char *buf = tx__alloc(whole, "npy: header");
    if (buf == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = TX_OK;
    if (fseek(f, 0, SEEK_SET) != 0 || fread(buf, 1, whole, f) != whole)
        st = tx__fail(TX_INVALID_ARGUMENT, "npy: error reading the header of '%s'", path);
    if (st == TX_OK) st = tx__npy_parse(buf, whole, fsize, info);
    tx__free(buf, whole);
    return st;
}

/* Sizes of the released layouts of tx_npy_info (see tx__check_struct_size). */
static const size_t npy_info_sizes[] = {sizeof(tx_npy_info)};

tx_status tx_npy_read_info(const char *path, tx_npy_info *info) {
    TX_REQUIRE(path != NULL && info != NULL, TX_INVALID_ARGUMENT, "npy: path or info is NULL");
    TX_TRY(tx__check_struct_size("npy", "info->struct_size", info->struct_size, npy_info_sizes,
                                 sizeof npy_info_sizes / sizeof npy_info_sizes[0], "tx_npy_info",
                                 "TX_NPY_INFO_INIT"));
    TX_REQUIRE(info->dims != NULL || info->dims_capacity == 0, TX_INVALID_ARGUMENT,
               "npy: info->dims is NULL with dims_capacity %zu", info->dims_capacity);
    int64_t dims[TX_MAX_RANK];
    tx_npy_info full = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    tx_status st = TX_INVALID_ARGUMENT;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        tx__fail(TX_INVALID_ARGUMENT, "npy: cannot open '%s': %s", path, strerror(errno));
    } else {
        st = read_info(f, path, &full);
        fclose(f);
    }
    size_t rank = full.rank;
    bool no_room = st == TX_OK && rank > info->dims_capacity;
    if (no_room)
        st = tx__fail(TX_INVALID_ARGUMENT,
                      "npy: '%s' has rank %zu, more than info->dims_capacity %zu", path, rank,
                      info->dims_capacity);
    if (st != TX_OK) {
        memset(&full, 0, sizeof full);
        full.struct_size = sizeof full;
        if (no_room) full.rank = rank; /* the room to retry with */
    } else if (rank) {
        memcpy(info->dims, dims, rank * sizeof *dims);
    }
    full.dims = info->dims;
    full.dims_capacity = info->dims_capacity;
    tx__fill_struct(info, info->struct_size, &full);
    return st;
}

/* ---- writing ----------------------------------------------------------------------------------- */

tx_status tx_npy_write_header(tx_dtype dtype, size_t rank, const int64_t *dims, void *buf,
                              size_t cap, size_t *len) {
    static const char *op = "npy";
    TX_REQUIRE(buf != NULL && len != NULL, TX_INVALID_ARGUMENT, "%s: buf or len is NULL", op);
    *len = 0;
    const tx__dtype_info *info = tx__dtype(dtype);
    TX_REQUIRE(info != NULL, TX_INVALID_ARGUMENT, "%s: unknown dtype %d", op, (int)dtype);
    TX_REQUIRE(dtype != TX_STRING, TX_UNIMPLEMENTED,
               "%s: a string header depends on the longest string; use tx_npy_save", op);
    TX_REQUIRE(rank <= TX_MAX_RANK, TX_INVALID_ARGUMENT, "%s: rank %zu exceeds the maximum of %d",
               op, rank, TX_MAX_RANK);
    TX_REQUIRE(rank == 0 || dims != NULL, TX_INVALID_ARGUMENT, "%s: dims is NULL", op);
    for (size_t d = 0; d < rank; d++)
        TX_REQUIRE(dims[d] >= 0, TX_INVALID_ARGUMENT, "%s: dims[%zu] = %" PRId64 " is negative", op,
                   d, dims[d]);
    /* The same bytes tx_npy_save writes. */
    return tx__npy_header(dtype, rank, dims, 0, buf, cap, len);
}

