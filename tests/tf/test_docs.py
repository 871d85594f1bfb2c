# SPDX-License-Identifier: Apache-2.0
"""docs/tensorflow.md holds the table of deliberate differences exactly as the oracle's registered
rows print it (oracle.differences_table()): a rule added, changed or dropped in tests/tf/ without
the page, or the page edited without the rule, fails here."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

oracle.load_families()
PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "docs", "tensorflow.md")


def test_the_page_holds_the_differences_table():
    with open(PAGE) as f:
        page = f.read()
    table = oracle.differences_table()
    assert table in page, ("docs/tensorflow.md's table differs from the registered differences: "
                           "paste `python3 tests/tf/oracle.py --differences`")
