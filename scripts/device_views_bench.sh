#!/usr/bin/env bash
# RT views on the GPU machine with a bundle from scripts/device_bundle.sh: for each SF
# in SFS, generate SSB and run `raydb bench views`: it creates the views `raydb advise
# rt-views` proposes for the 13 queries, reports each view's build time and memory
# (bytes per row: arrays + BVH), and times the 13 queries through the views against
# the CUDA star path (answers checked equal; also with RTCUDB's per-hit atomics). Then
# `raydb calibrate --views-only` on the same data fits the view cost constants (stored
# in $OUT/calibration_sfN.json) and prints which path `auto` would take per query.
# Output (tables, stderr) and JSON lines go to $OUT; with matplotlib the PNGs of
# scripts/plot_bench_views.py too. Exits non-zero when an answer through a view
# differed from the star path or a step failed.
# Environment: SFS ("20"), REPS (3), TIMEOUT (s for the bench, 240), CAL_TIMEOUT (s, 120), STAR (cuda),
# CALIBRATE (1), VIEW_DB (an SSB database of SF $SFS generated earlier, used as it is and
# kept; default: generate one per SF and delete it). The defaults keep SF 20 within one
# 8-minute call.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
W=$(mktemp -d)
status=0
for sf in ${SFS:-20}; do
  db=${VIEW_DB:-$W/sf$sf}
  {
    echo "== SF $sf"
    [ -n "${VIEW_DB:-}" ] || "$R" gen ssb --sf "$sf" --db "$db" 2>&1 | tail -1
  } >> "$OUT/views.txt" 2>&1
  timeout "${TIMEOUT:-240}" "$R" bench views --db "$db" --star "${STAR:-cuda}" --reps "${REPS:-3}" \
    --json "$OUT/views_sf$sf.jsonl" >> "$OUT/views.txt" 2>&1
  rc=$?
  echo "bench views rc=$rc" >> "$OUT/views.txt"
  [ $rc -eq 0 ] || status=1
  if [ "${CALIBRATE:-1}" = 1 ]; then
    RAYDB_CALIBRATION="$OUT/calibration_sf$sf.json" timeout "${CAL_TIMEOUT:-120}" "$R" calibrate --views-only \
      --view-db "$db" --reps "${REPS:-3}" >> "$OUT/views.txt" 2>&1
    rc=$?
    echo "calibrate rc=$rc" >> "$OUT/views.txt"
    [ $rc -eq 0 ] || status=1
  fi
  [ -n "${VIEW_DB:-}" ] || rm -rf "$db"
done
python3 "$B/scripts/plot_bench_views.py" "$OUT"/views_sf*.jsonl --out "$OUT/plots" >> "$OUT/views.txt" 2>&1 || true
# Summary: bytes per row per view (target <= 96), view / star per query (target <= 20x),
# per-hit atomics over per-ray partials; wrong answers fail the script.
python3 - "$OUT"/views_sf*.jsonl <<'PY' | tee -a "$OUT/views.txt" || status=1
import json, sys
bad = 0
for path in sys.argv[1:]:
    recs = [json.loads(l) for l in open(path) if l.strip()]
    print("==", path)
    for r in recs:
        if r.get("record") == "view":
            b = r.get("view_bytes_per_row", r.get("bytes_per_row", 0))
            print(f"view {r['view']:<12} rows {r['rows']:>10} primitives {r.get('primitives', 0):>10} tracer {r['tracer']}: "
                  f"arrays {r.get('array_bytes_per_row', 0):.2f} + BVH {r.get('bvh_bytes_per_row', 0):.2f} = {b:.2f} B/row "
                  f"({'met' if b <= 96 else 'NOT met'} <= 96), BVH build {r['bvh_ms']:.0f} ms "
                  f"({'met' if r['bvh_ms'] <= 1000 else 'NOT met'} <= 1 s)")
    for r in recs:
        if r.get("record") == "query":
            print(f"{r['query']:<5} {r['view'] or '(star)':<12} star {r['star_ms']:.3f} ms view {r['view_ms']:.3f} ms "
                  f"= {r['ratio']:.2f}x ({'met' if r['ratio'] <= 20 else 'NOT met'} <= 20x); per-hit atomics "
                  f"{r.get('view_per_hit_ms', 0):.3f} ms = {r.get('per_hit_over_per_ray', 0):.2f}x per-ray; "
                  f"{r['rays']} rays {r['hits']} hits {r['accumulator_flushes']} flushes; verified {r['verified']}")
            bad += not r["verified"]
if bad:
    print(f"WRONG ANSWERS: {bad} queries through a view differed from the star path")
    sys.exit(1)
PY
tail -n 80 "$OUT/views.txt"
exit $status
