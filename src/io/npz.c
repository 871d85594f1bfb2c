/* SPDX-License-Identifier: Apache-2.0 */
/* npz.c -- reading NumPy .npz files (tx_npz_open, _get and the accessors): a ZIP archive of .npy
 * members, as np.savez and np.savez_compressed write it.  The whole file is mapped (or, from a
 * buffer, copied once) as one read-only byte tensor; open checks the whole archive -- the end of
 * central directory record (and ZIP64's), every central directory entry and the local header it
 * points to, against each other and against the file -- before anything is handed out.  get hands
 * a stored member's array out as a view of those bytes when it can be used in place, and inflates
 * a deflated member (zstream.h, raw deflate) straight into a new tensor through the .npy stream
 * loader (npy_load.c), with its output capped at the member's declared size and its CRC-32
 * checked. */
#include "io/mmap_internal.h"
#include "io/npy_internal.h"
#include "io/zstream.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    const char *name;   /* the array's name: the member's without ".npy" (as np.load) */
    const char *member; /* the member's name */
    bool npy;           /* the member's name ends in ".npy" */
    uint16_t flags, method;
    uint32_t crc;
    uint64_t csize, usize; /* compressed and uncompressed sizes */
    uint64_t local;        /* where its local header starts */
    uint64_t data;         /* where its data start */
} npz_member;

struct tx_npz {
    tx_tensor *file;           /* the file's bytes: 1-D uint8, read-only */
    const unsigned char *b;    /* file->data */
    uint64_t size;
    char name[TX_FILE_NAME_CAP]; /* "'path'" or "the buffer", for get's messages */
    size_t count;
    npz_member *members;       /* in central directory order */
    size_t *by_name;           /* member indices sorted by array name */
    char *arena;               /* every name, NUL-terminated */
    size_t arena_size;
};

/* Everything the parse needs at hand, and the messages' prefix. */
typedef struct {
    const char *op, *name;
    tx_npz *f;
    uint64_t cd_offset, cd_end; /* the central directory: [cd_offset, cd_end) */
    uint64_t count;
} npz_parse;

static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const unsigned char *p) {
    return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}
