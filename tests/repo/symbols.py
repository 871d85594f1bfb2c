#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The library's layers at the level of symbols, and no circle of files in src/.

layers.sh checks the includes; this reads what the objects really use.  From nm's listing of each
object file of the library, a file uses another when one of its undefined symbols is defined there.
Two rules:
  - a file uses no symbol of a layer after its own (the order of layers.sh: core -> kernels ->
    dispatch -> exec -> ops -> io);
  - no circle of files: A uses B, B uses ... uses A.
Usage: symbols.py --nm NM --objcopy OBJCOPY OBJECT...  (the objects of tensorx_objects; an argument
may hold several paths separated by ';', as CMake's $<TARGET_OBJECTS> gives them).  After the real
check it runs the check again on copies of two objects, each with one symbol renamed by objcopy so
that it plants a use of a layer above and a circle, to show that it can fail on each."""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
UNDEFINED = set("Uwv")


def layer_order():
    """The layers as layers.sh lists them (one place for their order)."""
    with open(os.path.join(HERE, "layers.sh"), encoding="utf-8") as f:
        m = re.search(r"^layers=\(([^)]*)\)", f.read(), re.M)
    return m.group(1).split()


def source_of(obj):
    """src/<layer>/.../<file>.c for an object path .../src/<layer>/.../<file>.c.o."""
    i = obj.rfind("/src/")
    rel = obj[i + 1:] if i >= 0 else os.path.basename(obj)
    return re.sub(r"\.(o|obj)$", "", rel)


def read_symbols(nm, objs):
    """{source file: (defined globals, undefined symbols)} from nm -P."""
    table = {}
    for obj in objs:
        out = subprocess.run([nm, "-P", obj], check=True, capture_output=True, text=True).stdout
        defined, undefined = set(), set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 2 or line.endswith(":"):
                continue
            name, kind = parts[0], parts[1]
            if kind in UNDEFINED:
                undefined.add(name)
            elif kind.isupper() or kind in "ui":
                defined.add(name)
        table[source_of(obj)] = (defined, undefined)
    return table


def uses(table):
    """{file: {file it uses: a symbol it uses there}}."""
    owner = {}
    for f, (defined, _) in sorted(table.items()):
        for s in defined:
            owner.setdefault(s, f)
    edges = {f: {} for f in table}
    for f, (_, undefined) in table.items():
        for s in sorted(undefined):
            g = owner.get(s)
            if g is not None and g != f:
                edges[f].setdefault(g, s)
    return edges


def circles(edges):
    """The strongly connected components of more than one file (Tarjan, iterative)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def check(table, layers):
    """The problems found, one line each."""
    bad = []
    rank = {}
    for f in table:
        top = f.split("/")[1] if f.startswith("src/") and f.count("/") >= 2 else ""
        if top in layers:
            rank[f] = layers.index(top)
        else:
            bad.append(f"{f}: not in a layer folder ({' '.join(layers)})")
    edges = uses(table)
    for f in sorted(edges):
        for g, s in sorted(edges[f].items()):
            if f in rank and g in rank and rank[g] > rank[f]:
                bad.append(f"{f} uses {s} of {g}: {layers[rank[f]]} must not use "
                           f"{layers[rank[g]]} (the layers run {' '.join(layers)})")
    for comp in circles(edges):
        path = shortest_circle(edges, comp)
        steps = "; ".join(f"{f} uses {edges[f][g]}" for f, g in zip(path, path[1:]))
        bad.append(f"circle of files {' -> '.join(path)} ({steps}); the files that reach each "
                   f"other: {', '.join(comp)}")
    return bad


def shortest_circle(edges, comp):
    """A shortest path from comp's first file back to itself, through comp's files."""
    start = comp[0]
    prev, queue = {}, [start]
    for f in queue:
        for g in sorted(edges[f]):
            if g == start:
                path = [f]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if g in comp and g not in prev:
                prev[g] = f
                queue.append(g)
    return [start]


def planted(nm, objcopy, objs, table, layers, tmp):
    """The table with one object replaced by a copy with one symbol renamed, once per planted
    problem: (table, what the check must report)."""
    edges = uses(table)
    obj_of = {source_of(o): o for o in objs}
    owner = {}
    for f, (defined, _) in sorted(table.items()):
        for s in sorted(defined):
            owner.setdefault(s, f)

    def renamed(f, old, new):
        dst = os.path.join(tmp, obj_of[f].lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(obj_of[f], dst)
        subprocess.run([objcopy, f"--redefine-sym={old}={new}", dst], check=True)
        return {**table, **read_symbols(nm, [dst])}

    def layer(f):
        return f.split("/")[1]

    cases = []
    # A file of the first layer that uses a symbol of its own layer is made to use one of the
    # last layer's instead.
    low = next(f for f in sorted(edges) if layer(f) == layers[0] and edges[f])
    old = next(iter(sorted(edges[low].values())))
    high = next(f for f in sorted(table) if layer(f) == layers[-1] and table[f][0])
    new = sorted(table[high][0])[0]
    cases.append((renamed(low, old, new), f"{low} uses {new} of {high}"))
    # B, used by A of its own layer, is made to use a symbol of A instead of one it uses.
    a, b = next((f, g) for f in sorted(edges) for g in sorted(edges[f])
                if layer(f) == layer(g) and edges[g])
    old = next(iter(sorted(edges[b].values())))
    new = sorted(table[a][0])[0]
    cases.append((renamed(b, old, new), "circle of files"))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nm", required=True)
    ap.add_argument("--objcopy", required=True)
    ap.add_argument("objects", nargs="+")
    args = ap.parse_args()
    objs = [o for arg in args.objects for o in arg.split(";") if o]
    layers = layer_order()
    table = read_symbols(args.nm, objs)
    bad = check(table, layers)
    if bad:
        for line in bad:
            print(f"symbols: {line}")
        return 1
    # The check must be able to fail: a planted use of a layer above, and a planted circle.
    with tempfile.TemporaryDirectory() as tmp:
        for plant, expect in planted(args.nm, args.objcopy, objs, table, layers, tmp):
            found = check(plant, layers)
            if not any(line.startswith(expect) for line in found):
                print(f"symbols: the check missed a planted problem: {expect}")
                return 1
    n = sum(len(v) for v in uses(table).values())
    print(f"symbols: {len(table)} object files, {n} uses of one file by another, none of a layer "
          f"after its own ({' '.join(layers)}), no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
