/* ops_casting.c -- CLI/conformance entries of the casting family (filled as the family lands). */
#include "opreg.h"

const op_def tx_cli_ops_casting[] = {
    {NULL, NULL, NULL, {{NULL}}},
};
