/* ops_gather.c -- CLI/conformance entries of the gather family (filled as the family lands). */
#include "opreg.h"

const op_def tx_cli_ops_gather[] = {
    {NULL, NULL, NULL, {{NULL}}},
};
