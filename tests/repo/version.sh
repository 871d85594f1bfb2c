#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The version tells the truth: the one in include/tensorx.h (which the build reads) is the one
# docs/tensorx.1, tx_version_string's comment and a CHANGELOG.md heading give, and every "Since X.Y"
# of the header and its parts (include/tensorx/) names a released version no newer than it.
set -euo pipefail
cd "$(dirname "$0")/../.."
ver() { sed -n "s/^#define TX_VERSION_$1 \([0-9]*\)$/\1/p" include/tensorx.h; }
major=$(ver MAJOR) minor=$(ver MINOR) patch=$(ver PATCH)
version=$major.$minor.$patch
failed=0
bad() { echo "FAIL $*"; failed=$((failed + 1)); }

grep -q "^\.TH TENSORX 1 \"[^\"]*\" \"tensorx $version\"" docs/tensorx.1 ||
  bad "docs/tensorx.1's .TH line does not say tensorx $version: $(grep '^\.TH' docs/tensorx.1)"
grep -q "tx_version_string(void); *\/\* \"$version\" \*\/" include/tensorx.h ||
  bad "tx_version_string's comment in include/tensorx.h does not say \"$version\""
grep -q "^## $version\b" CHANGELOG.md || bad "CHANGELOG.md has no heading '## $version'"

# "Since X.Y" markers, also where a comment line breaks between "Since" and the version.
since=$(cat include/tensorx.h include/tensorx/*.h | tr '\n' ' ' | sed 's/ *\* */ /g' | grep -o 'Since [0-9][0-9]*\.[0-9][0-9]*' |
        sort | uniq -c) || true
[ -n "$since" ] || bad "no 'Since X.Y' marker found in include/tensorx.h and its parts"
while read -r n _ v; do
  [ -n "$v" ] || continue
  vmaj=${v%%.*} vmin=${v#*.}
  if [ "$vmaj" -gt "$major" ] || { [ "$vmaj" -eq "$major" ] && [ "$vmin" -gt "$minor" ]; }; then
    bad "$n function(s) say 'Since $v', newer than the version $version"
  fi
  grep -q "^## $v\.[0-9]" CHANGELOG.md || bad "$n function(s) say 'Since $v', but CHANGELOG.md has no $v.x release"
done <<<"$since"
if [ $failed -gt 0 ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "version: $version in the header, the man page and CHANGELOG.md; Since markers: $(echo $since)"
