#!/usr/bin/env bash
# RT views on the GPU machine with a bundle from scripts/device_bundle.sh: for each SF
# in SFS, generate SSB, create the views `raydb advise rt-views` proposes for the 13
# queries, then time the 13 queries through the views (--backend rt) against the CUDA
# star path (--backend cuda) in one `raydb bench query` run (answers checked equal).
# Stderr (view build time and memory) and JSON lines go to $OUT.
# Environment: SFS ("1 10"), REPS (5), BACKENDS (cuda,rt), TIMEOUT (s per SF, 400).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
W=$(mktemp -d)
cat "$B"/ssb/queries/q*.sql > "$W/workload.sql"
args=()
for f in "$B"/ssb/queries/q*.sql; do
  n=$(basename "$f" .sql)
  args+=(-q "$n=$(tr '\n' ' ' < "$f" | sed 's/;\s*$//')")
done
for sf in ${SFS:-1 10}; do
  db=$W/sf$sf
  {
    echo "== SF $sf"
    "$R" gen ssb --sf "$sf" --db "$db" 2>&1 | tail -1
    "$R" advise rt-views --db "$db" -f "$W/workload.sql" > "$W/views$sf.sql" 2>&1
    grep -- '--' "$W/views$sf.sql"
    "$R" query --db "$db" -f "$W/views$sf.sql" 2>&1 | tail -8
  } >> "$OUT/views.txt" 2>&1
  timeout "${TIMEOUT:-400}" "$R" bench query --db "$db" "${args[@]}" --backends "${BACKENDS:-cuda,rt}" \
    --reps "${REPS:-5}" --json "$OUT/views_sf$sf.jsonl" >> "$OUT/views.txt" 2>&1
  echo "rc=$?" >> "$OUT/views.txt"
  rm -rf "$db"
done
tail -n 60 "$OUT/views.txt"
