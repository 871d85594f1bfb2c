# SPDX-License-Identifier: Apache-2.0
"""The extension loads late: it takes no static TLS (glibc keeps only a small surplus of it for
modules loaded after start-up; with TensorFlow and OpenVINO imported first, an extension with
initial-exec thread-locals failed: "cannot allocate memory in static TLS block")."""
import shutil
import subprocess
import sys

import pytest

from tensorx import _tensorx


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF's STATIC_TLS flag is Linux's")
def test_extension_takes_no_static_tls():
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.skip("readelf (binutils) is not installed")
    out = subprocess.run([readelf, "-d", _tensorx.__file__], check=True, capture_output=True,
                         text=True).stdout
    flags = [line for line in out.splitlines() if "(FLAGS)" in line]
    assert not any("STATIC_TLS" in line for line in flags), (_tensorx.__file__, flags)
