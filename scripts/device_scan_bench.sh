#!/usr/bin/env bash
# RT scan benchmark on the GPU machine with a bundle from scripts/device_bundle.sh:
# `raydb bench scan` on data files in the RTScan artifact's layout (KIT_DATA: a folder
# with <ds>_<N>_3.dat and <ds>.meta.json, e.g. what the RTScan kit leaves, so both run
# on the same bytes in the same call), then a sweep over generated data. JSON lines
# and the printed tables go to $OUT.
# Environment: KIT_DATA (unset: skip), KIT_METHODS (rt-gpu,gpu-scan,gpu-sieve),
# SWEEP (1), ROWS (1e8), DATASETS (uniform,zipf1.1,zipf1.3,zipf1.5,normal,small),
# PREDS (1,2,3,4), SELS (0.01,0.1,0.5,0.9,1), METHODS (rt-gpu,gpu-scan,gpu-sieve),
# REPS (3), SWEEP_TIMEOUT (s, 300), EXTRA (more bench scan arguments), RAYDB_BIN (another
# raydb binary, e.g. a baseline build), TAG (output file prefix, default scan).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
R=${RAYDB_BIN:-$R}
TAG=${TAG:-scan}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
REPS=${REPS:-3}
if [ -n "${KIT_DATA:-}" ]; then
  files=$(ls "$KIT_DATA"/*_3.dat | paste -sd,)
  metas=$(for f in ${files//,/ }; do b=$(basename "$f"); echo "$KIT_DATA/${b%%_*}.meta.json"; done | paste -sd,)
  echo "== bench scan on $files" >&2
  "$R" bench scan --file "$files" --meta "$metas" --methods "${KIT_METHODS:-rt-gpu,gpu-scan,gpu-sieve}" \
    --reps "$REPS" --json "$OUT/${TAG}_kit.jsonl" ${EXTRA:-} > "$OUT/${TAG}_kit.txt" 2> "$OUT/${TAG}_kit.err"
  echo "rc=$?" >> "$OUT/${TAG}_kit.txt"
fi
if [ "${SWEEP:-1}" = 1 ]; then
  echo "== bench scan sweep" >&2
  timeout "${SWEEP_TIMEOUT:-300}" "$R" bench scan --rows "${ROWS:-1e8}" \
    --datasets "${DATASETS:-uniform,zipf1.1,zipf1.3,zipf1.5,normal,small}" --predicates "${PREDS:-1,2,3,4}" \
    --selectivity "${SELS:-0.01,0.1,0.5,0.9,1}" --methods "${METHODS:-rt-gpu,gpu-scan,gpu-sieve}" --reps "$REPS" \
    --json "$OUT/${TAG}_sweep.jsonl" ${EXTRA:-} > "$OUT/${TAG}_sweep.txt" 2> "$OUT/${TAG}_sweep.err"
  echo "rc=$?" >> "$OUT/${TAG}_sweep.txt"
fi
tail -n 40 "$OUT"/${TAG}_*.txt
