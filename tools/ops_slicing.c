/* ops_slicing.c -- CLI/conformance entries of the slicing family (filled as the family lands). */
#include "opreg.h"

const op_def tx_cli_ops_slicing[] = {
    {NULL, NULL, NULL, {{NULL}}},
};
