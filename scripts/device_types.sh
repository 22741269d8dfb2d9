#!/usr/bin/env bash
# BOOLEAN and TIMESTAMP on the GPU machine: the CUDA backend declines queries that read
# BOOLEAN columns or TIMESTAMP values, so `auto` must give the CPU's answer and a forced
# `--backend cuda` must fail with one line naming the reason; queries without them must
# still run on the GPU. Build and pack here (CUDA build in build/), run there (seconds):
#   bash scripts/device_bundle.sh
#   bash .xfer/bundle/scripts/device_types.sh        # on the GPU machine
# Exits non-zero on a wrong answer or a missing decline.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
fail=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
DB=/tmp/types_db
rm -rf "$DB"
"$R" query --create --db "$DB" "CREATE TABLE t (id INTEGER NOT NULL, flag BOOLEAN, ts TIMESTAMP, v INTEGER);
  INSERT INTO t SELECT 1, true, TIMESTAMP '1969-12-31 23:59:59.5', 10;
  INSERT INTO t VALUES (2, false, '2024-02-29 12:00:00', 20), (3, NULL, NULL, 30), (4, true, '9999-12-31 23:59:59.999999', 40)" \
  > /dev/null || { echo "FAIL: create"; exit 1; }
declined() {  # SQL, expected reason
  "$R" query "$DB" "$1" --backend cpu --format csv > "$OUT/cpu.csv" 2>&1 || { echo "FAIL: cpu: $1"; fail=1; }
  "$R" query "$DB" "$1" --backend auto --format csv > "$OUT/auto.csv" 2>&1 || { echo "FAIL: auto: $1"; fail=1; }
  cmp -s "$OUT/cpu.csv" "$OUT/auto.csv" || { echo "FAIL: auto differs from cpu: $1"; fail=1; }
  "$R" query "$DB" "$1" --backend cuda > /dev/null 2> "$OUT/cuda.err"
  local rc=$? lines
  lines=$(wc -l < "$OUT/cuda.err")
  echo "$1 -> cuda rc $rc: $(cat "$OUT/cuda.err")"
  if [ "$rc" = 0 ] || [ "$lines" != 1 ] || ! grep -q "$2" "$OUT/cuda.err"; then echo "FAIL: no one-line decline"; fail=1; fi
}
declined "SELECT id FROM t WHERE flag ORDER BY id" "BOOLEAN columns"
declined "SELECT count(*), max(ts) FROM t" "TIMESTAMP"
declined "SELECT id, ts + INTERVAL '1' HOUR FROM t ORDER BY id" "TIMESTAMP"
declined "SELECT count(*) FROM t WHERE v > 15 AND TIMESTAMP '2000-01-01 00:00:00' IS NOT NULL" "TIMESTAMP"
echo "== a query of neither type still runs on the GPU"
"$R" query "$DB" "SELECT sum(v) FROM t WHERE v > 15" --backend cuda --format csv > "$OUT/plain.csv" 2>&1
cat "$OUT/plain.csv"
grep -qx "90" "$OUT/plain.csv" || { echo "FAIL: plain query on cuda"; fail=1; }
[ "$fail" = 0 ] && echo "device_types: OK" || echo "device_types: FAILED"
exit "$fail"
