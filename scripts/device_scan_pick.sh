#!/usr/bin/env bash
# The RT scan cost model's pick on the GPU machine, with a bundle from
# scripts/device_bundle.sh: `raydb calibrate --devices gpu` (the GPU RT scan constants,
# fitted on 2^26 x 4 uniform columns), then the sweep of rt-gpu, gpu-scan and gpu-sieve
# on 10^8 rows of six distributions, 1-4 predicates at five selectivities, under that
# calibration, then scripts/rt_scan_pick_eval.py on the sweep: how many queries the
# model picks the fastest method in, under the new calibration (what the sweep's own
# scan-pick lines say too) and, for comparison, the per-vector model of before fitted
# to the sweep's uniform rows. The sweep's scan-pick lines carry both picks: the pure
# model's (model_pick, margin 0) and the planner's with the measured refinement
# (pick, pick_source; margin MARGIN), replayed on each query's repetitions; both
# counts are printed. Everything goes to $OUT.
# Environment: REPS (5), ROWS (1e8), DATASETS, MARGIN (0.5), SWEEP_TIMEOUT (s, 330),
# CAL_TIMEOUT (s, 120).
# Session 12's sweep with 9 repetitions took about 5 minutes on an H100; with 5 this
# stays under 8 minutes with the calibration.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export RAYDB_CALIBRATION=$OUT/calibration.json
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
start=$(date +%s)
echo "== calibrate" >&2
timeout "${CAL_TIMEOUT:-120}" "$R" calibrate --devices gpu --gpu-log-keys 20,24 --no-views > "$OUT/calibrate.txt" 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> "$OUT/calibrate.txt"
echo "== bench scan sweep" >&2
timeout "${SWEEP_TIMEOUT:-330}" "$R" bench scan --rows "${ROWS:-1e8}" \
  --datasets "${DATASETS:-uniform,zipf1.1,zipf1.3,zipf1.5,normal,small}" --predicates 1,2,3,4 \
  --selectivity 0.01,0.1,0.5,0.9,1 --methods rt-gpu,gpu-scan,gpu-sieve --reps "${REPS:-5}" \
  --adaptive-margin "${MARGIN:-0.5}" --json "$OUT/scan_pick_sweep.jsonl" > "$OUT/scan_pick_sweep.txt" 2> "$OUT/scan_pick_sweep.err"
echo "rc=$? after $(( $(date +%s) - start )) s" >> "$OUT/scan_pick_sweep.txt"
echo "== offline evaluation" >&2
{
  echo "# under this machine's calibration (the new model)"
  python3 "$B/scripts/rt_scan_pick_eval.py" "$OUT/scan_pick_sweep.jsonl" --calibration "$RAYDB_CALIBRATION" --verbose
  echo "# the same with the refinement simulated offline on the medians (margin ${MARGIN:-0.5})"
  python3 "$B/scripts/rt_scan_pick_eval.py" "$OUT/scan_pick_sweep.jsonl" --calibration "$RAYDB_CALIBRATION" \
    --adaptive-margin "${MARGIN:-0.5}"
  echo "# the per-vector model of session 12, fitted to the sweep's uniform rows (in-sample there)"
  python3 "$B/scripts/rt_scan_pick_eval.py" "$OUT/scan_pick_sweep.jsonl" --fit uniform --model old
  echo "# the memory model, fitted to the sweep's uniform rows (in-sample there)"
  python3 "$B/scripts/rt_scan_pick_eval.py" "$OUT/scan_pick_sweep.jsonl" --fit uniform --model new
} > "$OUT/scan_pick_eval.txt" 2>&1
grep "gpu rt scan" "$OUT/calibrate.txt"
grep "model picked\|measured refinement" "$OUT/scan_pick_sweep.err"
grep -v "^  [a-z0-9.]* [0-9] [0-9.]*: measured" "$OUT/scan_pick_eval.txt"
echo "total $(( $(date +%s) - start )) s"
