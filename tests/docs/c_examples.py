# SPDX-License-Identifier: Apache-2.0
"""c_examples.py -- compiles and runs every ```c block of docs/*.md and README.md (ctest docs.c_examples).

A block is either
  - an excerpt of examples/*.c (its text appears there verbatim): the example.* tests build and run it;
  - a whole program (it defines main): compiled on its own after tests/docs/harness.h;
  - otherwise the body of a function: all such blocks go into one program, one function each, run
    one per process (so a leak or a crash names its block).
A block must exit 0, write nothing to stderr and print exactly what its "prints:" comments say:
    show("y", y);   /* prints: y = [1, 2] (int32) */
or, for several lines,
    /* prints:
       y = [1, 2] (int32)
       z = 5 (int64)
    */
(leading spaces of each line are ignored; a block without such a comment must print nothing).
Usage: c_examples.py ROOT CC LIBRARY[,LIBRARY...] MIN_BLOCKS [COMPILER FLAGS...]
(the library archive, then what it links: zlib when built with it)
"""
import glob, os, re, shutil, subprocess, sys, tempfile

root, cc, lib, min_blocks, flags = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
pages = sorted(glob.glob(os.path.join(root, "docs", "*.md"))) + [os.path.join(root, "README.md")]
examples = "".join(open(f).read() for f in glob.glob(os.path.join(root, "examples", "*.c")))


def blocks(page):
    """(first code line number, text) of every ```c block."""
    out, cur = [], None
    for n, line in enumerate(open(page).read().split("\n"), 1):
        if cur is None and line.strip() == "```c":
            cur = (n + 1, [])
        elif cur is not None and line.strip() == "```":
            out.append((cur[0], "\n".join(cur[1]) + "\n"))
            cur = None
        elif cur is not None:
            cur[1].append(line)
    return out


def expected(text):
    lines = []
    for body in re.findall(r"/\*\s*prints:(.*?)\*/", text, re.S):
        lines += [l.strip() for l in body.split("\n") if l.strip()]
    return "".join(l + "\n" for l in lines)


excerpts, bodies, programs = [], [], []
for page in pages:
    rel = os.path.relpath(page, root)
    for line, text in blocks(page):
        where = "%s:%d" % (rel, line)
        if text in examples:
            excerpts.append(where)
        elif re.search(r"\bint\s+main\s*\(", text):
            programs.append((where, page, line, text))
        else:
            bodies.append((where, page, line, text))

work = tempfile.mkdtemp(prefix="tx-docs-")
prelude = '#include "harness.h"\n'
src = [prelude]
for k, (where, page, line, text) in enumerate(bodies):
    src.append('static int block_%d(void) {\n#line %d "%s"\n%s    return 0;\n}\n' % (k, line, page, text))
src.append("int main(int argc, char **argv) {\n    int k = argc > 1 ? atoi(argv[1]) : -1;\n")
src.append("".join("    if (k == %d) return block_%d();\n" % (k, k) for k in range(len(bodies))))
src.append("    return 99;\n}\n")
jobs = [("bodies", "".join(src))] if bodies else []
jobs += [("program%d" % k, '%s#line %d "%s"\n%s' % (prelude, line, page, text))
         for k, (_, page, line, text) in enumerate(programs)]
procs = []
for name, code in jobs:  # all compilations at once
    with open(os.path.join(work, name + ".c"), "w") as f:
        f.write(code)
    cmd = [cc] + flags + ["-I", os.path.join(root, "include"), "-I", os.path.dirname(os.path.abspath(__file__)),
                          os.path.join(work, name + ".c")] + lib.split(",") + ["-lpthread", "-lm", "-o", os.path.join(work, name)]
    procs.append((name, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
failed = 0
for name, p in procs:
    out = p.communicate()[0]
    if p.returncode != 0:
        print("FAIL compiling %s:\n%s" % (name, out))
        failed += 1
if failed:
    shutil.rmtree(work)
    sys.exit(1)

runs = [(where, [os.path.join(work, "bodies"), str(k)], text) for k, (where, _, _, text) in enumerate(bodies)]
runs += [(where, [os.path.join(work, "program%d" % k)], text) for k, (where, _, _, text) in enumerate(programs)]
env = dict(os.environ)
env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
for where, cmd, text in runs:
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=work)
    want = expected(text)
    if r.returncode == 0 and r.stdout == want and not r.stderr:
        print("PASS", where)
    else:
        failed += 1
        print("FAIL %s (exit %d)\n--- want\n%s--- got\n%s--- stderr\n%s" % (where, r.returncode, want, r.stdout, r.stderr))
for where in excerpts:
    print("PASS %s (an excerpt of examples/*.c, which the example.* tests run)" % where)
total = len(runs) + len(excerpts)
print("%d blocks (%d run here, %d excerpts of examples/), %d failed" % (total, len(runs), len(excerpts), failed))
if total < min_blocks:
    print("FAIL: expected at least %d blocks" % min_blocks)
    failed += 1
shutil.rmtree(work)
sys.exit(1 if failed else 0)
