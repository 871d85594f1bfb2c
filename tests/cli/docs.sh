#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs.sh -- the docs do not rot: every `$ tensorx ...` example of docs/*.md prints what the page
# shows, every local link of the pages resolves, docs/index.md links every page, and the man page
# names every op of the CLI and renders without warnings.
source "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../../examples/data" && pwd)
PY=/usr/bin/python3

# ---- the pages' CLI examples ----
ROOT=$(cd "$DATA/../.." && pwd)
cat >"$TX_TMP/doccheck.py" <<'PYEOF'
# Runs every "$ tensorx ..." line in the plain/sh code blocks of a page (from a copy of
# examples/data) and compares stdout+stderr with the lines below it (a "..." line stands for any
# lines; a command shown without output must succeed; a trailing backslash continues a command).
# A "# little-endian host" line before a command says its output is that host's (bitcast): on a
# host of the CLI's other byte order (argv[4]) the command is skipped, and so is a command on a
# compressed file when the CLI has no zlib (argv[5] is 0).
import os, re, subprocess, sys
doc, tx, data, host_order, zlib = sys.argv[1:6]
cmds, lang, cur, order = [], None, None, None
for line in open(doc).read().splitlines():
    if line.startswith("```"):
        lang = line[3:].strip() if lang is None else None
        cur = None
        continue
    if lang not in ("", "sh", "console"):
        continue
    if cur is not None and cur[0].endswith("\\") and not cur[1]:
        cur[0] = cur[0][:-1] + " " + line.strip()  # a continued command line
    elif re.match(r"# (little|big)-endian host", line):
        order, cur = line[2:].split("-")[0], None
    elif line.startswith("$ tensorx"):
        cur = [line[2:], [], order]
        order = None
        cmds.append(cur)
    elif cur is not None:
        cur[1].append(line)
env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(tx)) + ":" + os.environ["PATH"])
for cmd, want, order in cmds:
    if order and order != host_order:
        print("SKIP", cmd, "(its output is a %s-endian host's)" % order)
        continue
    if zlib == "0" and re.search(r"\.gz\b|compression=(GZIP|ZLIB)", cmd):
        print("SKIP", cmd, "(a compressed file: this tensorx has no zlib)")
        continue
    r = subprocess.run(["bash", "-c", cmd + " 2>&1"], cwd=data, env=env, capture_output=True, text=True)
    got = r.stdout.rstrip("\n").split("\n") if r.stdout.strip() else []
    if not want and r.returncode == 0:  # no output shown: it must just succeed
        got = []
    ok = got == want
    if not ok and any(w.strip() == "..." for w in want):  # a "..." line stands for any lines
        pat = "\n".join(".*" if w.strip() == "..." else re.escape(w) for w in want)
        ok = re.fullmatch(pat.replace("\n.*\n", "\n(?:.*\n)*?"), "\n".join(got)) is not None
    print("PASS" if ok else "FAIL", cmd)
    if not ok:
        print("--- want\n%s\n--- got\n%s" % ("\n".join(want), "\n".join(got)))
PYEOF
mkdir -p "$TX_TMP/docdata"
cp "$DATA"/* "$TX_TMP/docdata/"
for page in "$ROOT"/docs/*.md; do # every family page's CLI examples, and cli.md's
    $PY "$TX_TMP/doccheck.py" "$page" "$TX" "$TX_TMP/docdata" "$TX_BYTE_ORDER" "$TX_ZLIB" | sed "s|^\(PASS\|FAIL\) |&$(basename "$page"): |"
done >"$TX_TMP/doc.out"
n_pass=$(grep -c '^PASS' "$TX_TMP/doc.out")
n_fail=$(grep -c '^FAIL' "$TX_TMP/doc.out")
TX_PASSED=$((TX_PASSED + n_pass))
TX_FAILED=$((TX_FAILED + n_fail))
[ "$n_fail" -eq 0 ] || grep -A12 '^FAIL' "$TX_TMP/doc.out"
check "docs: the pages have CLI examples" test "$n_pass" -ge 40
# Every local link of docs/*.md resolves, and the index links every page of docs/.
check "docs: local links resolve" $PY -c '
import os, re, sys
bad = []
root = sys.argv[1]
for page in os.listdir(os.path.join(root, "docs")):
    if not page.endswith(".md"): continue
    for link in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", open(os.path.join(root, "docs", page)).read()):
        if not os.path.exists(os.path.join(root, "docs", link)): bad.append(page + " -> " + link)
sys.exit("broken: " + ", ".join(bad) if bad else 0)' "$ROOT"
for page in "$ROOT"/docs/*.md "$ROOT"/docs/tensorx.1; do
    name=$(basename "$page")
    [ "$name" = index.md ] && continue
    check "docs/index.md links $name" grep -qF "]($name)" "$ROOT/docs/index.md"
done
# The C blocks of the pages (and their excerpts of examples/*.c) are checked by docs.c_examples.
# The man page names every op of the CLI.
for op in $("$TX" help | sed -n '/^ops:/,$p' | awk 'NR > 1 {print $1}'); do
    check "tensorx.1 names $op" grep -qw -- "$op" "$ROOT/docs/tensorx.1"
done
if command -v groff >/dev/null; then
    check "tensorx.1 renders without warnings" bash -c "groff -man -Tutf8 -ww '$ROOT/docs/tensorx.1' 2>&1 >/dev/null | (! grep .)"
fi
finish
