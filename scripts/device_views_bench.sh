#!/usr/bin/env bash
# RT views on the GPU machine with a bundle from scripts/device_bundle.sh: for each SF
# in SFS, generate SSB and run `raydb bench views`: it creates the views `raydb advise
# rt-views` proposes for the 13 queries, reports each view's build time and memory,
# and times the 13 queries through the views against the CUDA star path (answers
# checked equal). Output (tables, stderr) and JSON lines go to $OUT; with matplotlib
# the PNGs of scripts/plot_bench_views.py too.
# Environment: SFS ("1 10"), REPS (5), TIMEOUT (s per SF, 400), STAR (cuda).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
W=$(mktemp -d)
for sf in ${SFS:-1 10}; do
  db=$W/sf$sf
  {
    echo "== SF $sf"
    "$R" gen ssb --sf "$sf" --db "$db" 2>&1 | tail -1
  } >> "$OUT/views.txt" 2>&1
  timeout "${TIMEOUT:-400}" "$R" bench views --db "$db" --star "${STAR:-cuda}" --reps "${REPS:-5}" \
    --json "$OUT/views_sf$sf.jsonl" >> "$OUT/views.txt" 2>&1
  echo "rc=$?" >> "$OUT/views.txt"
  rm -rf "$db"
done
python3 "$B/scripts/plot_bench_views.py" "$OUT"/views_sf*.jsonl --out "$OUT/plots" >> "$OUT/views.txt" 2>&1 || true
tail -n 60 "$OUT/views.txt"
