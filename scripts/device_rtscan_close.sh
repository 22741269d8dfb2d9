#!/usr/bin/env bash
# Issue 16's closing measurements on the GPU machine, with a bundle from
# scripts/device_bundle.sh and the RTScan kit carried beside it (.xfer/kit/rtscan: the
# kit's run.sh and tools with the artifact's src/ and OptiX headers in optix/, fetched,
# never committed). Everything under $OUT; progress on stderr.
#   PART=kit   (a) the RTScan artifact (kits/rtscan/run.sh, BinDex-CUDA off) on uniform
#              and Zipf 1.5 at 10^8 x 3, then `raydb bench scan` on the same data files
#              (rt-gpu, gpu-scan, gpu-sieve, the pick per query), answers checked against
#              brute force and numpy's expected counts; (b) build time and GPU memory of
#              both (the bench's scan-build lines, the kit's summary.csv)
#   PART=pick  (c) `raydb calibrate --devices gpu`, the 120-query sweep (6 datasets x 1-4
#              predicates x 5 selectivities, the planner's measured refinement replayed on
#              the repetitions) and scripts/rt_scan_pick_eval.py on it
#   PART=all   both (default), then (d) scripts/rtscan_targets.py: $OUT/targets.md, each
#              issue-16 target measured against its value
# One call of PART=all: about 2.5 min for the kit (build while the data are generated,
# then two artifact runs of 40-50 s), 1 min for raydb on its files, 2 min for the
# calibration and the sweep. Each step has its own time limit and the whole stays under
# TOTAL_S (500 s), so the summary is always written; if the kit runs long, run
# PART=kit and PART=pick as two calls (the summary of the second call then lacks the
# artifact rows: run rtscan_targets.py on both outputs).
# Environment: PART (all), TOTAL_S (500), KITDIR (the kit; default .xfer/kit/rtscan beside
# the bundle), KIT_DEADLINE (s, 210), KIT_REPS (11), REPS (sweep repetitions, 11: enough
# for every near-tie to settle), MARGIN (default: the rt_scan_adaptive_margin setting),
# ROWS (1e8), DATASETS (the sweep's), KIT_WORK (/tmp/kit).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
PART=${PART:-all}
TOTAL_S=${TOTAL_S:-500}
KIT_WORK=${KIT_WORK:-/tmp/kit}
mkdir -p "$OUT"
T0=$(date +%s)
log() { echo "[close $(( $(date +%s) - T0 ))s] $*" >&2; }
# The seconds a step may take: its own limit, or what is left of TOTAL_S less a reserve
# for the steps after it and the summary.
limit() {
  local left=$(( TOTAL_S - ($(date +%s) - T0) - $2 ))
  [ "$left" -lt 10 ] && left=10
  [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
log "gpu: $(cat "$OUT/gpu.txt"); part $PART"
MARGIN_ARG=()
[ -n "${MARGIN:-}" ] && MARGIN_ARG=(--adaptive-margin "$MARGIN")

if [ "$PART" = all ] || [ "$PART" = kit ]; then
  KITDIR=${KITDIR:-$B/../kit/rtscan}
  if [ -f "$KITDIR/run.sh" ] && [ -f "$KITDIR/src/rtscan.cpp" ]; then
    reserve=$([ "$PART" = all ] && echo 290 || echo 110)
    kl=$(limit "${KIT_DEADLINE:-210}" "$reserve")
    log "(a) RTScan artifact on uniform and zipf1.5 at 1e8 (deadline ${kl}s)"
    DATASETS="uniform zipf1.5" BINDEX=0 DEADLINE_S=$kl timeout $(( kl + 20 )) bash "$KITDIR/run.sh" 1e8 "$KIT_WORK" \
      > "$OUT/kit.txt" 2>&1
    echo "rc=$?" >> "$OUT/kit.txt"
    cp "$KIT_WORK/summary.csv" "$OUT/kit_summary.csv" 2>/dev/null || log "no kit summary.csv (see kit.txt)"
    tail -n 16 "$OUT/kit.txt" >&2
  else
    log "no RTScan kit at $KITDIR (run.sh and src/rtscan.cpp): the artifact is not run"
  fi
  if ls "$KIT_WORK"/data/*_3.dat > /dev/null 2>&1; then
    files=$(ls "$KIT_WORK"/data/*_3.dat | paste -sd,)
    metas=$(for f in ${files//,/ }; do b=$(basename "$f"); echo "$KIT_WORK/data/${b%%_*}.meta.json"; done | paste -sd,)
    bl=$(limit 120 "$([ "$PART" = all ] && echo 180 || echo 20)")
    log "(a, b) raydb bench scan on the kit's files (limit ${bl}s)"
    timeout "$bl" "$R" bench scan --file "$files" --meta "$metas" --methods rt-gpu,gpu-scan,gpu-sieve \
      --reps "${KIT_REPS:-11}" "${MARGIN_ARG[@]}" --json "$OUT/scan_kit.jsonl" > "$OUT/scan_kit.txt" 2> "$OUT/scan_kit.err"
    echo "rc=$?" >> "$OUT/scan_kit.txt"
    cat "$OUT/scan_kit.txt" >&2
    grep "built in\|model picked\|measured refinement" "$OUT/scan_kit.err" >&2
  else
    log "no kit data under $KIT_WORK/data: raydb is not run on the artifact's files"
  fi
fi

if [ "$PART" = all ] || [ "$PART" = pick ]; then
  export RAYDB_CALIBRATION=$OUT/calibration.json
  cl=$(limit 60 130)
  log "(c) raydb calibrate --devices gpu (limit ${cl}s)"
  timeout "$cl" "$R" calibrate --devices gpu --gpu-log-keys 20,24 --no-views > "$OUT/calibrate.txt" 2>&1
  echo "rc=$?" >> "$OUT/calibrate.txt"
  grep "gpu rt scan\|read bandwidth" "$OUT/calibrate.txt" >&2
  sl=$(limit 240 25)
  log "(c) the sweep, reps ${REPS:-11} (limit ${sl}s)"
  timeout "$sl" "$R" bench scan --rows "${ROWS:-1e8}" \
    --datasets "${DATASETS:-uniform,zipf1.1,zipf1.3,zipf1.5,normal,small}" --predicates 1,2,3,4 \
    --selectivity 0.01,0.1,0.5,0.9,1 --methods rt-gpu,gpu-scan,gpu-sieve --reps "${REPS:-11}" "${MARGIN_ARG[@]}" \
    --json "$OUT/scan_pick_sweep.jsonl" > "$OUT/scan_pick_sweep.txt" 2> "$OUT/scan_pick_sweep.err"
  echo "rc=$?" >> "$OUT/scan_pick_sweep.txt"
  grep "model picked\|measured refinement" "$OUT/scan_pick_sweep.err" >&2
  log "(c) the pick evaluation"
  {
    echo "# under this call's calibration (the engine's formula), the model alone"
    python3 "$B/scripts/rt_scan_pick_eval.py" "$OUT/scan_pick_sweep.jsonl" --calibration "$RAYDB_CALIBRATION" --verbose
    echo "# the same with the refinement simulated on the medians (margin 0.5)"
    python3 "$B/scripts/rt_scan_pick_eval.py" "$OUT/scan_pick_sweep.jsonl" --calibration "$RAYDB_CALIBRATION" \
      --adaptive-margin 0.5
    echo "# the memory model fitted to the sweep's uniform rows (in-sample there)"
    python3 "$B/scripts/rt_scan_pick_eval.py" "$OUT/scan_pick_sweep.jsonl" --fit uniform --model new
  } > "$OUT/scan_pick_eval.txt" 2>&1
  grep -v "^  [a-z0-9.]* [0-9] [0-9.]*: measured" "$OUT/scan_pick_eval.txt" >&2
fi

log "(d) the targets"
python3 "$B/scripts/rtscan_targets.py" --kit-summary "$OUT/kit_summary.csv" --kit-bench "$OUT/scan_kit.jsonl" \
  --sweep "$OUT/scan_pick_sweep.jsonl" --calibrate "$OUT/calibrate.txt" --out "$OUT/targets.md" 2> "$OUT/targets.err"
rc=$?
cat "$OUT/targets.err" >&2
log "done, rc=$rc (targets in $OUT/targets.md)"
head -n 14 "$OUT/targets.md" 2>/dev/null
exit $rc
