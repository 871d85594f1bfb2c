/* ops_spatial.c -- CLI/conformance entries of the spatial family (filled as the family lands). */
#include "opreg.h"

const op_def tx_cli_ops_spatial[] = {
    {NULL, NULL, NULL, {{NULL}}},
};
