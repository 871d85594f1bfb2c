/* SPDX-License-Identifier: Apache-2.0 */
/* json.h -- a small JSON reader for the conformance suites (tools only). */
#ifndef TX_TOOLS_JSON_H
#define TX_TOOLS_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } json_type;

typedef struct json json;
struct json {
    json_type type;
    bool b;
    char *text;      /* J_NUMBER: the number as written; J_STRING: decoded UTF-8 bytes */
    size_t len;      /* J_STRING: byte length (may contain NUL) */
    json **items;    /* J_ARRAY items / J_OBJECT values */
    char **keys;     /* J_OBJECT keys */
    size_t n;
};

/* Parses text[0..len); returns NULL and fills err (cap bytes) on a syntax error, or with "out of
 * memory at byte offset N" when an allocation fails (never exits). */
json *json_parse(const char *text, size_t len, char *err, size_t cap);
void json_free(json *j);
/* Object member by key, or NULL. */
const json *json_get(const json *obj, const char *key);

#endif
