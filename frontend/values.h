/* SPDX-License-Identifier: Apache-2.0 */
/* values.h -- turning text (CLI literals, JSON numbers) into tensor elements, and half-precision
 * helpers used by parsing and printing (the frontends). */
#ifndef TX_FRONTEND_VALUES_H
#define TX_FRONTEND_VALUES_H

#include "tensorx.h"

/* Sets element i of numeric tensor t from text: an integer, a float ("nan", "inf", "-inf"
 * accepted), "true"/"false"; `im` is the imaginary part's text for complex dtypes (or NULL). */
tx_status tv_set_number(tx_tensor *t, int64_t i, const char *re, const char *im);
uint16_t tv_f64_to_f16(double d);
uint16_t tv_f32_to_bf16(float f);
float tv_f16_to_f32(uint16_t h);
float tv_bf16_to_f32(uint16_t h);
/* The float types of one byte (float8, float6, float4): nearest-even encoding of a double and
 * exact decoding, with ml_dtypes' NaN, infinity, zero and overflow codes (see docs/casting.md). */
uint8_t tv_f64_to_f8(double d, tx_dtype dt);
double tv_f8_to_f64(uint8_t b, tx_dtype dt);
/* Reads a whole file (or stdin for "-") into malloc'd memory.  A file that cannot be opened or
 * read, or a directory, is OP_IO_ERROR with the system's reason. */
tx_status tv_read_file(const char *path, char **data, size_t *size);
/* Loads a .npy file (tx_npy_load: mapped or read straight into the tensor), or the .npy on stdin
 * for "-" (tx_npy_load_fd; empty stdin: OP_IO_ERROR "no input on stdin").  A file that cannot be
 * opened, or a directory, is OP_IO_ERROR with the system's reason. */
tx_status tv_load_npy(const char *path, tx_tensor **out);

#endif
