/* SPDX-License-Identifier: Apache-2.0 */
/* print.h -- numpy-like printing of tensors (tools only). */
#ifndef TX_TOOLS_PRINT_H
#define TX_TOOLS_PRINT_H

#include "tensorx.h"

#include <stdio.h>

void print_tensor(FILE *f, const tx_tensor *t);
void print_element(FILE *f, const tx_tensor *t, int64_t i);

#endif
