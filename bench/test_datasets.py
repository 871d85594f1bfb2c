# SPDX-License-Identifier: Apache-2.0
"""The dataset benchmark's self-check (no timing): every side of bench/datasets.py, on small
files, gives what was written.  Run with the benchmark's venv (scripts/bench.sh --datasets makes
it): python -m pytest bench/test_datasets.py.  A missing peer package is left out by datasets.py
itself; without tensorx's file API and parse_example the test is skipped."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def test_every_side_reads_what_was_written(tmp_path):
    tx = pytest.importorskip("tensorx")
    for name in ("TFRecordReader", "tfrecord_write", "parse_example", "load"):
        if not hasattr(tx, name):
            pytest.skip(f"this tensorx has no {name}")
    r = subprocess.run([sys.executable, os.path.join(HERE, "datasets.py"), "--check-only",
                        "--records", "1000", "--array-mib", "4", "--dir", str(tmp_path / "d")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "every side's result equals what was written" in r.stdout
