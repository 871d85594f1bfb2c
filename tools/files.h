/* SPDX-License-Identifier: Apache-2.0 */
/* files.h -- the CLI's output files (tools only): a file written under a temporary name and
 * renamed over its path at the end (outfile; a SIGBUS removes it: frontend/fault.h), and an op's
 * output made straight in a mapped output file (mapout: the op writes into the file's pages, no
 * copy in memory). */
#ifndef TX_TOOLS_FILES_H
#define TX_TOOLS_FILES_H

#include "opreg.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- output files ---- */

/* The outfile functions are called from one thread (the CLI's); the SIGBUS handler may read
 * their temporary names from any thread. */
typedef struct outfile {
    int fd;
    const char *path; /* as given: named in errors */
    char *target;     /* path with its symbolic links followed: the file replaced (malloc'd) */
    char *tmp;        /* the temporary name (malloc'd), NULL when target is written directly */
    struct temp_slot *tmp_slot; /* its registration with the fault handler */
} outfile;

/* Opens `path` for writing.  Symbolic links are followed first (the link stays, the file it ends
 * at is replaced); a regular file, or a name that names nothing, is then written through a new
 * temporary file in that file's directory (renamed over it by outfile_commit, removed by
 * outfile_abort or a fault), so a file being read -- a mapped input -- is never truncated.  A
 * device such as /dev/full, a FIFO, or a link to an open file rather than a name (/dev/stdout,
 * /proc/self/fd/N) is written directly.  Fails with OP_IO_ERROR naming path. */
tx_status outfile_open(outfile *f, const char *path);
/* Closes the file (its temporary name is kept for outfile_commit_all): an error closing it is
 * OP_IO_ERROR naming path, and the file is then aborted. */
tx_status outfile_close(outfile *f);
/* Closes the file and renames the temporary one over its target.  On failure the temporary file
 * is removed and the target is as it was; OP_IO_ERROR. */
tx_status outfile_commit(outfile *f);
/* Commits n files together: closes each one still open, then, only when every one closed
 * cleanly, renames each temporary file over its target.  On a failure no further file is
 * renamed and every temporary file left is removed; OP_IO_ERROR naming the file that failed.
 * (Only a rename that the file system refuses after every write succeeded -- a target turned
 * into a directory meanwhile -- can leave the files before it replaced.) */
tx_status outfile_commit_all(outfile *f, size_t n);
/* Closes the file and removes the temporary one (target untouched; a device is only closed).
 * Safe again, and after a failed outfile_open or a commit (then it does nothing). */
void outfile_abort(outfile *f);
/* Whether path is written as .npy: it names no other format of frontend/formats.h (no
 * FILE.safetensors[:NAME], FILE.idx, ...; FILE.npy:NAME neither).  Only such a path may take an
 * output made in its mapped file, or streamed. */
bool outfile_is_npy(const char *path);
/* Whether outfile_open(path) would write through a temporary file: path is not "-" and, with its
 * symbolic links followed, names a regular file or nothing (and the system agrees). */
bool outfile_replaces(const char *path);

/* ---- writing ---- */

/* write(2) until every byte is written: a short write goes on, an error (a full disk, EFBIG past
 * the file-size limit, a closed pipe) is OP_IO_ERROR naming path. */
tx_status fd_write_all(int fd, const char *path, const void *data, size_t n);
/* Writes n bytes of host-order elements of dtype dt as .npy data, which is little-endian (the
 * header comes from tx_npy_write_header): on a big-endian host each element (each part of a
 * complex) is reversed on the way through a small buffer, since the data may be a read-only
 * mapping. */
tx_status fd_write_npy_data(int fd, const char *path, const void *data, size_t n, tx_dtype dt);
/* pwrite(2) of all n bytes at offset (a header rewritten once its sizes are known). */
tx_status fd_pwrite_all(int fd, const char *path, const void *data, size_t n, uint64_t offset);

/* ---- outputs made in a mapped output file ---- */

/* Installs the CLI's allocator (call before any tensor is made): the library's default one,
 * except that a request armed by mapout_begin is served from the mapped output file. */
void mapout_install(void);
/* The allocator that the CLI's allocator hands every request but the armed one to (a copy of *a;
 * NULL: tx_default_allocator(), the default).  For a process that runs the CLI beside its own
 * allocator (fuzz/fuzz_args.c), which it then sets back with tx_set_allocator. */
void mapout_set_base(const tx_allocator *a);

typedef struct mapout {
    bool active;
    outfile f;
    unsigned char *map;
    size_t map_len, hlen, nbytes;
    int slot;
} mapout;

/* TENSORX_MAP_OUTPUT_MIN_BYTES, default 1 MiB: outputs from this size up are made in their file. */
uint64_t mapout_min_bytes(void);
/* The byte count in environment variable `name` (digits only), or `def` when it is unset, empty
 * or not a number: the tools' size knobs (TENSORX_STREAM_MIN_BYTES, TENSORX_CHUNK_BYTES, ...). */
uint64_t env_bytes(const char *name, uint64_t def);
/* When the single output of op d with arguments a, written to `path`, can be made in the file
 * itself -- path is a regular file or names none, the op's plan makes one output that is not a
 * view, not an upper bound, not strings, and of at least TENSORX_MAP_OUTPUT_MIN_BYTES bytes
 * (default 1 MiB) -- creates the temporary file at its full size, maps it and arms the
 * allocator so that the op's output buffer is the file's data: returns true (m->active).  false:
 * write the output the ordinary way (the run reports any error).  A failure to create or size the
 * file (a full disk) is *st (an io_error), and true is returned with m->active false. */
bool mapout_begin(mapout *m, const op_def *d, const op_args *a, const char *path, tx_status *st);
/* After the op ran with status st and outputs o: when the output is the mapped file's data, frees
 * it, writes the header, unmaps and renames the file over its path (returns the status of that);
 * otherwise (the op failed, or made its output elsewhere) removes the temporary file and returns
 * st, with *made false so that the caller writes o the ordinary way. */
tx_status mapout_end(mapout *m, tx_status st, op_outputs *o, bool *made);

#endif