static uint64_t le64(const unsigned char *p) {
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void close_file(tx_npz *f) {
    tx_tensor_free(f->file);
    tx__free(f->members, f->count * sizeof *f->members);
    tx__free(f->by_name, f->count * sizeof *f->by_name);
    tx__free(f->arena, f->arena_size);
    tx__free(f, sizeof *f);
}

void tx_npz_close(tx_npz *file) {
    if (file != NULL) close_file(file);
}

/* ---- the end of central directory records ---- */

/* The ZIP64 end of central directory record that the locator 20 bytes before `eocd` points to,
 * when there is one: the entry count and the central directory's place come from it. */
static tx_status read_zip64_end(npz_parse *p, uint64_t eocd, bool *found) {
    const unsigned char *b = p->f->b;
    *found = eocd >= 20 && le32(b + eocd - 20) == 0x07064b50u;
    if (!*found) return TX_OK;
    const unsigned char *loc = b + eocd - 20;
    TX_REQUIRE(le32(loc + 4) == 0 && le32(loc + 16) == 1, TX_UNIMPLEMENTED,
               "%s: %s: the ZIP64 locator names disk %u of %u disks: multi-disk archives are not "
               "supported", p->op, p->name, le32(loc + 4), le32(loc + 16));
    uint64_t at = le64(loc + 8);
    TX_REQUIRE(at <= eocd - 20 && eocd - 20 - at >= 56, TX_INVALID_ARGUMENT,
               "%s: %s: the ZIP64 locator points to offset %llu, where no 56-byte ZIP64 end of "
               "central directory record fits before the locator (at %llu)", p->op, p->name,
               (unsigned long long)at, (unsigned long long)(eocd - 20));
    const unsigned char *r = b + at;
    TX_REQUIRE(le32(r) == 0x06064b50u, TX_INVALID_ARGUMENT,
               "%s: %s: no ZIP64 end of central directory record (signature 0x06064b50) at "
               "offset %llu, where the locator points", p->op, p->name, (unsigned long long)at);
    TX_REQUIRE(le32(r + 16) == 0 && le32(r + 20) == 0 && le64(r + 24) == le64(r + 32),
               TX_UNIMPLEMENTED, "%s: %s: the ZIP64 end record names other disks: multi-disk "
               "archives are not supported", p->op, p->name);
    TX_REQUIRE(le64(r + 4) == eocd - 20 - at - 12, TX_INVALID_ARGUMENT,
               "%s: %s: the ZIP64 end record's size %llu does not reach the locator (%llu)",
               p->op, p->name, (unsigned long long)le64(r + 4),
               (unsigned long long)(eocd - 20 - at - 12));
    p->count = le64(r + 32);
    uint64_t cd_size = le64(r + 40);
    p->cd_offset = le64(r + 48);
    p->cd_end = at;
    TX_REQUIRE(p->cd_offset <= at && cd_size == at - p->cd_offset, TX_INVALID_ARGUMENT,
               "%s: %s: the central directory (offset %llu, %llu bytes) does not end where the "
               "ZIP64 end record starts (%llu)", p->op, p->name,
               (unsigned long long)p->cd_offset, (unsigned long long)cd_size,
               (unsigned long long)at);
    return TX_OK;
}

/* Finds the end of central directory record (the last one whose comment ends the file) and reads
 * where the central directory lies and how many entries it holds. */
static tx_status read_end(npz_parse *p) {
    const unsigned char *b = p->f->b;
    uint64_t n = p->f->size;
    TX_REQUIRE(n >= 22, TX_INVALID_ARGUMENT,
               "%s: %s: %llu bytes are too few for a ZIP file (an end of central directory record "
               "alone is 22)", p->op, p->name, (unsigned long long)n);
    uint64_t at = n - 22, lowest = n - 22 > 0xFFFF ? n - 22 - 0xFFFF : 0;
    while (!(le32(b + at) == 0x06054b50u && le16(b + at + 20) == n - 22 - at)) {
        TX_REQUIRE(at > lowest, TX_INVALID_ARGUMENT,
                   "%s: %s: not a ZIP file: no end of central directory record (signature "
                   "0x06054b50 with a comment that ends the file) in its last %llu bytes",
                   p->op, p->name, (unsigned long long)(n - lowest));
        at--;
    }
    const unsigned char *e = b + at;
    TX_REQUIRE(le16(e + 4) == 0 && le16(e + 6) == 0 && le16(e + 8) == le16(e + 10),
               TX_UNIMPLEMENTED, "%s: %s: the end record names disk %u, the central directory "
               "on disk %u and %u of its %u entries on this disk: multi-disk archives are not "
               "supported", p->op, p->name, le16(e + 4), le16(e + 6), le16(e + 8), le16(e + 10));
    bool zip64;
    TX_TRY(read_zip64_end(p, at, &zip64));
    if (zip64) return TX_OK;
    p->count = le16(e + 10);
    uint64_t cd_size = le32(e + 12);
    p->cd_offset = le32(e + 16);
    p->cd_end = at;
    TX_REQUIRE(p->cd_offset <= at && cd_size == at - p->cd_offset, TX_INVALID_ARGUMENT,
               "%s: %s: the central directory (offset %llu, %llu bytes) does not end where the "
               "end record starts (%llu)", p->op, p->name, (unsigned long long)p->cd_offset,
               (unsigned long long)cd_size, (unsigned long long)at);
    return TX_OK;
}

/* ---- the central directory ---- */

/* The ZIP64 extended information (tag 0x0001) of the len extra bytes at x: each of the fields
 * whose 32-bit value is 0xFFFFFFFF (usize, csize, offset: in that order, only those) is read
 * from it.  `where` names the header in messages. */
static tx_status read_zip64_extra(npz_parse *p, const char *member, const char *where,
                                  const unsigned char *x, size_t len, uint64_t *usize,
                                  uint64_t *csize, uint64_t *offset) {
    uint64_t *fields[3] = {usize, csize, offset};
    size_t pos = 0;
    while (len - pos >= 4) {
        size_t tag = le16(x + pos), n = le16(x + pos + 2);
        TX_REQUIRE(n <= len - pos - 4, TX_INVALID_ARGUMENT,
                   "%s: %s: member \"%s\": %s extra field 0x%04zx of %zu bytes runs past the "
                   "extra data (%zu bytes left)", p->op, p->name, member, where, tag, n,
                   len - pos - 4);
        if (tag == 1) {
            const unsigned char *v = x + pos + 4;
            size_t used = 0;
            for (int k = 0; k < 3; k++) {
                if (fields[k] == NULL || *fields[k] != 0xFFFFFFFFu) continue;
                TX_REQUIRE(n - used >= 8, TX_INVALID_ARGUMENT,
                           "%s: %s: member \"%s\": the %s ZIP64 extra field (%zu bytes) lacks "
                           "the %s its header marks 0xFFFFFFFF", p->op, p->name, member, where,
                           n, k == 0 ? "uncompressed size" : k == 1 ? "compressed size"
                                                                     : "header offset");
                *fields[k] = le64(v + used);
                used += 8;
            }
        }
        pos += 4 + n;
    }
    for (int k = 0; k < 3; k++)
        TX_REQUIRE(fields[k] == NULL || *fields[k] != 0xFFFFFFFFu, TX_INVALID_ARGUMENT,
                   "%s: %s: member \"%s\": the %s marks its %s 0xFFFFFFFF but has no ZIP64 "
                   "extra field", p->op, p->name, member, where,
                   k == 0 ? "uncompressed size" : k == 1 ? "compressed size" : "header offset");
    return TX_OK;
}

static bool ends_with_npy(const char *s, size_t n) {
    return n >= 4 && memcmp(s + n - 4, ".npy", 4) == 0;
}

/* The central directory entry at *pos into m (names into the arena at *arena_pos). */
static tx_status read_central(npz_parse *p, size_t i, uint64_t *pos, size_t *arena_pos,
                              npz_member *m) {
    const unsigned char *b = p->f->b;
    uint64_t left = p->cd_end - *pos;
    TX_REQUIRE(left >= 46 && le32(b + *pos) == 0x02014b50u, TX_INVALID_ARGUMENT,
               "%s: %s: central directory entry %zu (offset %llu): %s", p->op, p->name, i,
               (unsigned long long)*pos,
               left < 46 ? "cut short: fewer than its 46 bytes remain in the central directory"
                         : "no signature 0x02014b50");
    const unsigned char *c = b + *pos;
    size_t nlen = le16(c + 28), xlen = le16(c + 30), clen = le16(c + 32);
    TX_REQUIRE(46 + nlen + xlen + clen <= left, TX_INVALID_ARGUMENT,
               "%s: %s: central directory entry %zu: its name, extra field and comment (%zu + "
               "%zu + %zu bytes) run past the central directory", p->op, p->name, i, nlen, xlen,
               clen);
    const char *name = (const char *)c + 46;
    TX_REQUIRE(nlen > 0 && memchr(name, 0, nlen) == NULL, TX_INVALID_ARGUMENT,
               "%s: %s: central directory entry %zu: the member's name %s", p->op, p->name, i,
               nlen ? "holds a NUL byte" : "is empty");
    char *mem = p->f->arena + *arena_pos;
    memcpy(mem, name, nlen);
    mem[nlen] = '\0';
    *arena_pos += nlen + 1;
    m->member = mem;
    m->npy = ends_with_npy(name, nlen);
    char *arr = p->f->arena + *arena_pos;
    size_t alen = m->npy ? nlen - 4 : nlen;
    memcpy(arr, name, alen);
    arr[alen] = '\0';
    *arena_pos += alen + 1;
    m->name = arr;
    m->flags = le16(c + 8);
    m->method = le16(c + 10);
    m->crc = le32(c + 16);
    m->csize = le32(c + 20);
    m->usize = le32(c + 24);
    m->local = le32(c + 42);
    TX_REQUIRE(!(m->flags & 0x41), TX_UNIMPLEMENTED,
               "%s: %s: member \"%s\" is encrypted (flags 0x%04x): not supported", p->op,
               p->name, mem, m->flags);
    TX_REQUIRE(m->method == 0 || m->method == 8, TX_UNIMPLEMENTED,
               "%s: %s: member \"%s\": compression method %u is not supported (only 0, stored, "
               "and 8, deflated, as NumPy writes)", p->op, p->name, mem, m->method);
    TX_REQUIRE(le16(c + 34) == 0 || le16(c + 34) == 0xFFFF, TX_UNIMPLEMENTED,
               "%s: %s: member \"%s\" starts on disk %u: multi-disk archives are not supported",
               p->op, p->name, mem, le16(c + 34));
    TX_TRY(read_zip64_extra(p, mem, "central directory entry's", c + 46 + nlen, xlen, &m->usize,
                            &m->csize, &m->local));
    *pos += 46 + nlen + xlen + clen;
    return TX_OK;
}

/* The local header of m: inside the file before the central directory, naming the same member
 * with the same method, flags and (unless a data descriptor follows the data) CRC and sizes;
 * then the data, which must end before the central directory. */
static tx_status read_local(npz_parse *p, npz_member *m) {
    const unsigned char *b = p->f->b;
    uint64_t end = p->cd_offset;
    TX_REQUIRE(m->local <= end && end - m->local >= 30, TX_DATA_LOSS,
               "%s: %s: member \"%s\": its local header (offset %llu) does not fit before the "
               "central directory (offset %llu)", p->op, p->name, m->member,
               (unsigned long long)m->local, (unsigned long long)end);
    const unsigned char *h = b + m->local;
    TX_REQUIRE(le32(h) == 0x04034b50u, TX_INVALID_ARGUMENT,
               "%s: %s: member \"%s\": no local header signature (0x04034b50) at offset %llu",
               p->op, p->name, m->member, (unsigned long long)m->local);
    size_t nlen = le16(h + 26), xlen = le16(h + 28);
    TX_REQUIRE(30 + nlen + xlen <= end - m->local, TX_DATA_LOSS,
               "%s: %s: member \"%s\": the local header's name and extra field (%zu + %zu bytes) "
               "run past the central directory", p->op, p->name, m->member, nlen, xlen);
    TX_REQUIRE(nlen == strlen(m->member) && memcmp(h + 30, m->member, nlen) == 0,
               TX_INVALID_ARGUMENT,
               "%s: %s: member \"%s\": the local header at offset %llu names another member "
               "(\"%.*s\")", p->op, p->name, m->member, (unsigned long long)m->local,
               (int)(nlen < 200 ? nlen : 200), (const char *)h + 30);
    TX_REQUIRE(le16(h + 6) == m->flags && le16(h + 8) == m->method, TX_INVALID_ARGUMENT,
               "%s: %s: member \"%s\": the local header's flags 0x%04x and method %u disagree "
               "with the central directory's 0x%04x and %u", p->op, p->name, m->member,
               le16(h + 6), le16(h + 8), m->flags, m->method);
    if (!(m->flags & 0x08)) { /* no data descriptor: the local header holds CRC and sizes */
        uint64_t usize = le32(h + 22), csize = le32(h + 18);
        TX_TRY(read_zip64_extra(p, m->member, "local header's", h + 30 + nlen, xlen, &usize,
                                &csize, NULL));
        TX_REQUIRE(le32(h + 14) == m->crc && usize == m->usize && csize == m->csize,
                   TX_INVALID_ARGUMENT,
                   "%s: %s: member \"%s\": the local header's CRC-32 0x%08x and sizes %llu "
                   "(compressed) %llu (uncompressed) disagree with the central directory's "
                   "0x%08x, %llu and %llu", p->op, p->name, m->member, le32(h + 14),
                   (unsigned long long)csize, (unsigned long long)usize, m->crc,
                   (unsigned long long)m->csize, (unsigned long long)m->usize);
    }
    m->data = m->local + 30 + nlen + xlen;
    TX_REQUIRE(m->csize <= end - m->data, TX_DATA_LOSS,
               "%s: %s: member \"%s\": its %llu bytes of data (from offset %llu) run past the "
               "central directory (offset %llu)", p->op, p->name, m->member,
               (unsigned long long)m->csize, (unsigned long long)m->data,
               (unsigned long long)end);
    TX_REQUIRE(m->method != 0 || m->csize == m->usize, TX_INVALID_ARGUMENT,
               "%s: %s: member \"%s\" is stored (method 0) with compressed size %llu and "
               "uncompressed size %llu: they must be equal", p->op, p->name, m->member,
               (unsigned long long)m->csize, (unsigned long long)m->usize);
    return TX_OK;
}

static int by_local(const void *a, const void *b) {
    const npz_member *x = *(const npz_member *const *)a, *y = *(const npz_member *const *)b;
    return x->local < y->local ? -1 : x->local > y->local;
}

static int by_name(const void *a, const void *b) {
    const npz_member *x = *(const npz_member *const *)a, *y = *(const npz_member *const *)b;
    return strcmp(x->name, y->name);
}

/* No two members' [local header, data end) overlap, and no two have one array name. */
static tx_status check_members(npz_parse *p) {
    tx_npz *f = p->f;
    size_t n = f->count;
    if (n == 0) return TX_OK;
    const npz_member **order = tx__alloc(n * sizeof *order, p->op);
    if (order == NULL) return TX_RESOURCE_EXHAUSTED;
    for (size_t i = 0; i < n; i++) order[i] = &f->members[i];
    qsort(order, n, sizeof *order, by_local);
    tx_status st = TX_OK;
    for (size_t i = 1; st == TX_OK && i < n; i++)
        if (order[i - 1]->data + order[i - 1]->csize > order[i]->local)
            st = tx__fail(TX_INVALID_ARGUMENT,
                          "%s: %s: members \"%s\" and \"%s\" overlap: the first's data end at "
                          "offset %llu, after the second's local header (offset %llu)", p->op,
                          p->name, order[i - 1]->member, order[i]->member,
                          (unsigned long long)(order[i - 1]->data + order[i - 1]->csize),
                          (unsigned long long)order[i]->local);
    if (st == TX_OK) qsort(order, n, sizeof *order, by_name);
    for (size_t i = 1; st == TX_OK && i < n; i++)
        if (strcmp(order[i - 1]->name, order[i]->name) == 0)
            st = tx__fail(TX_INVALID_ARGUMENT,
                          "%s: %s: members \"%s\" and \"%s\" both hold array \"%s\"", p->op,
                          p->name, order[i - 1]->member, order[i]->member, order[i]->name);
    for (size_t i = 0; st == TX_OK && i < n; i++)
        f->by_name[i] = (size_t)(order[i] - f->members);
    tx__free(order, n * sizeof *order);
    return st;
}

static tx_status parse(npz_parse *p) {
    tx_npz *f = p->f;
    TX_TRY(read_end(p));
    uint64_t cd_size = p->cd_end - p->cd_offset;
    TX_REQUIRE(p->count <= cd_size / 46, TX_INVALID_ARGUMENT,
               "%s: %s: the end record announces %llu members, more than the central directory's "
               "%llu bytes can hold (46 bytes each at least)", p->op, p->name,
               (unsigned long long)p->count, (unsigned long long)cd_size);
    /* close_file frees count members and by_name entries and arena_size bytes: set each size
     * once its allocation has succeeded. */
    size_t count = (size_t)p->count, arena_size = 2 * (size_t)cd_size + 1; /* each name twice */
    if (count) {
        f->members = tx__alloc(count * sizeof *f->members, p->op);
        if (f->members == NULL) return TX_RESOURCE_EXHAUSTED;
        f->by_name = tx__alloc(count * sizeof *f->by_name, p->op);
        if (f->by_name == NULL) {
            tx__free(f->members, count * sizeof *f->members);
            f->members = NULL;
            return TX_RESOURCE_EXHAUSTED;
        }
        f->count = count;
    }
    f->arena = tx__alloc(arena_size, p->op);
    if (f->arena == NULL) return TX_RESOURCE_EXHAUSTED;
    f->arena_size = arena_size;
    uint64_t pos = p->cd_offset;
    size_t arena_pos = 0;
    for (size_t i = 0; i < f->count; i++)
        TX_TRY(read_central(p, i, &pos, &arena_pos, &f->members[i]));
    TX_REQUIRE(pos == p->cd_end, TX_INVALID_ARGUMENT,
               "%s: %s: %llu bytes follow the %zu central directory entries the end record "
               "announces", p->op, p->name, (unsigned long long)(p->cd_end - pos), f->count);
    for (size_t i = 0; i < f->count; i++) TX_TRY(read_local(p, &f->members[i]));
    return check_members(p);
}

static tx_status open_bytes(const char *op, const char *name, tx_tensor *file, tx_npz **out) {
    tx_npz *f = tx__alloc(sizeof *f, op);
    if (f == NULL) {
        tx_tensor_free(file);
        return TX_RESOURCE_EXHAUSTED;
    }
    memset(f, 0, sizeof *f);
    f->file = file;
    f->b = (const unsigned char *)file->data;
    f->size = file->nbytes;
    snprintf(f->name, sizeof f->name, "%s", name);
    npz_parse p = {.op = op, .name = name, .f = f};
    tx_status st = parse(&p);
    if (st != TX_OK) {
        close_file(f);
        return st;
    }
    *out = f;
    return TX_OK;
}

tx_status tx_npz_open_buffer(const void *data, size_t size, tx_npz **out) {
    static const char *op = "npz_open_buffer";
    TX_REQUIRE(out != NULL, TX_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    tx_tensor *file;
    TX_TRY(tx__copy_whole_buffer(op, data, size, &file));
    return open_bytes(op, "the buffer", file, out);
}

tx_status tx_npz_open(const char *path, tx_npz **out) {
    static const char *op = "npz_open";
    TX_REQUIRE(out != NULL, TX_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", op);
    tx_tensor *file;
    TX_TRY(tx__map_whole_file(op, path, &file));
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    return open_bytes(op, name, file, out);
}

size_t tx_npz_count(const tx_npz *file) { return file ? file->count : 0; }

const char *tx_npz_name(const tx_npz *file, size_t i) {
    return file && i < file->count ? file->members[i].name : NULL;
}

/* ---- get ---- */

/* A failure of the .npy reader on member m, prefixed with the op, file and member. */
static tx_status member_failed(const char *op, const tx_npz *f, const npz_member *m,
                               tx_status st) {
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    return tx__fail(st, "%s: %s: member \"%s\": %s", op, f->name, m->member, msg);
}

/* A stored member: a view of the mapping when its data can be used in place (numeric, C order
 * or rank <= 1, host byte order or 1-byte units, aligned, bools 0 or 1), else a converted copy. */
static tx_status get_stored(const char *op, const tx_npz *f, const npz_member *m,
                            tx_tensor **out) {
    const unsigned char *p = f->b + m->data;
    size_t n = (size_t)m->usize;
    int64_t dims[TX_MAX_RANK];
    tx_npy_info h = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    tx_status st = tx__npy_parse(p, n, n, &h);
    if (st != TX_OK) return member_failed(op, f, m, st);
    const unsigned char *d = p + h.data_offset;
    size_t unit = tx_dtype_kind_of(h.dtype) == TX_KIND_COMPLEX ? h.item_size / 2 : h.item_size;
    size_t align = h.item_size > 8 ? 8 : h.item_size ? h.item_size : 1;
    bool in_place = h.dtype != TX_STRING && !(h.fortran_order && h.rank > 1) &&
                    (!h.byte_swapped || unit == 1) && (uintptr_t)d % align == 0 &&
                    !tx__is_subbyte(h.dtype);
    for (size_t i = 0; in_place && h.dtype == TX_BOOL && i < h.data_size; i++)
        in_place = d[i] <= 1;
    if (in_place)
        return tx__buffer_view(op, f->file->buf, (char *)(uintptr_t)d, h.dtype, h.rank, h.dims,
                               out);
    st = tx_npy_load_buffer(p, n, out);
    if (st != TX_OK) return member_failed(op, f, m, st);
    return TX_OK;
}

/* A deflated member: inflated straight into a new tensor, at most its declared size, then its
 * size and CRC-32 checked. */
static tx_status get_deflated(const char *op, const tx_npz *f, const npz_member *m,
                              tx_tensor **out) {
    char name[TX_FILE_NAME_CAP + 300];
    snprintf(name, sizeof name, "%s member \"%.256s\"", f->name, m->member);
    tx__zsource *z;
    TX_TRY(tx__zsource_open(op, name, TX__Z_RAW, f->b + m->data, (size_t)m->csize, &z));
    tx__zsource_limit(z, m->usize);
    tx_status st = tx__npy_load_z(z, name, out);
    if (st != TX_OK && strstr(tx_last_error(), name) == NULL) /* the .npy reader's own rules */
        st = member_failed(op, f, m, st);
    if (st == TX_OK && tx__zsource_tell(z) != m->usize)
        st = tx__fail(TX_DATA_LOSS, "%s: %s: decompresses to %llu bytes, not the %llu its "
                      "headers declare", op, name, (unsigned long long)tx__zsource_tell(z),
                      (unsigned long long)m->usize);
    if (st == TX_OK && tx__zsource_crc32(z) != m->crc)
        st = tx__fail(TX_DATA_LOSS, "%s: %s: CRC-32 mismatch: the data give 0x%08x, the headers "
                      "say 0x%08x", op, name, tx__zsource_crc32(z), m->crc);
    tx__zsource_close(z);
    if (st != TX_OK) {
        tx_tensor_free(*out);
        *out = NULL;
    }
    return st;
}

tx_status tx_npz_get(const tx_npz *file, const char *name, tx_tensor **out) {
    static const char *op = "npz_get";
    TX_REQUIRE(out != NULL, TX_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    TX_REQUIRE(file != NULL, TX_INVALID_ARGUMENT, "%s: file is NULL", op);
    TX_REQUIRE(name != NULL, TX_INVALID_ARGUMENT, "%s: name is NULL", op);
    size_t lo = 0, hi = file->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(file->members[file->by_name[mid]].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    TX_REQUIRE(lo < file->count && strcmp(file->members[file->by_name[lo]].name, name) == 0,
               TX_INVALID_ARGUMENT, "%s: %s: no array \"%s\" in the file", op, file->name, name);
    const npz_member *m = &file->members[file->by_name[lo]];
    TX_REQUIRE(m->npy, TX_UNIMPLEMENTED,
               "%s: %s: member \"%s\" is not a .npy file (np.load gives its bytes; tensorx reads "
               ".npy members only)", op, file->name, m->member);
    TX_TRY(m->method == 0 ? get_stored(op, file, m, out) : get_deflated(op, file, m, out));
    (*out)->read_only = true;
    return TX_OK;
}
