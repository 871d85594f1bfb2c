/* SPDX-License-Identifier: Apache-2.0 */
/* tfrecord.c -- `tensorx tfrecord` (tfrecord.h): a TFRecord file's record count (every checksum
 * verified), its records' offsets, and its records as a 1-D string tensor, printed or written
 * with -o as the CLI writes an op's output (save.h).  Over tx_tfrecord_* only. */
#include "tfrecord.h"

#include "console.h"
#include "fault.h"
#include "formats.h"
#include "opreg.h"
#include "print.h"
#include "save.h"

#include <stdio.h>
#include <string.h>

#define TFRECORD_USAGE "tensorx tfrecord count|index|cat|parse FILE [compression=GZIP|ZLIB|NONE] [-o OUT]"

static int report(tx_status st, const char *msg) {
    fprintf(cli_err(), "tensorx: tfrecord: %s: %s\n", op_status_name(st), msg);
    return st == OP_USAGE ? 2 : 1;
}

tx_status tfrecord_parse_compression(const char *v, tx_tfrecord_compression *c) {
    if (!strcmp(v, "GZIP")) *c = TX_TFRECORD_GZIP;
    else if (!strcmp(v, "ZLIB")) *c = TX_TFRECORD_ZLIB;
    else if (!v[0] || !strcmp(v, "NONE")) *c = TX_TFRECORD_NONE;
    else return op_fail(OP_USAGE, "compression='%s' is not one of GZIP, ZLIB, NONE", v);
    return TX_OK;
}

typedef struct {
    const char *sub, *file, *out;
    tx_tfrecord_compression compression;
} tfrecord_cmd;

static tx_status parse(int argc, char **argv, tfrecord_cmd *c) {
    if (argc < 2) return op_fail(OP_USAGE, "usage: " TFRECORD_USAGE);
    c->sub = argv[0];
    c->file = argv[1];
    c->out = NULL;
    c->compression = ff_tfrecord_compression(c->file);
    if (strcmp(c->sub, "count") && strcmp(c->sub, "index") && strcmp(c->sub, "cat"))
        return op_fail(OP_USAGE, "unknown tfrecord command '%s' (count, index, cat or parse)", c->sub);
    for (int i = 2; i < argc; i++) {
        tx_status st = TX_OK;
        if (!strcmp(argv[i], "-o") && i + 1 < argc && !c->out && strcmp(c->sub, "count"))
            c->out = argv[++i];
        else if (!strncmp(argv[i], "compression=", 12))
            st = tfrecord_parse_compression(argv[i] + 12, &c->compression);
        else
            st = op_fail(OP_USAGE, "unexpected '%s' (usage: " TFRECORD_USAGE "; -o for index "
                         "and cat, once)", argv[i]);
        if (st != TX_OK) return st;
    }
    return TX_OK;
}

/* count: every record read, so both checksums of each are verified. */
static tx_status count(tx_tfrecord_reader *r) {
    unsigned long long n = 0;
    tx_string rec;
    tx_status st;
    while ((st = tx_tfrecord_next(r, &rec, NULL)) == TX_OK) n++;
    if (st != TX_OUT_OF_RANGE) return st;
    fprintf(cli_out(), "%llu\n", n);
    return TX_OK;
}

/* index and cat: one tensor, printed or written to c->out. */
static tx_status one_tensor(const tfrecord_cmd *c, tx_tfrecord_reader *r) {
    tx_tensor *t = NULL;
    tx_status st = !strcmp(c->sub, "index") ? tx_tfrecord_index(r, &t)
                                            : tx_tfrecord_read(r, -1, &t);
    if (st != TX_OK) return st;
    if (c->out) st = save_all(NULL, 1, &c->out, &t);
    else print_tensor(cli_out(), t);
    tx_tensor_free(t);
    return st;
}

int tfrecord_main(int argc, char **argv) {
    tfrecord_cmd c;
    op_fail(TX_OK, "%s", "");
    if (argc >= 2 && !strcmp(argv[0], "parse")) {
        fault_install("tfrecord");
        int slot = fault_watch(NULL, 0, argv[1], false);
        int rc = tfrecord_parse_main(argc - 1, argv + 1, report);
        fault_unwatch(slot);
        return rc;
    }
    tx_status st = parse(argc, argv, &c);
    if (st != TX_OK) return report(st, op_error());
    fault_install("tfrecord"); /* the file is mapped: a truncation names it */
    int slot = fault_watch(NULL, 0, c.file, false);
    tx_tfrecord_reader *r = NULL;
    st = ff_check_readable(c.file);
    if (st == TX_OK) st = tx_tfrecord_open(c.file, c.compression, &r);
    if (st == TX_OK) st = !strcmp(c.sub, "count") ? count(r) : one_tensor(&c, r);
    if (st != TX_OK && op_error() == tx_last_error() && !strstr(tx_last_error(), c.file))
        st = op_fail(st, "%s: %s", c.file, tx_last_error()); /* the library's, naming the file */
    tx_tfrecord_close(r);
    fault_unwatch(slot);
    return st == TX_OK ? 0 : report(st, op_error());
}
