/* SPDX-License-Identifier: Apache-2.0 */
/* progress.h -- the progress bar shown on a terminal for long work (tools only): loading big
 * inputs, streaming an op over a big file. */
#ifndef TX_TOOLS_PROGRESS_H
#define TX_TOOLS_PROGRESS_H

#include <stdint.h>

/* Progress on stderr, drawn only when stderr is a terminal and the work has lasted more than a
 * second (TENSORX_PROGRESS_DELAY=seconds changes the delay; TENSORX_NO_PROGRESS=1 turns it off).
 * total = 0: unknown amount (an activity bar with the elapsed time).  progress_stop clears the
 * line; call it before printing anything else. */
void progress_start(const char *label, uint64_t total);
void progress_set(uint64_t done);
void progress_stop(void);

#endif
