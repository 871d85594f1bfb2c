#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The demo on bundled data: a big-endian sensor dump decoded into a tensor, an NHWC image batch
# turned into NCHW, labels one-hot encoded, strings packed and unpacked.  usage: demo.sh TENSORX
set -euo pipefail
TX=${1:?usage: demo.sh path/to/tensorx}
# The CLI as an absolute path (a bare name is looked up on PATH), so that the cd below keeps it valid.
case "$TX" in
  */*) TX="$(cd "$(dirname "$TX")" && pwd)/$(basename "$TX")" ;;
  *) TX=$(command -v "$TX") || { echo "demo.sh: '$1' is not on PATH" >&2; exit 127; } ;;
esac
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
step() { printf '\n$ tensorx %s\n' "$*"; "$TX" "$@"; }

echo "== tensorx $("$TX" --version | cut -d' ' -f2) demo =="
step info data/images_nhwc.npy | head -4
# 1. A device's dump: 8 samples x 4 channels of big-endian int16.
step decode_raw input_bytes=@data/sensor_be.bin out_type=int16 little_endian=false -o "$out/flat.npy"
step reshape tensor="$out/flat.npy" shape=8,4 -o "$out/sensor.npy"
step transpose a="$out/sensor.npy" perm=1,0
step cast x="$out/sensor.npy" dtype=float32 -o "$out/sensor_f.npy"
step strided_slice input_="$out/sensor_f.npy" begin=0,0 end=8,4 strides=2,1
# 2. NHWC -> NCHW for a batch of images, then space_to_depth.
step transpose a=data/images_nhwc.npy perm=0,3,1,2 -o "$out/nchw.npy"
step shape input="$out/nchw.npy"
step space_to_depth input=data/images_nhwc.npy block_size=2 -o "$out/s2d.npy"
step shape input="$out/s2d.npy"
# 3. Labels to one-hot rows.
step one_hot indices=data/labels.npy depth=4
# 4. Strings: OpenVINO's pack/unpack.
step decode_raw input_bytes='"IntelOpenVINO"' out_type=uint8 -o "$out/symbols.npy"
step string_tensor_pack begins=0,5 ends=5,13 symbols="$out/symbols.npy" -o "$out/strings.npy"
step info "$out/strings.npy"
step string_tensor_unpack data="$out/strings.npy"
echo
echo "demo finished"
