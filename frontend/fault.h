/* SPDX-License-Identifier: Apache-2.0 */
/* fault.h -- a SIGBUS in a mapped input or output file turned into an io_error naming the file,
 * instead of a crash: the frontends register the files they map (values.c and args.c for inputs,
 * the CLI's output files) and the CLI installs the handler. */
#ifndef TX_FRONTEND_FAULT_H
#define TX_FRONTEND_FAULT_H

#include <stdbool.h>
#include <stddef.h>

/* Installs the SIGBUS handler for op `op` (NULL: no op in the message) and ignores SIGXFSZ (a
 * write beyond the file-size limit then fails with EFBIG, reported as an io_error).  On a SIGBUS
 * the handler writes "tensorx: OP: io_error: 'FILE' changed while it was read (truncated?)" (or
 * "written") for the watched file holding the faulting address, removes the temporary output
 * file, if any, and exits with status 1. */
void fault_install(const char *op);
/* Watches [p, p + n) as the mapped bytes of file `name` (copied; cut at 511 bytes); `output`:
 * the file being written.  n = 0 names the file being loaded (matched when no range is).
 * Returns a slot for fault_unwatch, or -1 when the table is full (the fault then names no file). */
int fault_watch(const void *p, size_t n, const char *name, bool output);
void fault_unwatch(int slot);
/* Forgets every watched range. */
void fault_unwatch_all(void);

/* Registers the temporary output file `name` (kept, not copied) for the handler to remove; NULL
 * when no slot can be made (the file is then left behind by a fault).  One thread registers. */
struct temp_slot *fault_watch_temp(const char *name);
/* Forgets a registration (NULL: none). */
void fault_unwatch_temp(struct temp_slot *slot);

#endif
