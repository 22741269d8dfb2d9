#!/usr/bin/env bash
# One call on the GPU machine (see docs/benchmarks): run the CUDA tests and the SSB
# SF 20 benchmark with binaries built elsewhere and carried in prebuilt/ (their
# shared libraries in prebuilt/lib). Logs go to $OUT; a short summary prints last.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /work/wt
# The test binaries name the source tree and the raydb binary by their build paths.
[ -e /work/wt/cuda ] || ln -s "$ROOT" /work/wt/cuda
mkdir -p build && cp prebuilt/raydb prebuilt/test_gpu build/
export LD_LIBRARY_PATH=$ROOT/prebuilt/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/info.txt" 2>&1
build/raydb info >> "$OUT/info.txt" 2>&1
XDG_CONFIG_HOME=/tmp/cfg build/raydb calibrate >> "$OUT/info.txt" 2>&1
timeout 240 build/test_gpu --gtest_brief=0 > "$OUT/test_gpu.txt" 2>&1
echo "test_gpu rc=$?" >> "$OUT/test_gpu.txt"
# The same tests with each run 6 change turned off, so that any default is checked here.
for v in "RAYDB_CUDA_SMEM_LOOKUP=0" "RAYDB_CUDA_ROWSHAPE=0" "RAYDB_CUDA_SMEM_LOOKUP=0 RAYDB_CUDA_ROWSHAPE=0"; do
  echo "== test_gpu with $v" > "$OUT/test_gpu_$$.txt"
  env $v timeout 240 build/test_gpu --gtest_brief=0 >> "$OUT/test_gpu_$$.txt" 2>&1
  echo "test_gpu ($v) rc=$?" >> "$OUT/test_gpu_$$.txt"
  grep -E "^\[  (PASSED|FAILED) |rc=|^== " "$OUT/test_gpu_$$.txt" >> "$OUT/test_gpu_variants.txt"
  rm -f "$OUT/test_gpu_$$.txt"
done
build/raydb gen ssb --sf 20 --db /tmp/ssb20 > /tmp/gen.txt 2>&1
timeout 240 build/raydb bench ssb --backend cuda --db /tmp/ssb20 --reps 10 --json "$OUT/bench_ssb20_cuda.json" \
  > "$OUT/bench.txt" 2>&1
echo "bench rc=$?" >> "$OUT/bench.txt"
# Variants, same data, same call (at most 8 files come back: keep them few).
# Default (run 6): small lookup arrays probed from shared memory, shaped aggregates
# evaluated per selected row without the interpreter. RAYDB_CUDA_SMEM_LOOKUP=0 and
# RAYDB_CUDA_ROWSHAPE=0 turn each off; both off is the run 5 kernel. (The staged
# kernel, RAYDB_CUDA_STAGES=2|3, measured slower in run 6 and is not re-run.)
# RAYDB_CUDA_PREFETCH=0: the defaults without the L2 prefetch of the next tile.
RAYDB_CUDA_SMEM_LOOKUP=0 timeout 120 build/raydb bench ssb --backend cuda --db /tmp/ssb20 --reps 10 \
  > "$OUT/bench_nolookup.txt" 2>&1
RAYDB_CUDA_ROWSHAPE=0 timeout 120 build/raydb bench ssb --backend cuda --db /tmp/ssb20 --reps 10 \
  > "$OUT/bench_norowshape.txt" 2>&1
RAYDB_CUDA_SMEM_LOOKUP=0 RAYDB_CUDA_ROWSHAPE=0 timeout 120 build/raydb bench ssb --backend cuda --db /tmp/ssb20 \
  --reps 10 > "$OUT/bench_run5.txt" 2>&1
RAYDB_CUDA_PREFETCH=0 timeout 120 build/raydb bench ssb --backend cuda --db /tmp/ssb20 --reps 10 \
  > "$OUT/bench_noprefetch.txt" 2>&1
if [ "${RAYDB_NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
  timeout 120 ncu --clock-control none -k regex:star_kernel -c 1 --section SpeedOfLight --section Occupancy \
    --section LaunchStats build/raydb query --backend cuda --db /tmp/ssb20 "$(cat ssb/queries/q1.1.sql)" \
    > "$OUT/ncu_q11.txt" 2>&1
fi
echo "== info"; cat "$OUT/info.txt"
echo "== tests"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests ran|rc=" "$OUT/test_gpu.txt" | head -40
grep -c "cpu only" "$OUT/test_gpu.txt" | sed 's/^/cpu-only ad-hoc cases: /'
echo "== ncu q1.1"; [ -f "$OUT/ncu_q11.txt" ] && grep -E "Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Theoretical Occupancy|Block Limit" "$OUT/ncu_q11.txt" | head -12
cat "$OUT/test_gpu_variants.txt"
for v in nolookup norowshape run5 noprefetch; do echo "== bench $v"; grep -E "^q|^sum" "$OUT/bench_$v.txt" | awk '{print $1, $2}' | paste -sd' '; grep "rc=\|rror" "$OUT/bench_$v.txt" | head -3; done
echo "== bench (default)"; cat "$OUT/bench.txt" | tail -22
