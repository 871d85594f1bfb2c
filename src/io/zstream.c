/* SPDX-License-Identifier: Apache-2.0 */
/* zstream.c -- ZLIB and GZIP streams through zlib (zstream.h): inflating from memory with bounded
 * memory, deflating into a callback.  zlib allocates through the library allocator, so
 * allocation-failure tests reach it too. */
#include "io/zstream.h"

#include <stdio.h>

tx__zformat tx__zformat_of(const void *p, size_t n) {
    const unsigned char *b = p;
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b) return TX__Z_GZIP;
    if (n >= 2 && (b[0] & 0x0f) == 8 && (b[0] >> 4) <= 7 && ((unsigned)b[0] << 8 | b[1]) % 31 == 0)
        return TX__Z_ZLIB;
    return (tx__zformat)0;
}

#if TX_HAVE_ZLIB
#include <zlib.h>

/* zlib's allocations with their size in front (tx__free wants it back). */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
    (void)opaque;
    const size_t n = (size_t)items * size;
    size_t *p = tx__alloc(n + 16, "zlib");
    if (p == NULL) return Z_NULL;
    p[0] = n + 16;
    return (char *)p + 16;
}

static void z_free(voidpf opaque, voidpf address) {
    (void)opaque;
    if (address == NULL) return;
    size_t *p = (size_t *)(void *)((char *)address - 16);
    tx__free(p, p[0]);
}

/* zlib's windowBits: 15 (32 KiB), plus 16 for a gzip wrapper, negative for none. */
static int window_bits(tx__zformat format) {
    return format == TX__Z_GZIP ? 15 + 16 : format == TX__Z_RAW ? -15 : 15;
}

static const char *format_name(tx__zformat format) {
    return format == TX__Z_GZIP ? "GZIP" : format == TX__Z_RAW ? "deflate" : "ZLIB";
}

uint32_t tx__crc32(uint32_t crc, const void *p, size_t n) {
    const Bytef *b = p;
    while (n > 0) {
        const uInt take = n < (1u << 30) ? (uInt)n : (1u << 30);
        crc = (uint32_t)crc32(crc, b, take);
        b += take;
        n -= take;
    }
    return crc;
}

struct tx__zsource {
    z_stream s;
    const char *op, *name;
    tx__zformat format;
    const unsigned char *src;
    size_t n, used; /* compressed bytes: all, and given to zlib so far */
    uint64_t out;   /* decompressed bytes handed out */
    uint32_t crc;   /* their CRC-32 */
    bool ended;     /* the last stream's end marker was read and no input is left */
    tx__zread_fn *pull; /* a pull source's input, into inbuf (PULL_CAP bytes); src is NULL */
    void *pull_ctx;
    bool pulled_all;    /* pull returned 0 */
    unsigned char *inbuf;
    uint64_t limit;     /* the most decompressed bytes allowed (tx__zsource_limit) */
};

enum { PULL_CAP = 64 * 1024 };

static tx_status z_memory(const char *op) {
    return tx__fail(TX_RESOURCE_EXHAUSTED, "%s: out of memory for zlib's state", op);
}

tx_status tx__zsource_open(const char *op, const char *name, tx__zformat format,
                           const void *src, size_t n, tx__zsource **out) {
    *out = NULL;
    tx__zsource *z = tx__alloc(sizeof *z, op);
    if (z == NULL) return TX_RESOURCE_EXHAUSTED;
    memset(z, 0, sizeof *z);
    z->s.zalloc = z_alloc;
    z->s.zfree = z_free;
    z->op = op;
    z->name = name;
    z->format = format;
    z->src = src;
    z->n = n;
    z->limit = UINT64_MAX;
    if (inflateInit2(&z->s, window_bits(format)) != Z_OK) {
        tx__free(z, sizeof *z);
        return z_memory(op);
    }
    *out = z;
    return TX_OK;
}

