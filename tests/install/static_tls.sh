#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Shared objects that a program may load late (dlopen, a Python import) must take no static TLS:
# glibc keeps only a small surplus of it for them, and with TensorFlow and OpenVINO imported first
# a library with initial-exec thread-locals failed to load ("cannot allocate memory in static TLS
# block").  The linker marks such an object with the dynamic flag STATIC_TLS.
# Usage: static_tls.sh READELF PROBE OBJECT...   PROBE: a library built with an initial-exec
# thread-local, which must be flagged (to show that the check can fail); every OBJECT must not be.
set -euo pipefail
readelf=$1 probe=$2
shift 2
flagged() { "$readelf" -d "$1" | grep -E '\(FLAGS\)' | grep -q STATIC_TLS; }
flagged "$probe" || { echo "static_tls: the probe $probe is not flagged: the check cannot fail"; exit 1; }
bad=0
for so in "$@"; do
  if flagged "$so"; then echo "static_tls: $so takes static TLS (initial-exec thread-locals)"; bad=1; fi
done
[ $bad -eq 0 ] && echo "static_tls: $# object(s) take no static TLS; the probe is flagged"
exit $bad
