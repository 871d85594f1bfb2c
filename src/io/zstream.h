/* SPDX-License-Identifier: Apache-2.0 */
/* zstream.h -- the one place that decompresses and compresses (zlib, optional: TX_WITH_ZLIB):
 * a source that inflates an in-memory ZLIB or GZIP stream a few bytes at a time with bounded
 * memory (zlib's 32 KiB window and its own state), and a sink that deflates bytes into a write
 * callback.  The TFRecord, IDX, .npy and .npz readers and writers use it; any other reader of
 * compressed files should too.  Built without zlib, the opens fail with unimplemented naming TX_WITH_ZLIB. */
#ifndef TX_IO_ZSTREAM_H
#define TX_IO_ZSTREAM_H

#include "core/internal.h"

/* The stream formats: zlib's (RFC 1950) and gzip's (RFC 1952), as TF's compression_type "ZLIB"
 * and "GZIP" write them, and raw deflate (RFC 1951), as ZIP members (method 8) hold it. */
typedef enum tx__zformat { TX__Z_ZLIB = 1, TX__Z_GZIP = 2, TX__Z_RAW = 3 } tx__zformat;

/* The format the n bytes at p start with, by magic: gzip's (1f 8b), zlib's (a CMF byte with
 * method 8 and a window of at most 32 KiB, and a header check that is a multiple of 31), or 0
 * for neither.  Raw deflate has no magic. */
TX_HIDDEN tx__zformat tx__zformat_of(const void *p, size_t n);

/* The CRC-32 (ISO-HDLC, as ZIP and gzip use it) of n bytes at p, continuing from crc (0 to
 * start).  zlib's when there is zlib, else a table-driven one: ZIP writing works without zlib. */
TX_HIDDEN uint32_t tx__crc32(uint32_t crc, const void *p, size_t n);

typedef struct tx__zsource tx__zsource;

/* Opens a source over the n compressed bytes at src (which must outlive it).  `op` and `name`
 * (the file, as "'path'") go into messages.  Errors: unimplemented (no zlib); resource_exhausted. */
TX_HIDDEN tx_status tx__zsource_open(const char *op, const char *name, tx__zformat format,
                                     const void *src, size_t n, tx__zsource **out);
/* Where a pull source's compressed bytes come from: fills up to cap bytes of buf and sets *got
 * (0: the input ended); returns TX_OK or a failure it has reported (tx__fail). */
typedef tx_status tx__zread_fn(void *ctx, void *buf, size_t cap, size_t *got);
/* tx__zsource_open over compressed bytes pulled through read(ctx, ...) (a pipe, a file read in
 * pieces) into a 64 KiB buffer of the source's: memory stays bounded whatever the input's size.
 * A pull source cannot be rewound. */
TX_HIDDEN tx_status tx__zsource_open_pull(const char *op, const char *name, tx__zformat format,
                                          tx__zread_fn *read, void *ctx, tx__zsource **out);
/* Decompresses up to n bytes into dst; *got < n only where the stream ends (a stream that stops
 * before its end marker ends there too: the caller decides whether that is a truncation).
 * Concatenated streams (gzip members) are read as one.  Errors: data_loss (corrupt data,
 * naming the compressed byte and zlib's reason); resource_exhausted. */
TX_HIDDEN tx_status tx__zsource_read(tx__zsource *z, void *dst, size_t n, size_t *got);
/* Caps the decompressed bytes at limit (a ZIP member's declared size): a read never hands out
 * more, and a stream that holds more fails the read that reaches the cap with data_loss ("...
 * decompresses to more than LIMIT bytes"), so a lying size or a decompression bomb costs at
 * most limit bytes of output. */
TX_HIDDEN void tx__zsource_limit(tx__zsource *z, uint64_t limit);
/* Whether the last stream's end marker has been read and no compressed byte is left: after a
 * read gave fewer bytes than asked, false means the input stops inside a stream (cut short). */
TX_HIDDEN bool tx__zsource_ended(const tx__zsource *z);
/* Decompressed bytes handed out so far, and their CRC-32 (tx__crc32). */
TX_HIDDEN uint64_t tx__zsource_tell(const tx__zsource *z);
TX_HIDDEN uint32_t tx__zsource_crc32(const tx__zsource *z);
/* Starts again from the first compressed byte. */
TX_HIDDEN tx_status tx__zsource_rewind(tx__zsource *z);
TX_HIDDEN void tx__zsource_close(tx__zsource *z);

/* Where a sink's compressed bytes go: returns TX_OK or a failure it has reported (tx__fail). */
typedef tx_status tx__zwrite_fn(void *ctx, const void *p, size_t n);
typedef struct tx__zsink tx__zsink;

/* Opens a sink writing `format` at zlib's default level through write(ctx, ...).
 * Errors: unimplemented (no zlib); resource_exhausted. */
TX_HIDDEN tx_status tx__zsink_open(const char *op, tx__zformat format, tx__zwrite_fn *write,
                                   void *ctx, tx__zsink **out);
TX_HIDDEN tx_status tx__zsink_write(tx__zsink *z, const void *p, size_t n);
/* Writes the rest and the stream's end marker. */
TX_HIDDEN tx_status tx__zsink_finish(tx__zsink *z);
/* Frees the sink (NULL is a no-op); call it after finish or after a failure. */
TX_HIDDEN void tx__zsink_close(tx__zsink *z);

#endif
