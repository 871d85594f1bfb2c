/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/tfrecord.h -- TFRecord files.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/tfrecord.h"
#endif
#ifndef TENSORX_TFRECORD_H
#define TENSORX_TFRECORD_H

/* ------------------------------------------------------------------------------------------------
 * TFRecord files (tf.io.TFRecordWriter, tf.data.TFRecordDataset)
 * Implemented in src/io/tfrecord.c, src/io/tfrecord_write.c and src/io/zstream.c.
 *
 * A TFRecord file is a sequence of records, each framed as: the data's length (uint64,
 * little-endian), the masked CRC-32C of those 8 bytes (uint32), the data, the masked CRC-32C of
 * the data (uint32), where mask(c) = ((c >> 15) | (c << 17)) + 0xa282ead8.  Reading verifies both
 * checksums of every record it hands out, as TensorFlow's record reader does, with its messages:
 *   - "corrupted record at OFFSET": a checksum does not match (OFFSET is the record's start for
 *     the length's checksum, with " (Is this even a TFRecord file?)" at offset 0, and the data's
 *     start, OFFSET + 12, for the data's checksum); data_loss, TF's DataLoss.
 *   - "truncated record at OFFSET": the header is whole but the data and checksum the length
 *     announces run past the end of the file (a length that lies is caught here, before anything
 *     is allocated); data_loss.
 *   - the end of the records: no byte left, or fewer than the 12 bytes of a header, which TF
 *     also takes as the end (it does not report a partial header).
 * Offsets count bytes of the uncompressed stream.  Compressed files ("ZLIB" and "GZIP", as TF's
 * compression_type) are decompressed as they are read, with memory bounded by zlib's window and
 * the largest record; they need zlib (CMake option TX_WITH_ZLIB): without it they give
 * unimplemented.  A record of a compressed file longer than tx_max_tensor_bytes() is refused
 * (resource_exhausted) before it is read.
 * --------------------------------------------------------------------------------------------- */

/* The compression of a TFRecord file: TF's compression_type "" (TX_TFRECORD_NONE), "ZLIB"
 * (TX_TFRECORD_ZLIB, a zlib stream) and "GZIP" (TX_TFRECORD_GZIP, a gzip stream). */
typedef enum tx_tfrecord_compression {
    TX_TFRECORD_NONE = 0,
    TX_TFRECORD_ZLIB = 1,
    TX_TFRECORD_GZIP = 2
} tx_tfrecord_compression;

/* A reader of one TFRecord file: opaque; one thread at a time. */
typedef struct tx_tfrecord_reader tx_tfrecord_reader;

/* tx_tfrecord_open opens the TFRecord file at path, compressed as `compression` says, for
 * reading from its first record.  The file is mapped into memory, not read (a regular file;
 * anything else is refused): an uncompressed file's records are handed out as pointers into the
 * mapping, with no copy.  tx_tfrecord_open_buffer reads the `size` bytes at `data` instead,
 * which stay the caller's and must stay unchanged while the reader or any tensor it returned
 * lives.  *reader receives the reader, the caller's, closed with tx_tfrecord_close.
 * Errors: invalid_argument (path, data with size > 0, or reader NULL; compression not one of
 * tx_tfrecord_compression; the file cannot be opened or mapped, or is not a regular file, naming
 * it and the system's reason); unimplemented (compressed, without zlib); resource_exhausted. */
TX_API tx_status tx_tfrecord_open(const char *path, tx_tfrecord_compression compression,
                                  tx_tfrecord_reader **reader);
TX_API tx_status tx_tfrecord_open_buffer(const void *data, size_t size,
                                         tx_tfrecord_compression compression,
                                         tx_tfrecord_reader **reader);

/* Closes reader and frees it; tensors it returned stay valid (they keep the mapping).  NULL is a
 * no-op. */
TX_API void tx_tfrecord_close(tx_tfrecord_reader *reader);

/* Reads the next record of reader: *record receives its length and a pointer to its bytes, which
 * belong to the reader: valid until the reader is closed (uncompressed) or until its next call
 * (compressed); *offset (may be NULL) receives the record's offset, which tx_tfrecord_seek takes.
 * After a failure the reader stays at the failing record.
 * Errors: out_of_range at the end of the records (the message says "eof", as TF's); data_loss (a
 * corrupted or truncated record, with TF's message; corrupt compressed data); invalid_argument
 * (reader or record NULL); resource_exhausted (a compressed file's record over
 * tx_max_tensor_bytes(); allocation). */
TX_API tx_status tx_tfrecord_next(tx_tfrecord_reader *reader, tx_string *record,
                                  uint64_t *offset);

/* Reads up to max_records records (all that are left when max_records < 0) into *out, a new 1-D
 * string tensor with one element per record, fewer (possibly none) at the end of the file.  An
 * uncompressed file's elements point into the file's mapping: no byte is copied, and the tensor
 * (and every tensor made from it) keeps the mapping alive; a compressed file's records are
 * copied.  On failure nothing is read: the reader stays before the first record of the call.
 * Errors: those of tx_tfrecord_next, except out_of_range; invalid_argument also for out NULL;
 * resource_exhausted also when a compressed file's records together pass tx_max_tensor_bytes()
 * (checked as they are read, so a file that decompresses to far more costs no more). */
TX_API tx_status tx_tfrecord_read(tx_tfrecord_reader *reader, int64_t max_records,
                                  tx_tensor **out);

/* Moves reader to the record at `offset` (0, an offset tx_tfrecord_next or tx_tfrecord_index
 * gave, or the end): the next read starts there.  An offset that is not a record's start makes
 * the next read fail with "corrupted record at OFFSET".  In a compressed file a seek backwards
 * decompresses again from the start.
 * Errors: invalid_argument (reader NULL; offset past the end of the uncompressed bytes). */
TX_API tx_status tx_tfrecord_seek(tx_tfrecord_reader *reader, uint64_t offset);

/* Indexes the whole file: *out receives a new 1-D int64 tensor of every record's offset, in file
 * order, for random access (tx_tfrecord_seek), sharding and shuffling.  Each header's checksum is
 * verified and each record must fit in the file; the data's checksums are verified when the
 * records are read, as TF's metadata scan does.  The reader's position does not change.
 * Errors: those of tx_tfrecord_next, except out_of_range; invalid_argument also for out NULL. */
TX_API tx_status tx_tfrecord_index(tx_tfrecord_reader *reader, tx_tensor **out);

/* tx_tfrecord_write writes the elements of `records`, a string tensor of any shape (row-major
 * order), as the records of a TFRecord file at path, compressed as `compression` says: the
 * bytes tf.io.TFRecordWriter writes for the same records and options (its compressed files are
 * equal after decompression).  The file is replaced whole or not at all, as tx_npy_save replaces
 * one (a temporary file beside it, renamed over it).  tx_tfrecord_write_buffer writes the same
 * bytes into a new buffer: *data and *size receive it, the caller's, freed with
 * tx_buffer_free(data, size).
 * Errors: invalid_argument (path, records, data or size NULL; records not a string tensor;
 * compression not one of tx_tfrecord_compression; the file cannot be created, written or
 * renamed, naming it and the system's reason); unimplemented (compressed, without zlib);
 * resource_exhausted (allocation failed). */
TX_API tx_status tx_tfrecord_write(const char *path, const tx_tensor *records,
                                   tx_tfrecord_compression compression);
TX_API tx_status tx_tfrecord_write_buffer(const tx_tensor *records,
                                          tx_tfrecord_compression compression, void **data,
                                          size_t *size);

#endif
