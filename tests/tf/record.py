# SPDX-License-Identifier: Apache-2.0
"""Records TensorFlow's answers to the oracle's first cases of every op as conformance suites
(tests/conformance/FORMAT.md), one file per op: tests/conformance/tf/<op>.json.  `tensorx conform
tests/conformance` then checks them on any machine, without TensorFlow.

    python3 tests/tf/record.py [--seed 2026] [--cases 120] [--out DIR] [--check]

A case's expectation is TF's outcome: its outputs, or the category of its error.  Where TF has no
kernel for a dtype of the case and the op only moves bits, the expectation is TF's answer on the
inputs' integer carriers (oracle.carrier), said in the case's note.  Cases that show a deliberate
difference (oracle.DIFFERENCES) are left out and counted, and the generator's next cases taken
instead, so every suite holds --cases cases.  The output depends only on the seed, the
case count and TF's version: recording twice gives the same bytes (--check regenerates in memory and
fails when a file differs, which CI runs).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import oracle  # noqa: E402
from oracle import np, tf, tx  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
SUITES = os.path.join(ROOT, "tests", "conformance", "tf")


def tensor_json(a):
    """A tensorx array (an input) in the case format: little-endian hex, strings as hex."""
    name = oracle.dtype_of(a)
    if name == "string":
        return {"dtype": name, "shape": list(a.shape),
                "strings_hex": [bytes(e).hex() for e in a.ravel()]}
    if a.dtype.byteorder not in ("=", "|"):  # a case's big-endian (or foreign) array: its values
        a = a.astype(a.dtype.newbyteorder("="))
    return {"dtype": name, "shape": list(a.shape),
            "hex": _little(np.ascontiguousarray(a).tobytes(), name)}


def out_json(o):
    if o.dtype == "string":
        return {"dtype": o.dtype, "shape": list(o.shape), "strings_hex": [e.hex() for e in o.data]}
    return {"dtype": o.dtype, "shape": list(o.shape), "hex": _little(o.data, o.dtype)}


def _little(raw, name):
    """The format's hex: each element (each part of a complex) little-endian on every host."""
    if sys.byteorder == "little":
        return raw.hex()
    unit = oracle.np_dtype(name).itemsize // (2 if name.startswith("complex") else 1)
    return b"".join(raw[i:i + unit][::-1] for i in range(0, len(raw), unit)).hex()


def record(name, seed, count):
    """The suite of op `name` and (recorded, left out as documented, where tensorx disagrees)."""
    spec, out, docd, disagree = oracle.OPS[name], [], 0, 0
    # The generator's cases in order until `count` are recorded: those left out (documented) are
    # replaced by the next ones (every generator ends in an endless random stream).
    for i, case in enumerate(oracle.cases(name, seed, 20 * count)):
        if len(out) >= count:
            break
        want, got = oracle.run_tf(spec, case), oracle.run_tx(name, case)
        note = case.note
        if oracle.no_kernel(want):
            carried = oracle.carrier(spec, case, got)
            if carried is not None and carried[0] == "ok":
                want = carried
                note = (note + "; " if note else "") + (
                    f"TF {tf.__version__} has no {spec.tf_name or name} kernel for the dtype: "
                    "the bits TF gives on the inputs' integer carriers")
        why = oracle.agree(case, want, got)
        if why is not None and oracle.documented(name, case, want, got):
            docd += 1
            continue
        if want[0] == "error" and want[1].startswith("unknown"):
            raise SystemExit(f"{name} #{i}: TF raised {want[3]} ({want[2]}): no category to record")
        disagree += why is not None
        c = {"name": f"{name}/{i:03d}" + (f"_{_slug(case.note)}" if case.note else ""), "op": name,
             "inputs": {k: [tensor_json(e) for e in v] if isinstance(v, list) else tensor_json(v)
                        for k, v in case.inputs.items()},
             "attrs": dict(case.attrs)}
        if want[0] == "error":
            c["expect_error"] = want[1]
        else:
            c["expect"] = [out_json(o) for o in want[1]]
        if case.byte_order:
            c["byte_order"] = case.byte_order
        if note:
            c["note"] = note
        out.append(c)
    return out, docd, disagree


def _slug(text):
    return "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_")[:48]


def suite_text(name, cases, seed, count):
    head = {"suite": f"tf/{name}",
            "source": (f"TensorFlow {tf.__version__} (tensorflow-cpu, CPU kernels, eager; "
                       f"OpenVINO {_ov_version()} for string_tensor_pack/unpack): its answers to "
                       f"the cases of tests/tf/ops_*.py, recorded by `python3 tests/tf/record.py "
                       f"--seed {seed} --cases {count}` (scripts/tf-oracle.sh record)")}
    lines = ",\n".join(json.dumps(c, separators=(", ", ": ")) for c in cases)
    text = json.dumps(head, separators=(", ", ": "))[:-1]
    return text + ', "cases": [\n' + lines + "\n]}\n"


def _ov_version():
    try:
        import openvino
        return openvino.__version__.split("-")[0]
    except ImportError:
        return "(not installed)"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--cases", type=int, default=120)
    p.add_argument("--out", default=SUITES)
    p.add_argument("--op", action="append")
    p.add_argument("--check", action="store_true",
                   help="regenerate in memory and fail where a recorded file differs")
    a = p.parse_args(argv)
    oracle.load_families()
    names = a.op or sorted(oracle.OPS)
    os.makedirs(a.out, exist_ok=True)
    stale, total = [], [0, 0, 0]
    for name in names:
        cases, docd, disagree = record(name, a.seed, a.cases)
        text = suite_text(name, cases, a.seed, a.cases)
        path = os.path.join(a.out, name + ".json")
        total = [total[0] + len(cases), total[1] + docd, total[2] + disagree]
        print(f"{name}: {len(cases)} cases recorded, {docd} left out (documented differences), "
              f"{disagree} where tensorx disagrees", flush=True)
        old = open(path).read() if os.path.exists(path) else None
        if a.check:
            if old != text:
                stale.append(path)
            continue
        if old != text:
            tmp = path + ".tmp"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, path)  # whole or not at all
    print(f"{len(names)} suites: {total[0]} cases, {total[1]} left out, {total[2]} where tensorx "
          "disagrees")
    if stale:
        print("recorded suites that regenerate differently (run scripts/tf-oracle.sh record):\n  " +
              "\n  ".join(os.path.relpath(s, ROOT) for s in stale))
        return 1
    return 1 if total[2] else 0


if __name__ == "__main__":
    sys.exit(main())