tx_status tx__zsource_open_pull(const char *op, const char *name, tx__zformat format,
                                tx__zread_fn *read, void *ctx, tx__zsource **out) {
    unsigned char *inbuf = tx__alloc(PULL_CAP, op);
    if (inbuf == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = tx__zsource_open(op, name, format, NULL, 0, out);
    if (st != TX_OK) {
        tx__free(inbuf, PULL_CAP);
        return st;
    }
    (*out)->pull = read;
    (*out)->pull_ctx = ctx;
    (*out)->inbuf = inbuf;
    return TX_OK;
}

/* A pull source's next piece of input into next_in; false when the input has ended. */
static tx_status pull_more(tx__zsource *z, bool *more) {
    size_t got = 0;
    *more = false;
    if (!z->pulled_all) TX_TRY(z->pull(z->pull_ctx, z->inbuf, PULL_CAP, &got));
    if (got == 0) {
        z->pulled_all = true;
        return TX_OK;
    }
    z->s.next_in = z->inbuf;
    z->s.avail_in = (uInt)got;
    z->used += got;
    *more = true;
    return TX_OK;
}

/* Whether every compressed byte has been given to zlib. */
static tx_status input_done(tx__zsource *z, bool *done) {
    *done = false;
    if (z->s.avail_in != 0) return TX_OK;
    if (z->pull == NULL) {
        *done = z->used == z->n;
        return TX_OK;
    }
    bool more;
    TX_TRY(pull_more(z, &more));
    *done = !more;
    return TX_OK;
}

/* Inflates up to n bytes into d (*got of them). */
static tx_status inflate_some(tx__zsource *z, unsigned char *d, size_t n, size_t *got) {
    size_t have = 0;
    *got = 0;
    while (have < n && !z->ended) {
        /* With every compressed byte given, zlib may still hold output that the last call had
         * no room for: one more call gives it, and only a call that gives nothing means the
         * input ends before the end marker. */
        bool no_input = false;
        if (z->s.avail_in == 0 && z->pull != NULL) {
            TX_TRY(input_done(z, &no_input));
        } else if (z->s.avail_in == 0 && z->used == z->n) {
            no_input = true;
        } else if (z->s.avail_in == 0) {
            const size_t take = z->n - z->used < (1u << 30) ? z->n - z->used : (1u << 30);
            z->s.next_in = (Bytef *)(uintptr_t)(z->src + z->used);
            z->s.avail_in = (uInt)take;
            z->used += take;
        }
        const size_t want = n - have < (1u << 30) ? n - have : (1u << 30);
        z->s.next_out = d + have;
        z->s.avail_out = (uInt)want;
        const int r = inflate(&z->s, Z_NO_FLUSH);
        const size_t made = want - z->s.avail_out;
        have += made;
        if (no_input && made == 0 && r != Z_STREAM_END) break; /* input ends before the end marker */
        if (r == Z_STREAM_END) {
            /* another stream may follow (gzip members, as gunzip reads them; raw deflate has
             * no framing, so what follows its end is not another stream) */
            bool done;
            TX_TRY(input_done(z, &done));
            if (done || z->format == TX__Z_RAW) z->ended = done;
            if (!done && z->format == TX__Z_RAW) break;
            if (!done && inflateReset(&z->s) != Z_OK) return z_memory(z->op);
        } else if (r == Z_MEM_ERROR) {
            return z_memory(z->op);
        } else if (r != Z_OK && r != Z_BUF_ERROR) {
            const uint64_t at = (uint64_t)(z->used - z->s.avail_in);
            return tx__fail(TX_DATA_LOSS,
                            "%s: %s: inflate() failed with error %d: %s (the %s stream is "
                            "corrupt near compressed byte %llu)",
                            z->op, z->name, r, z->s.msg ? z->s.msg : "invalid data",
                            format_name(z->format), (unsigned long long)at);
        }
    }
    *got = have;
    return TX_OK;
}

void tx__zsource_limit(tx__zsource *z, uint64_t limit) { z->limit = limit; }

tx_status tx__zsource_read(tx__zsource *z, void *dst, size_t n, size_t *got) {
    *got = 0;
    if (n > z->limit - z->out) n = (size_t)(z->limit - z->out);
    size_t have;
    TX_TRY(inflate_some(z, dst, n, &have));
    z->out += have;
    z->crc = tx__crc32(z->crc, dst, have);
    *got = have;
    if (z->out == z->limit && !z->ended) { /* at the cap: the stream must end here */
        unsigned char probe;
        size_t more;
        TX_TRY(inflate_some(z, &probe, 1, &more));
        TX_REQUIRE(more == 0, TX_DATA_LOSS,
                   "%s: %s: the %s stream decompresses to more than the %llu bytes declared",
                   z->op, z->name, format_name(z->format), (unsigned long long)z->limit);
    }
    return TX_OK;
}

uint64_t tx__zsource_tell(const tx__zsource *z) { return z->out; }

uint32_t tx__zsource_crc32(const tx__zsource *z) { return z->crc; }

bool tx__zsource_ended(const tx__zsource *z) { return z->ended; }

tx_status tx__zsource_rewind(tx__zsource *z) {
    if (inflateReset(&z->s) != Z_OK) return z_memory(z->op);
    z->s.avail_in = 0;
    z->used = 0;
    z->out = 0;
    z->crc = 0;
    z->ended = false;
    return TX_OK;
}

void tx__zsource_close(tx__zsource *z) {
    if (z == NULL) return;
    inflateEnd(&z->s);
    if (z->inbuf) tx__free(z->inbuf, PULL_CAP);
    tx__free(z, sizeof *z);
}

enum { SINK_CHUNK = 64 * 1024 };

struct tx__zsink {
    z_stream s;
    const char *op;
    tx__zwrite_fn *write;
    void *ctx;
    unsigned char buf[SINK_CHUNK];
};

tx_status tx__zsink_open(const char *op, tx__zformat format, tx__zwrite_fn *write, void *ctx,
                         tx__zsink **out) {
    *out = NULL;
    tx__zsink *z = tx__alloc(sizeof *z, op);
    if (z == NULL) return TX_RESOURCE_EXHAUSTED;
    memset(&z->s, 0, sizeof z->s);
    z->s.zalloc = z_alloc;
    z->s.zfree = z_free;
    z->op = op;
    z->write = write;
    z->ctx = ctx;
    if (deflateInit2(&z->s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits(format), 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        tx__free(z, sizeof *z);
        return z_memory(op);
    }
    *out = z;
    return TX_OK;
}

/* Deflates what next_in holds (flush: Z_NO_FLUSH or Z_FINISH), writing every full buffer. */
static tx_status sink_pump(tx__zsink *z, int flush) {
    for (;;) {
        z->s.next_out = z->buf;
        z->s.avail_out = SINK_CHUNK;
        const int r = deflate(&z->s, flush);
        if (r == Z_STREAM_ERROR) return tx__fail(TX_INTERNAL, "%s: zlib's deflate failed", z->op);
        const size_t n = SINK_CHUNK - z->s.avail_out;
        if (n > 0) TX_TRY(z->write(z->ctx, z->buf, n));
        if (flush == Z_FINISH ? r == Z_STREAM_END : z->s.avail_in == 0 && z->s.avail_out > 0)
            return TX_OK;
    }
}

tx_status tx__zsink_write(tx__zsink *z, const void *p, size_t n) {
    const unsigned char *b = p;
    while (n > 0) {
        const size_t take = n < (1u << 30) ? n : (1u << 30);
        z->s.next_in = (Bytef *)(uintptr_t)b;
        z->s.avail_in = (uInt)take;
        TX_TRY(sink_pump(z, Z_NO_FLUSH));
        b += take;
        n -= take;
    }
    return TX_OK;
}

tx_status tx__zsink_finish(tx__zsink *z) {
    z->s.next_in = NULL;
    z->s.avail_in = 0;
    return sink_pump(z, Z_FINISH);
}

void tx__zsink_close(tx__zsink *z) {
    if (z == NULL) return;
    deflateEnd(&z->s);
    tx__free(z, sizeof *z);
}

#else /* built without zlib */

uint32_t tx__crc32(uint32_t crc, const void *p, size_t n) {
    const unsigned char *b = p;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= b[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static tx_status no_zlib(const char *op) {
    return tx__fail(TX_UNIMPLEMENTED,
                    "%s: this tensorx was built without zlib, so GZIP, ZLIB and deflate compressed "
                    "data cannot be read or written (configure with -DTX_WITH_ZLIB=ON)",
                    op);
}

tx_status tx__zsource_open(const char *op, const char *name, tx__zformat format,
                           const void *src, size_t n, tx__zsource **out) {
    (void)name, (void)format, (void)src, (void)n;
    *out = NULL;
    return no_zlib(op);
}
tx_status tx__zsource_open_pull(const char *op, const char *name, tx__zformat format,
                                tx__zread_fn *read, void *ctx, tx__zsource **out) {
    (void)name, (void)format, (void)read, (void)ctx;
    *out = NULL;
    return no_zlib(op);
}
tx_status tx__zsource_read(tx__zsource *z, void *dst, size_t n, size_t *got) {
    (void)z, (void)dst, (void)n;
    *got = 0;
    return tx__fail(TX_INTERNAL, "zstream: no zlib");
}
uint64_t tx__zsource_tell(const tx__zsource *z) { return (void)z, 0; }
uint32_t tx__zsource_crc32(const tx__zsource *z) { return (void)z, 0; }
void tx__zsource_limit(tx__zsource *z, uint64_t limit) { (void)z, (void)limit; }
bool tx__zsource_ended(const tx__zsource *z) { return (void)z, false; }
tx_status tx__zsource_rewind(tx__zsource *z) { return (void)z, TX_OK; }
void tx__zsource_close(tx__zsource *z) { (void)z; }
tx_status tx__zsink_open(const char *op, tx__zformat format, tx__zwrite_fn *write, void *ctx,
                         tx__zsink **out) {
    (void)format, (void)write, (void)ctx;
    *out = NULL;
    return no_zlib(op);
}
tx_status tx__zsink_write(tx__zsink *z, const void *p, size_t n) {
    return (void)z, (void)p, (void)n, tx__fail(TX_INTERNAL, "zstream: no zlib");
}
tx_status tx__zsink_finish(tx__zsink *z) { return (void)z, tx__fail(TX_INTERNAL, "zstream: no zlib"); }
void tx__zsink_close(tx__zsink *z) { (void)z; }

#endif
