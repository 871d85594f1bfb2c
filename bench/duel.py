#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""duel.py -- tensorx's prepared run against chosen peers at chosen sweep sizes, in many paired
rounds, with tensorx against itself as the control: how far apart two runs of the same program
land on this machine, next to how far tensorx and a peer do.

Each round runs every contestant once at the size, each in a process of its own, the order
turned by one each round: tensorx (the better of tensorx_prep and tensorx_prep_1t, as the sweep's
`prep` column), tensorx again (the same program: the control), then each rival (a peer of
bench/sweep.py: xnnpack, xnnpack_cur, the current peers of --cur-cmd, numpy, torch1, torch2).
A contestant's time in a round is what the sweep takes (the median of samples of many calls).

Per case it prints each contestant's times (the median of the rounds, their fastest and slowest)
and, for each rival and for the control, tensorx / it by the best round (as the sweep decides),
by the median round, and in how many rounds tensorx was the faster of the two.  A rival that
tensorx beats by less than the control's spread is a tie on this machine, whatever the sweep
said.

  duel.py --tx-bench PATH [--xnn-cmd CMD] [--xnn-cur-cmd CMD] [--cur-cmd CMD] [--rounds N]
          [--reps N] [--json] CASE [CASE ...]
  CASE = family:size:rival[+rival...], size as 4K, 16M ...; e.g. concat:4M:xnnpack_cur
"""
import argparse
import json
import statistics
import sys

import sweep as S


def parse_size(text):
    unit = {"K": 1 << 10, "M": 1 << 20}[text[-1].upper()]
    return int(text[:-1]) * unit


def contestants(a, fam, dims, rivals, reps):
    """[(name, thunk)]: each thunk runs one process and returns its seconds per call."""
    key = ",".join(map(str, dims))

    def tx():
        t = S.run_helper([a.tx_bench], fam, [dims], reps).get(key, {})
        return min(t[p] for p in ("tensorx_prep", "tensorx_prep_1t") if p in t)

    out = [("tensorx", tx), ("tensorx_again", tx)]
    cmds = {"xnnpack": a.xnn_cmd, "xnnpack_cur": a.xnn_cur_cmd}
    for r in rivals:
        if r in S.PYTHON_PEERS:
            out.append((r, lambda r=r: S.run_python(fam, dims, {r}, reps)[r]))
        elif r in cmds and cmds[r]:
            out.append((r, lambda r=r: S.run_helper(cmds[r].split(), fam, [dims], reps)[key][r]))
        elif r in S.PEERS_CURRENT and a.cur_cmd:
            cmd = a.cur_cmd.split() + ["--peers", r]
            out.append((r, lambda cmd=cmd, r=r: S.run_helper(cmd, fam, [dims], reps)[key][r]))
        else:
            sys.exit(f"duel: no way to run {r} (give its command)")
    return out


def duel(a, case):
    fam, size, rivals = case.split(":")
    dims = S.dims_of(fam, parse_size(size))
    runs = contestants(a, fam, dims, rivals.split("+"), a.reps)
    times = {name: [] for name, _ in runs}
    for r in range(a.rounds):
        print(f"duel: {fam} {size}, round {r + 1} of {a.rounds}", file=sys.stderr)
        k = r % len(runs)
        for name, thunk in runs[k:] + runs[:k]:
            times[name].append(thunk())
    tx = times["tensorx"]
    versus = {}  # tensorx / each other: by the best round, by the median round; rounds it won
    for name in times:
        if name == "tensorx":
            continue
        t = times[name]
        versus[name] = {"best": min(tx) / min(t),
                        "median": statistics.median(tx) / statistics.median(t),
                        "won": sum(x < y for x, y in zip(tx, t))}
    return {"family": fam, "size": size, "dims": ",".join(map(str, dims)), "rounds": a.rounds,
            "times": times, "versus": versus}


def show(res):
    n = res["rounds"]
    print(f"{res['family']} {res['size']} [{res['dims']}], {n} rounds")
    for name, t in res["times"].items():
        print(f"  {name:14} median {S.fmt_time(statistics.median(t)):>9}  fastest "
              f"{S.fmt_time(min(t)):>9}  slowest {S.fmt_time(max(t)):>9}  slowest/fastest "
              f"{max(t) / min(t):.2f}")
    for name, v in res["versus"].items():
        print(f"  tensorx / {name:14} best {v['best']:.2f}  median {v['median']:.2f}  "
              f"tensorx faster in {v['won']} of {n}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tx-bench", required=True)
    ap.add_argument("--xnn-cmd")
    ap.add_argument("--xnn-cur-cmd")
    ap.add_argument("--cur-cmd")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    for case in a.cases:
        res = duel(a, case)
        if a.json:
            print(json.dumps(res))
        else:
            show(res)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
