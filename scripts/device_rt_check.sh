#!/usr/bin/env bash
# One call on the GPU machine: configure with OptiX, build raydb + the RT tests, run
# the gpu-labelled OptiX RT tests (and the Embree ones for comparison), `raydb info`,
# and a small `raydb bench index` on the OptiX tracer; a short summary comes last.
#
#   bash scripts/device_rt_check.sh
#
# Expects the OptiX headers in third_party/optix/include (carried with the checkout)
# or OPTIX_DIR=<dir with include/optix.h>. Environment: BUILD (build dir, default
# build-rt-gpu), LOG_KEYS (default 20,26), LOG_LOOKUPS (27), RANGE_HITS (0,16),
# METHODS (rt,sa), REPS (3), BENCH_TIMEOUT (seconds, 330). Results (logs, JSON lines)
# go to $OUT when set (the device tool brings it back), else $BUILD/rt-check.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$SECONDS
OPTIX_DIR="${OPTIX_DIR:-$PWD/third_party/optix}"
BUILD="${BUILD:-build-rt-gpu}"
RESULTS="${OUT:-$BUILD/rt-check}"
LOG_KEYS="${LOG_KEYS:-20,26}"
LOG_LOOKUPS="${LOG_LOOKUPS:-27}"
RANGE_HITS="${RANGE_HITS:-0,16}"
METHODS="${METHODS:-rt,sa}"
REPS="${REPS:-3}"
BENCH_TIMEOUT="${BENCH_TIMEOUT:-330}"
mkdir -p "$RESULTS"
summary=()
stamp() { echo "== $1 ($((SECONDS - start)) s)"; }
note() { summary+=("$1"); }

stamp "GPU"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$RESULTS/gpu.txt"
  note "gpu: $(head -1 "$RESULTS/gpu.txt")"
else
  note "gpu: nvidia-smi not found"
fi

stamp "configure (OptiX headers: $OPTIX_DIR)"
if [ ! -f "$OPTIX_DIR/include/optix.h" ]; then
  echo "SUMMARY: no $OPTIX_DIR/include/optix.h: carry third_party/optix or set OPTIX_DIR"
  exit 1
fi
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if ! cmake -S . -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DOptiX_INSTALL_DIR="$OPTIX_DIR" \
     >"$RESULTS/configure.log" 2>&1; then
  tail -30 "$RESULTS/configure.log"
  echo "SUMMARY: configure failed (see configure.log)"
  exit 1
fi
grep "raydb OptiX tracer" "$RESULTS/configure.log"
note "$(grep -o 'raydb OptiX tracer: [a-z]*' "$RESULTS/configure.log" | head -1)"

stamp "build raydb test_rt test_rt_optix"
if ! cmake --build "$BUILD" --target raydb test_rt test_rt_optix -j "$(nproc)" >"$RESULTS/build.log" 2>&1; then
  grep -E "error|Error" "$RESULTS/build.log" | head -30
  tail -20 "$RESULTS/build.log"
  echo "SUMMARY: build failed (see build.log)"
  exit 1
fi
note "build: ok ($((SECONDS - start)) s so far)"

stamp "raydb info"
"$BUILD/raydb" info | tee "$RESULTS/info.txt"
note "$(grep 'ray-tracing cores' "$RESULTS/info.txt")"

stamp "RT tests on OptiX (label gpu) and on Embree"
ctest --test-dir "$BUILD" -L gpu -R 'OptiX|Optix' --output-on-failure --timeout 300 >"$RESULTS/ctest_optix.log" 2>&1
optix_rc=$?
grep -E "Passed|Failed|Skipped|Not Run|tests passed|\*\*\*" "$RESULTS/ctest_optix.log" | tail -25
ctest --test-dir "$BUILD" -R 'Embree|KeyGrid|KeyCodec' --timeout 300 >"$RESULTS/ctest_embree.log" 2>&1
embree_rc=$?
count() { grep -cE "$1" "$2" || true; }
note "optix tests: $(count 'Test +#[0-9]+: .* Passed' "$RESULTS/ctest_optix.log") passed, $(count '\*\*\*Failed|\*\*\*Exception|\*\*\*Timeout' "$RESULTS/ctest_optix.log") failed, $(count 'Test +#[0-9]+: .*Skipped' "$RESULTS/ctest_optix.log") skipped (ctest rc $optix_rc)"
note "embree tests: $(grep -E 'tests passed' "$RESULTS/ctest_embree.log" | tail -1) (ctest rc $embree_rc)"
grep -h "OptiX device:" "$BUILD"/Testing/Temporary/LastTest.log 2>/dev/null | head -1

stamp "bench index on OptiX: keys 2^{$LOG_KEYS}, lookups 2^{$LOG_LOOKUPS}, range hits {$RANGE_HITS}"
rm -f "$RESULTS/bench_index.jsonl"
timeout "$BENCH_TIMEOUT" "$BUILD/raydb" bench index --tracer optix --methods "$METHODS" --log-keys "$LOG_KEYS" \
  --log-lookups "$LOG_LOOKUPS" --range-hits "$RANGE_HITS" --sorted-probes 0,1 --reps "$REPS" --warmup 1 \
  --json "$RESULTS/bench_index.jsonl" 2>&1 | tee "$RESULTS/bench_index.txt"
bench_rc=${PIPESTATUS[0]}
note "bench: rc $bench_rc$([ "$bench_rc" = 124 ] && echo ' (timed out; rows so far kept)'), $(cat "$RESULTS/bench_index.jsonl" 2>/dev/null | grep -c .) measurements, unverified rows: $(grep -c ' NO$' "$RESULTS/bench_index.txt" || true)"

echo
echo "SUMMARY ($((SECONDS - start)) s; files in $RESULTS)"
for line in "${summary[@]}"; do echo "  $line"; done
echo "  bench (method kb lk ll hit range dup sp build_ms lookup_ms launch_ms Mlookup/s mem_MB ok):"
grep -E '^(rt|rx|cgrx|rt-box|sa|hash) ' "$RESULTS/bench_index.txt" | sed 's/^/    /'
[ "$optix_rc" = 0 ] && [ "$embree_rc" = 0 ] && [ "$bench_rc" = 0 ]
