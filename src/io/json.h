/* SPDX-License-Identifier: Apache-2.0 */
/* json.h -- a strict JSON reader for file headers (safetensors): RFC 8259 as serde_json reads it
 * (no trailing commas, no comments, no leading zeros, no raw control characters in strings, no
 * lone surrogates in \u escapes, UTF-8 only), with a nesting limit.  The text is tokenized into
 * one array of tokens that point back into it; strings are decoded on request.  Nothing is
 * allocated but the token array. */
#ifndef TX_IO_JSON_H
#define TX_IO_JSON_H

#include "core/internal.h"

typedef enum {
    TX__JSON_NULL,
    TX__JSON_FALSE,
    TX__JSON_TRUE,
    TX__JSON_NUMBER,
    TX__JSON_STRING,
    TX__JSON_ARRAY,
    TX__JSON_OBJECT
} tx__json_kind;

/* One value.  An object's members follow it as key (a string token) then value; an array's items
 * follow it; `next` is the index of the token after the value and everything inside it. */
typedef struct {
    tx__json_kind kind;
    uint32_t start, end; /* the value's bytes; a string's without its quotes, escapes undecoded */
    uint32_t count;      /* an array's items, an object's members */
    uint32_t next;
} tx__json_token;

/* Deepest nesting accepted (serde_json's default recursion limit). */
#define TX__JSON_MAX_DEPTH 128

/* Tokenizes text[0, len) (len below 4 GiB: 20 bytes a token, at most len + 1 tokens): on TX_OK *tokens (allocated with tx__alloc; free with tx__free(*tokens,
 * *count * sizeof **tokens)) holds *count tokens, the first the whole value.  Errors:
 * invalid_argument "<op>: <what>: <rule> at byte N" (N counted from text); resource_exhausted. */
TX_HIDDEN tx_status tx__json_parse(const char *op, const char *what, const char *text, size_t len,
                                   tx__json_token **tokens, size_t *count);
/* Decodes string token tok of text into out (room for tok->end - tok->start bytes: a decoded
 * string is never longer); returns its length. */
TX_HIDDEN size_t tx__json_string(const char *text, const tx__json_token *tok, char *out);
/* Whether string token tok of text equals the NUL-free string s (compared decoded). */
TX_HIDDEN bool tx__json_string_is(const char *text, const tx__json_token *tok, const char *s);
/* Reads number token tok as a non-negative integer without fraction or exponent that fits
 * uint64; false otherwise. */
TX_HIDDEN bool tx__json_uint(const char *text, const tx__json_token *tok, uint64_t *value);
/* Whether bytes [0, len) of s are valid UTF-8 (no overlong forms, no surrogates, at most
 * U+10FFFF); *bad receives the offset of the first invalid byte otherwise. */
TX_HIDDEN bool tx__utf8_valid(const unsigned char *s, size_t len, size_t *bad);

#endif
