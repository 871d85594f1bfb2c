# SPDX-License-Identifier: Apache-2.0
"""The tests import the installed tensorx (python3 -m pip install --no-build-isolation ./python);
run them from a folder other than python/ so that python/tensorx (no built extension) is not
found first."""
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
