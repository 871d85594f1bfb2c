# SPDX-License-Identifier: Apache-2.0
"""The benchmark's current peers (bench/peers_current.py) that this venv has -- TensorFlow, ONNX
Runtime's Python API, OpenVINO, NumPy 2, tensorx's package -- each equal bit for bit to tensorx on
every benchmark workload that docs/performance.md says it runs: an adapter that breaks, or a peer
whose result drifts from TF's, leaves its column out of the benchmark silently; here it fails.
Quick sizes, no timing (--check-only)."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
RUNNER = os.path.join(ROOT, "bench", "peers_current.py")

# What each column leaves out, and why (the adapters' docstrings say more)
DECODE = {"decode_raw_le_i16", "decode_raw_be_i16", "decode_raw_le_f32", "decode_raw_be_f32",
          "decode_raw_records_1M_x64"}
NO_SPEC = {"cast_f32_e2m1fn_packed"}  # no single op of TF's: nothing to check against
LEFT_OUT = {
    "tf": NO_SPEC | {"cast_f32_e8m0"},  # TF 2.21 has no float8_e8m0fnu
    "txpy_cur": NO_SPEC | {"copy_f32_64M"},  # the op table has no plain copy
    "numpy_cur": NO_SPEC | {"cast_f32_bf16", "infer_cast_f32_bf16_1x4096"},
    # ORT: no single op for these; its float8_e4m3fn cast saturates where TF makes NaN
    "ort_cur": NO_SPEC | DECODE | {"saturate_cast_f32_u8", "cast_f32_e4m3fn",
                                   "space_to_depth_8x256x256x64_b2",
                                   "depth_to_space_8x256x256x64_b2",
                                   "space_to_batch_nd_8x256x256x64_b2",
                                   "batch_to_space_nd_32x128x128x64_b2"},
    # OpenVINO: no single op for these (its depth/space ops are NCHW); its float8 Converts
    # round through f16 (e4m3) and make negatives 0 (e8m0), where TF differs
    "openvino": NO_SPEC | DECODE | {"saturate_cast_f32_u8", "cast_f32_e4m3fn", "cast_f32_e8m0",
                                    "bitcast_f32_i32", "boolean_mask_4096x4096_half",
                                    "space_to_depth_8x256x256x64_b2",
                                    "depth_to_space_8x256x256x64_b2"},
}
MODULES = {"tf": "tensorflow", "ort_cur": "onnxruntime", "openvino": "openvino",
           "numpy_cur": "numpy", "txpy_cur": "tensorx"}
HERE = [c for c, m in MODULES.items() if importlib.util.find_spec(m) is not None]


@pytest.fixture(scope="module")
def checked():
    """{column: workloads whose result equalled tensorx's}, one run of the runner."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    names = subprocess.run([sys.executable, RUNNER, "--list"], capture_output=True, text=True,
                           check=True, env=env).stdout.split()
    p = subprocess.run([sys.executable, RUNNER, "--check-only", "--quick", "--exact",
                        ",".join(names), "--peers", ",".join(HERE)],
                       capture_output=True, text=True, env=env, timeout=900)
    assert p.returncode == 0, p.stderr[-2000:]
    got = {c: set() for c in HERE}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            got.setdefault(o["peer"], set()).add(o["workload"])
    return names, got, p.stderr


@pytest.mark.parametrize("column", HERE)
def test_each_current_peer_equals_tensorx_where_it_has_the_op(checked, column):
    names, got, stderr = checked
    assert len(names) >= 46
    missing = set(names) - got[column]
    assert missing == LEFT_OUT[column], (sorted(missing ^ LEFT_OUT[column]), stderr[-3000:])
