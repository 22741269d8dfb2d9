#!/usr/bin/env bash
# Packs what one device call needs into .xfer/bundle (git-ignored): the binaries of
# build/ (raydb and the GPU test binaries), their shared libraries that a bare
# CUDA image may lack, the SSB query texts and scripts/device_run.sh. The device
# image has no Debian dev packages, so we build here and carry the result:
#   bash scripts/device_bundle.sh && run(command="bash .xfer/bundle/scripts/device_run.sh", carry=[".xfer/bundle"])
# XFER_DIR=/abs/path puts the bundle elsewhere (a helper's worktree: the device call
# sends the main checkout, so the bundle must lie inside it, under .xfer/).
set -euo pipefail
shopt -s nullglob  # BUNDLE_TESTS=none: no test binary, and the globs below stay empty
cd "$(dirname "${BASH_SOURCE[0]}")/.."
B=${XFER_DIR:-.xfer/bundle}
rm -rf "$B" && mkdir -p "$B/build/tests" "$B/lib" "$B/scripts" "$B/ssb"
cp build/raydb "$B/build/"
# BUNDLE_TESTS picks the test binaries (all three GPU ones and raydb exceed the limit
# together with the checkout).
for t in ${BUNDLE_TESTS:-test_gpu test_gpu_orderstat test_rt_optix} ${BUNDLE_E2E:+test_e2e}; do [ -f build/tests/$t ] && cp build/tests/$t "$B/build/tests/"; done
cp -r ssb/queries "$B/ssb/"
cp scripts/device_*.sh scripts/plot_bench_views.py scripts/ops_targets.py scripts/rt_scan_pick_eval.py scripts/rtscan_targets.py "$B/scripts/"
for f in "$B"/build/raydb "$B"/build/tests/*; do ldd "$f"; done | awk '{print $3}' | grep '^/' | sort -u |
  grep -vE 'lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so|ld-linux' | xargs -r -I{} cp -L {} "$B/lib/"
# The 64 MiB transfer limit: Embree alone is 42 MB unpacked, and so are the binaries.
# xz packs them about a third smaller than gzip; the device scripts unpack either.
xz -6 -T0 "$B"/lib/* "$B"/build/raydb "$B"/build/tests/*
# The test binaries name the source tree and raydb by their build paths here.
echo "$PWD" > "$B/source_dir"
du -sh "$B"
