/* SPDX-License-Identifier: Apache-2.0 */
/* console.c -- where the tools print (console.h). */
#include "console.h"

static FILE *out_stream, *err_stream; /* NULL: stdout, stderr */

void cli_set_streams(FILE *out, FILE *err) {
    out_stream = out;
    err_stream = err;
}
FILE *cli_out(void) { return out_stream ? out_stream : stdout; }
FILE *cli_err(void) { return err_stream ? err_stream : stderr; }
