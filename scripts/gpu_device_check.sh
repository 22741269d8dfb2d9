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
build/raydb gen ssb --sf 20 --db /tmp/ssb20 > /tmp/gen.txt 2>&1
timeout 240 build/raydb bench ssb --backend cuda --db /tmp/ssb20 --reps 10 --json "$OUT/bench_ssb20_cuda.json" \
  > "$OUT/bench.txt" 2>&1
echo "bench rc=$?" >> "$OUT/bench.txt"
# Variants, same data, same call (at most 8 files come back: keep them few).
# RAYDB_CUDA_MINB=4: the fact kernel capped for 4 blocks/SM; its stderr holds the warm
# phase split (profile lines of the timed repetitions: the last of 11 per query).
RAYDB_CUDA_MINB=4 RAYDB_CUDA_PROFILE=1 timeout 120 build/raydb bench ssb --backend cuda --db /tmp/ssb20 --reps 10 \
  > "$OUT/bench_minb4.txt" 2> "$OUT/profile_warm_minb4.txt"
RAYDB_CUDA_SHAPED=1 timeout 120 build/raydb bench ssb --backend cuda --db /tmp/ssb20 --reps 10 > "$OUT/bench_shaped.txt" 2>&1
if [ "${RAYDB_NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
  timeout 120 ncu --clock-control none -k regex:star_kernel -c 1 --section SpeedOfLight --section Occupancy \
    --section LaunchStats build/raydb query --backend cuda --db /tmp/ssb20 "$(cat ssb/queries/q1.1.sql)" \
    > "$OUT/ncu_q11.txt" 2>&1
fi
echo "== info"; cat "$OUT/info.txt"
echo "== tests"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests ran|rc=" "$OUT/test_gpu.txt" | head -40
grep -c "cpu only" "$OUT/test_gpu.txt" | sed 's/^/cpu-only ad-hoc cases: /'
echo "== ncu q1.1"; grep -E "Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Theoretical Occupancy|Block Limit Reg" "$OUT/ncu_q11.txt" | head -12
echo "== warm profile (minb4, last rep per query)"; awk 'NR % 11 == 0' "$OUT/profile_warm_minb4.txt" | cut -c14-140
echo "== bench shaped"; grep -E "^q|^sum" "$OUT/bench_shaped.txt" | awk '{print $1, $2}' | paste -sd' '
echo "== bench minb4"; grep -E "^q|^sum|device read" "$OUT/bench_minb4.txt"
echo "== bench"; cat "$OUT/bench.txt" | tail -22
