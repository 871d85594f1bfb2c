/* SPDX-License-Identifier: Apache-2.0 */
/* static_tls_probe.c -- a shared library with an initial-exec thread-local: what
 * tests/install/static_tls.sh must flag. */
static _Thread_local __attribute__((tls_model("initial-exec"))) int probe_value;

int tx_static_tls_probe(void) { return ++probe_value; }
