/* SPDX-License-Identifier: Apache-2.0 */
/* status.c -- status names, the per-thread error message, and the size check of the public
 * structs the library fills. */
#include "core/internal.h"

#include <stdarg.h>
#include <stdio.h>

#define TX_MESSAGE_CAP 512
static _Thread_local char message[TX_MESSAGE_CAP];

tx_status tx__fail(tx_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return status;
}

const char *tx_last_error(void) { return message; }
void tx_clear_error(void) { message[0] = '\0'; }

const char *tx_status_name(tx_status s) {
    switch (s) {
#define NAME_CASE(NAME, code, name) \
    case TX_##NAME: return name;
        TX_STATUS_LIST(NAME_CASE)
#undef NAME_CASE
    }
    return "unknown";
}

tx_status tx__check_struct_size(const char *op, const char *arg, size_t size, const size_t *known,
                                size_t n, const char *type, const char *init) {
    char list[128] = "";
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (size == known[i]) return TX_OK;
        int w = snprintf(list + used, sizeof list - used, "%s%zu", i ? ", " : "", known[i]);
        if (w > 0 && (size_t)w < sizeof list - used) used += (size_t)w;
    }
    return tx__fail(TX_INVALID_ARGUMENT,
                    "%s: %s is %zu, not the size of a %s this library knows (%s); make it with %s",
                    op, arg, size, type, list, init);
}

unsigned tx_version_number(void) { return TX_VERSION_NUMBER; }

#define TX_STR2(x) #x
#define TX_STR(x) TX_STR2(x)
const char *tx_version_string(void) {
    return TX_STR(TX_VERSION_MAJOR) "." TX_STR(TX_VERSION_MINOR) "." TX_STR(TX_VERSION_PATCH);
}
