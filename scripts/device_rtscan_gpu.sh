#!/usr/bin/env bash
# RT scan on the GPU machine, one call, with a bundle from scripts/device_bundle.sh
# (BUNDLE_E2E=1) and the RTScan kit carried in .xfer/kit/rtscan (the kit's sources are
# fetched, never committed):
#   TESTS=1  the SQL tests with the CUDA backend (GpuRtScanSql, RtScanSql), the RT scan
#            cases on OptiX and the GPU index tests
#   KIT=1    the RTScan artifact (kits/rtscan/run.sh, BinDex-CUDA off) on uniform and
#            Zipf 1.5 at 10^8 x 3, then `raydb bench scan` on the same data files
#   SWEEP=1  the generated sweep (device_scan_bench.sh) with the model's picks
#   CAL=1    `raydb calibrate --devices gpu` first (the picks then use its constants)
# Outputs under $OUT.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
cd /tmp
if [ "${CAL:-0}" = 1 ]; then
  timeout 200 "$R" calibrate --devices gpu --gpu-log-keys 20,24 > "$OUT/calibrate.txt" 2>&1
  echo "rc=$?" >> "$OUT/calibrate.txt"
fi
if [ "${TESTS:-1}" = 1 ]; then
  timeout 200 "$T/test_gpu" --gtest_filter='GpuRtScanSql*:*Index*' > "$OUT/test_gpu.txt" 2>&1
  echo "rc=$?" >> "$OUT/test_gpu.txt"
  timeout 150 "$T/test_rt_optix" --gtest_filter='*Scan*' > "$OUT/test_rt_optix.txt" 2>&1
  echo "rc=$?" >> "$OUT/test_rt_optix.txt"
  timeout 150 "$T/test_e2e" --gtest_filter='RtScanSql*' > "$OUT/test_e2e.txt" 2>&1
  echo "rc=$?" >> "$OUT/test_e2e.txt"
  for f in test_gpu test_rt_optix test_e2e; do
    echo "== $f"; grep -E "^\[  (PASSED|FAILED) |^rc=|tests ran|SKIPPED \]" "$OUT/$f.txt" | head -20
  done
fi
if [ "${KIT:-0}" = 1 ]; then
  KITDIR=$(cd "$B/../kit/rtscan" && pwd)
  DATASETS="uniform zipf1.5" BINDEX=0 DEADLINE_S=${KIT_DEADLINE:-240} bash "$KITDIR/run.sh" 1e8 /tmp/kit \
    > "$OUT/kit.txt" 2>&1
  cp /tmp/kit/summary.csv "$OUT/kit_summary.csv" 2>/dev/null
  tail -n 30 "$OUT/kit.txt"
  KIT_DATA=/tmp/kit/data SWEEP=0 OUT=$OUT bash "$B/scripts/device_scan_bench.sh" > /dev/null 2>&1
  tail -n 25 "$OUT/scan_kit.txt"; grep "model picked" "$OUT/scan_kit.err"
fi
if [ "${SWEEP:-0}" = 1 ]; then
  OUT=$OUT bash "$B/scripts/device_scan_bench.sh" > /dev/null 2>&1
  grep "model picked" "$OUT/scan_sweep.err"
fi
