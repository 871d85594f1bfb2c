# SPDX-License-Identifier: Apache-2.0
"""The type stubs (python/tensorx/*.pyi, py.typed): generated from the op table by
python/tools/gen_stubs.py, so they are regenerated here from the installed package and must equal
the committed files (a changed op, parameter, default or helper fails until the stubs are made
again: `python python/tools/gen_stubs.py` with tensorx installed).  Then mypy --strict checks the
stubs and typecheck_usage.py (typed calls of the API that must pass, and misuse that must not),
and mypy's stubtest compares the stubs with the installed package's run-time signatures.  The
mypy tests skip where mypy is not installed (scripts/test.sh installs it and fails on that skip).
"""
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tensorx as tx

PYTHON = Path(__file__).resolve().parents[1]  # python/
STUBS = ("__init__.pyi", "dask.pyi", "_tensorx.pyi")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_stubs", PYTHON / "tools" / "gen_stubs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_stubs_are_generated_from_the_op_table():
    gen = _generator()
    stubs = gen.generate()
    stale = [n for n in STUBS if (PYTHON / "tensorx" / n).read_text(encoding="utf-8") != stubs[n]]
    assert not stale, (f"{stale} differ from gen_stubs.py's output for the installed tensorx: run "
                       f"`python python/tools/gen_stubs.py` (--check shows the diff)")
    # every op of the table is a typed function, every public name is in the stub
    text = stubs["__init__.pyi"]
    missing = [n for n in tx.__all__
               if not re.search(rf"^(def {n}\(|class {n}\b|{n}: )", text, re.M)]
    assert not missing, missing
    untyped = list(gen.Notes.items)
    assert not untyped, f"gen_stubs.py typed these as Any: {untyped} (add them to its tables)"


def test_installed_package_has_the_stubs():
    """The wheel carries py.typed and the stubs (pyproject's wheel.packages = ["tensorx"])."""
    pkg = Path(tx.__file__).resolve().parent
    assert (pkg / "py.typed").is_file()
    for n in STUBS:
        assert (pkg / n).read_text(encoding="utf-8") == \
            (PYTHON / "tensorx" / n).read_text(encoding="utf-8"), f"installed {n} is stale"


def test_usage_runs():
    """The typed usage file is true at run time too."""
    spec = importlib.util.spec_from_file_location("typecheck_usage",
                                                  Path(__file__).with_name("typecheck_usage.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main()


def _mypy(tmp_path, *args):
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("a static check: not under the sanitizers (the release stage runs it)")
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("needs mypy (pip install mypy, or Debian's python3-mypy)")
    if importlib.util.find_spec("dask") is None:
        pytest.skip("needs dask (tensorx/dask.pyi and typecheck_usage.py use its types)")
    # The source tree's stubs (python/tensorx/*.pyi, found first through MYPYPATH), from a folder
    # with no mypy configuration of its own.
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(PYTHON), str(PYTHON / "tests")]))
    r = subprocess.run([sys.executable, "-m", *args], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    print(r.stdout + r.stderr)
    return r


def test_mypy_strict(tmp_path):
    r = _mypy(tmp_path, "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "c"),
              "-p", "tensorx", "-m", "typecheck_usage")
    assert r.returncode == 0, r.stdout + r.stderr


def test_stubtest(tmp_path):
    """The stubs against the installed package at run time: parameter names, kinds, defaults,
    every public name (mypy.stubtest)."""
    r = _mypy(tmp_path, "mypy.stubtest", "tensorx")
    assert r.returncode == 0, r.stdout + r.stderr
