/* SPDX-License-Identifier: Apache-2.0 */
/* formats.h -- the tensor file formats the frontends read and write (.npy, safetensors, IDX, and a
 * TFRecord file as the 1-D string tensor of its records), one row each (formats.c): which file
 * names select a format, how a tensor is read from a file and how tensors are written to one.
 * The CLI's tensor arguments and -o files (args.c, tools/save.c: FILE.npy,
 * FILE.safetensors:NAME, FILE.idx) and Python's tensorx.load / tensorx.save come here, so a format
 * added as a row is reachable from both. */
#ifndef TX_FRONTEND_FORMATS_H
#define TX_FRONTEND_FORMATS_H

#include "tensorx.h"

#include <stdbool.h>
#include <stddef.h>

/* One file format.  A named format holds several tensors picked by name (open, count, name,
 * get, close: the library's API shape for such files); the others hold one (load). */
typedef struct file_format {
    const char *name;            /* "npy", "safetensors", "idx": Python's format= */
    const char *suffixes[5];     /* the file name endings that select it (NULL-terminated) */
    bool named;
    tx_status (*open)(const char *path, void **file);
    size_t (*count)(const void *file);
    const char *(*name_at)(const void *file, size_t i);
    tx_status (*get)(const void *file, const char *name, tx_tensor **out);
    void (*close)(void *file);
    tx_status (*load)(const char *path, tx_tensor **out);
    /* Writes count tensors (names[i] each; names NULL for a one-tensor format, whose count must
     * be 1), replacing the file whole or not at all. */
    tx_status (*save)(const char *path, size_t count, const char *const *names,
                      const tx_tensor *const *tensors);
} file_format;

/* The compression a TFRecord file's name implies: GZIP for ".gz", else none. */
tx_tfrecord_compression ff_tfrecord_compression(const char *path);

/* Row i of the table, NULL past the end. */
const file_format *ff_at(size_t i);
/* The format called `name` ("npy"), or NULL. */
const file_format *ff_named(const char *name);
/* The format whose suffix ends path, or NULL. */
const file_format *ff_of_path(const char *path);

/* Splits a tensor source: "PATH" whose name ends in a format's suffix, or "PATH:NAME", PATH
 * ending in a format's suffix (the first such ':' splits: PATH cannot hold SUFFIX: but NAME may
 * hold anything; a NAME for a one-tensor format is refused by ff_load).  Text that starts like a
 * literal ('[', a quote) is never a source.  On
 * success *fmt is the format, *path a malloc'd copy of PATH (the caller frees it) and *name
 * points into text after the ':' (NULL when none was given); false when text names no file of
 * the table (*path NULL), or when out of memory (*fmt set, *path NULL). */
bool ff_split(const char *text, const file_format **fmt, char **path, const char **name);
/* Whether text holds a suffix of the table anywhere (a source, maybe in a list): such values are
 * parsed after those that read no file. */
bool ff_mentions_file(const char *text);

/* OP_IO_ERROR ("cannot read 'path': reason") for a path that cannot be opened or is a
 * directory: the CLI's error class for a missing file, checked before the library maps it. */
tx_status ff_check_readable(const char *path);

/* Reads tensor `name` (NULL: the file's only tensor, or a one-tensor format's) from the file of
 * format f at path into *out: a read-only view of the file's mapping where the format allows.
 * Errors name the file and the rule: OP_IO_ERROR for a file that cannot be opened (with the
 * system's reason); invalid_argument for "no tensor 'w' in x.safetensors; it has: a, b", for a
 * name given to a one-tensor format, and for no name given to a file of several tensors; the
 * library's errors otherwise, prefixed with the file's name. */
tx_status ff_load(const file_format *f, const char *path, const char *name, tx_tensor **out);
/* Loads a source as ff_split reads it: returns false when text names no file of the table (then
 * *st is untouched), else true with *st the status of ff_load. */
bool ff_load_source(const char *text, tx_tensor **out, tx_status *st);

/* The names of the tensors in a named format's file, in its order: *names (malloc'd, each entry
 * malloc'd; ff_names_free) and *count.  A one-tensor format gives none.  With tensors not NULL,
 * also every tensor, the file opened once: (*tensors)[i] is names[i]'s (malloc'd array; each
 * tensor the caller's to free). */
tx_status ff_names(const file_format *f, const char *path, char ***names, size_t *count,
                   tx_tensor ***tensors);
void ff_names_free(char **names, size_t count);

/* Writes count tensors to path in format f (names[i] each; NULL names for a one-tensor format).
 * Errors: invalid_argument for a one-tensor format given count != 1 ("x.idx holds one tensor"),
 * then those of the library's writer. */
tx_status ff_save(const file_format *f, const char *path, size_t count, const char *const *names,
                  const tx_tensor *const *tensors);

#endif
