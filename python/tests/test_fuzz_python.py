# SPDX-License-Identifier: Apache-2.0
"""The Python fuzz target's corpus (fuzz/corpora/python: the seeds and what the long runs merged),
replayed without atheris through fuzz/fuzz_python.py's own byte reader: every input must give a
result or an allowed exception, with its plan agreeing, and each output read whole.  In the asan
stage this runs under ASan + UBSan, as the fuzzer does (scripts/fuzz-python.sh runs it for
longer, with coverage guidance)."""
import importlib.util
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fuzz" / "corpora" / "python"


def _target():
    spec = importlib.util.spec_from_file_location("fuzz_python", ROOT / "fuzz" / "fuzz_python.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod._import_tensorx()
    return mod


def test_corpus_replays():
    fz = _target()
    files = sorted(f for f in CORPUS.iterdir() if f.is_file())
    # the seeds alone: an example call per example and two generated calls per op
    assert len(files) >= len(fz.EXAMPLES) + 2 * len(fz.OPS)
    counts = {}
    start = time.monotonic()
    for f in files:
        try:
            what = fz.TestOneInput(f.read_bytes())
        except fz.Finding as e:
            raise AssertionError(f"{f.name}: {e}") from e
        counts[what] = counts.get(what, 0) + 1
    print(f"fuzz_python corpus: {len(files)} inputs in {time.monotonic() - start:.1f} s: {counts}")
    # every example call runs as it is
    assert counts.get("ok", 0) >= len(fz.EXAMPLES)


def test_every_op_is_reached():
    """The generated-call seeds name every op of the table (so a new op is fuzzed at once)."""
    fz = _target()
    names = {f.name for f in CORPUS.iterdir()}
    missing = [name for name, _fn, _params in fz.OPS if f"gen-{name}" not in names]
    assert not missing, f"no seed for {missing}: python fuzz/fuzz_python.py --make-seeds " \
                        "fuzz/corpora/python"
