#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Python package's build files tell the truth: the version its wheels carry (pyproject.toml's
# regex settings over include/tensorx.h, as scikit-build-core and python/backend/tensorx_build.py
# read them) is the header's; the metadata the offline backend writes names it, the Python floor
# and the NumPy requirement; the floor is one version in pyproject.toml and python/CMakeLists.txt
# and no lower than what the extension calls needs (Py_NewRef: 3.10); the isolated build asks for
# NumPy 2's headers.  (scripts/install-python.sh checks an installed wheel's version against the
# library's and the CLI's.)
set -euo pipefail
cd "$(dirname "$0")/../.."
python=/usr/bin/python3 # Debian's (3.11: tomllib), as the build files' readers would use
if ! "$python" -c 'import tomllib' 2>/dev/null; then
  echo "python package: not checked (no /usr/bin/python3 with tomllib, Python 3.11+)"
  exit 0
fi
ver() { sed -n "s/^#define TX_VERSION_$1 \([0-9]*\)$/\1/p" include/tensorx.h; }
version=$(ver MAJOR).$(ver MINOR).$(ver PATCH)
failed=0
bad() { echo "FAIL $*"; failed=$((failed + 1)); }

out=$(cd python && TENSORX_BUILD_BACKEND=cmake "$python" - <<'EOF'
import sys
sys.path.insert(0, "backend")
import tensorx_build as b
p = b._pyproject()
print(b._version(p))
print(p["project"]["requires-python"])
print(" ".join(p["build-system"]["requires"]))
print(b._metadata(p["project"], b._version(p), 2), end="")
EOF
) || { echo "FAIL pyproject.toml's settings (the version regex over include/tensorx.h), read as python/backend/tensorx_build.py and scikit-build-core read them, failed (above)"; echo "0 passed, 1 failed"; exit 1; }
wheel_version=$(sed -n 1p <<<"$out")
floor=$(sed -n 2p <<<"$out")
requires=$(sed -n 3p <<<"$out")
metadata=$(sed -n '4,$p' <<<"$out")
[ "$wheel_version" = "$version" ] ||
  bad "the wheel's version is '$wheel_version', include/tensorx.h's is $version"
grep -qx "Version: $version" <<<"$metadata" || bad "METADATA has no 'Version: $version': $metadata"
grep -qx "Requires-Python: $floor" <<<"$metadata" || bad "METADATA has no 'Requires-Python: $floor'"
grep -qx "Requires-Dist: numpy>=1.24" <<<"$metadata" || bad "METADATA does not require numpy>=1.24"

[[ $floor =~ ^\>=3\.([0-9]+)$ ]] || bad "requires-python is '$floor', not '>=3.N'"
minor=${BASH_REMATCH[1]:-0}
grep -q "find_package(Python 3\.$minor REQUIRED" python/CMakeLists.txt ||
  bad "python/CMakeLists.txt does not ask for Python 3.$minor as pyproject.toml does ($floor)"
if cat python/tensorx/_tensorx*.[ch] | grep -q 'Py_NewRef\|Py_XNewRef' && [ "$minor" -lt 10 ]; then
  bad "the extension calls Py_NewRef (Python 3.10) but requires-python is $floor"
fi
[[ " $requires " == *" numpy>=2 "* ]] ||
  bad "build-system.requires ($requires) does not ask for numpy>=2 (NumPy 2's headers)"
[[ " $requires " == *" scikit-build-core"* ]] ||
  bad "build-system.requires ($requires) does not name scikit-build-core"

if [ $failed -gt 0 ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "python package: version $version (header, pyproject.toml's settings, METADATA), Python $floor, build requires: $requires"
