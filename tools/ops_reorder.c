/* ops_reorder.c -- CLI/conformance entries of the reorder family (filled as the family lands). */
#include "opreg.h"

const op_def tx_cli_ops_reorder[] = {
    {NULL, NULL, NULL, {{NULL}}},
};
