#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# demo.sh -- examples/demo.sh runs to its last line whatever the current directory and whatever
# form the CLI's path takes (absolute, relative, a bare name on PATH).  scripts/test.sh's demo
# stage runs the README's first command itself in a fresh copy of the tree.
source "$(dirname "$0")/lib.sh"
DEMO=$(cd "$(dirname "$0")/../../examples" && pwd)/demo.sh
TXABS=$(cd "$(dirname "$TX")" && pwd)/$(basename "$TX")

runs_to_end() { # NAME DIR TXARG [ENV...]: demo.sh run from DIR with TXARG must end with its last line
    local name=$1 dir=$2 txarg=$3
    shift 3
    local rc=0
    (cd "$dir" && env "$@" bash "$DEMO" "$txarg") >"$TX_TMP/demo.out" 2>&1 || rc=$?
    if [ $rc -eq 0 ] && [ "$(tail -n 1 "$TX_TMP/demo.out")" = "demo finished" ]; then
        TX_PASSED=$((TX_PASSED + 1))
    else
        TX_FAILED=$((TX_FAILED + 1))
        printf 'FAIL %s (exit %s)\n%s\n' "$name" "$rc" "$(tail -n 5 "$TX_TMP/demo.out")"
    fi
}

runs_to_end "absolute path, from /" / "$TXABS"
runs_to_end "relative path, from the CLI's folder" "$(dirname "$TXABS")" "./$(basename "$TXABS")"
mkdir -p "$TX_TMP/a/b"
runs_to_end "relative path with .., from elsewhere" "$TX_TMP/a/b" "$(realpath --relative-to="$TX_TMP/a/b" "$TXABS")"
runs_to_end "bare name on PATH" "$TX_TMP" "$(basename "$TXABS")" PATH="$(dirname "$TXABS"):$PATH"
finish
