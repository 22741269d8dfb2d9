#!/usr/bin/env bash
# One call on the GPU machine comparing two builds on the same card: BEFORE (a bundle
# of an older commit, scripts/device_bundle.sh with XFER_DIR=.xfer/base) and AFTER
# (.xfer/bundle). SSB at SF $SF on the CUDA backend, alternating the two binaries
# ($ROUNDS rounds each, data generated once by AFTER), and optionally (INDEX=1) the RT
# index's six workloads with each binary's model picks. Logs and JSON go to $OUT.
#   run(command="bash .xfer/bundle/scripts/device_before_after.sh", carry=[".xfer/bundle", ".xfer/base"])
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
OUT=${OUT:-/tmp/out}
SF=${SF:-20}
ROUNDS=${ROUNDS:-2}
mkdir -p "$OUT"
run_with() {  # which (bundle|base), args...
  local b=$ROOT/.xfer/$1; shift
  LD_LIBRARY_PATH=/tmp/raydb-lib "$b/build/raydb" "$@"
}
# AFTER's bundle unpacked (binaries, libraries, the test binaries' source path); both
# binaries use its libraries (the same Debian ones). BEFORE's raydb comes gzipped to stay
# under the transfer limit.
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
[ -f "$ROOT/.xfer/base/build/raydb.gz" ] && gunzip -f "$ROOT/.xfer/base/build/raydb.gz" && chmod +x "$ROOT/.xfer/base/build/raydb"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
# TESTS=1: AFTER's GPU test binaries first (device_unpack.sh pointed the source path they
# embed at the bundle).
if [ "${TESTS:-0}" = 1 ]; then
  for t in test_rt_optix test_gpu_orderstat test_gpu; do
    [ -f "$SRC/build/tests/$t" ] || continue
    LD_LIBRARY_PATH=/tmp/raydb-lib timeout "${TEST_TIMEOUT:-240}" "$SRC/build/tests/$t" > "$OUT/$t.txt" 2>&1
    echo "rc=$?" >> "$OUT/$t.txt"
  done
fi
export RAYDB_CALIBRATION=/tmp/cfg/calibration.json
mkdir -p /tmp/cfg
[ "${INDEX:-0}" = 1 ] && run_with bundle calibrate > "$OUT/calibrate.txt" 2>&1
[ "${SSB:-1}" = 1 ] || ROUNDS=0
[ "$ROUNDS" -gt 0 ] && run_with bundle gen ssb --sf "$SF" --db /tmp/ssb$SF > "$OUT/gen.txt" 2>&1
for r in $(seq "$ROUNDS"); do
  for w in base bundle; do
    timeout 200 bash -c "$(declare -f run_with); ROOT=$ROOT run_with $w bench ssb --backend cuda --db /tmp/ssb$SF --reps 10 \
      --json $OUT/ssb_${w}_$r.json" > "$OUT/ssb_${w}_$r.txt" 2>&1
    echo "rc=$?" >> "$OUT/ssb_${w}_$r.txt"
  done
done
if [ "${INDEX:-0}" = 1 ]; then
  for w in base bundle; do
    timeout "${INDEX_TIMEOUT:-200}" bash -c "$(declare -f run_with); ROOT=$ROOT run_with $w bench index --tracer optix \
      --methods rt-gpu,sa-gpu,hash-gpu --log-keys 26 --log-lookups 27 --range-hits 0,16 --bucket 0 \
      --sorted-probes 0,1,2 --reps ${INDEX_REPS:-1} --json $OUT/index_$w.json" > "$OUT/index_$w.txt" 2>&1
    echo "rc=$?" >> "$OUT/index_$w.txt"
  done
fi
echo "== SUMMARY"
cat "$OUT/gpu.txt"
for t in test_rt_optix test_gpu_orderstat test_gpu; do
  [ -f "$OUT/$t.txt" ] || continue
  echo "-- $t: $(grep -E '^\[  PASSED|^\[  FAILED|^\[  SKIPPED' "$OUT/$t.txt" | tr '\n' ' ') $(tail -1 "$OUT/$t.txt")"
  grep -E '^\[  FAILED  \] [A-Za-z]' "$OUT/$t.txt" | head -12
done
for r in $(seq "$ROUNDS"); do
  for w in base bundle; do
    echo "-- ssb $w round $r"; tail -16 "$OUT/ssb_${w}_$r.txt"
  done
done
for w in base bundle; do
  [ -f "$OUT/index_$w.txt" ] && { echo "-- index $w"; grep -E "^auto|pick|model|rc=" "$OUT/index_$w.txt" | head -20; }
done
true
