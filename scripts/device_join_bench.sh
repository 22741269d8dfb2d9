#!/usr/bin/env bash
# The general CUDA path's join, hash table (default) vs sort-based (RAYDB_CUDA_JOIN=sort),
# at SSB SF $SF on the device through `raydb bench query` (--backends cuda). Run after
# scripts/device_run.sh in the same call (it unpacks the libraries and finds raydb):
#   bash .xfer/X/scripts/device_run.sh; bash .xfer/X/scripts/device_join_bench.sh
# Generates /tmp/ssb$SF when absent. Writes bench_join_{sort,hash}.{json,txt} to $OUT.
# Queries: shapes the star kernels reject (a multi-key self-join of lineorder, a
# non-aggregate join with ORDER BY ... LIMIT, a join whose build side has ~160 rows per key).
set -uo pipefail
B=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-/tmp/out}
SF=${SF:-20}
export LD_LIBRARY_PATH=/tmp/raydb-lib:${LD_LIBRARY_PATH:-}
export RAYDB_CALIBRATION=/tmp/cfg/raydb/calibration.json
R=$B/build/raydb
D=/tmp/ssb$SF
[ -f "$D/manifest.json" ] || "$R" gen ssb --sf "$SF" --db "$D" > "$OUT/gen.txt" 2>&1
QUERIES=(
  "selfjoin2=select count(*), sum(a.lo_revenue - b.lo_supplycost) from lineorder a join lineorder b on a.lo_orderkey = b.lo_orderkey and a.lo_linenumber = b.lo_linenumber where a.lo_discount = 1"
  "topn=select lo_orderkey, lo_linenumber, c_name, lo_revenue from lineorder, customer where lo_custkey = c_custkey and c_region = 'ASIA' and lo_discount = 1 order by lo_revenue desc, lo_orderkey, lo_linenumber limit 10"
  "citydup=select count(*), sum(lo_quantity) from lineorder, customer, supplier where lo_custkey = c_custkey and c_city = s_city and lo_orderdate between 19970101 and 19970107"
)
QARGS=()
for q in "${QUERIES[@]}"; do QARGS+=(-q "$q"); done
for mode in sort hash; do
  if [ "$mode" = sort ]; then export RAYDB_CUDA_JOIN=sort; else unset RAYDB_CUDA_JOIN; fi
  timeout "${JOIN_TIMEOUT:-150}" "$R" bench query --db "$D" --backends cuda --reps "${JOIN_REPS:-5}" \
    "${QARGS[@]}" \
    --json "$OUT/bench_join_$mode.json" > "$OUT/bench_join_$mode.txt" 2>&1
  echo "rc=$?" >> "$OUT/bench_join_$mode.txt"
done
unset RAYDB_CUDA_JOIN
# The same answers from both joins (each query once more per mode, results diffed).
for q in "${QUERIES[@]}"; do
  RAYDB_CUDA_JOIN=sort "$R" query --db "$D" --backend cuda "${q#*=}" > "$OUT/q_sort.txt" 2>&1
  "$R" query --db "$D" --backend cuda "${q#*=}" > "$OUT/q_hash.txt" 2>&1
  if cmp -s "$OUT/q_sort.txt" "$OUT/q_hash.txt"; then echo "same result hash/sort: ${q%%=*}"; else echo "DIFFERENT result hash/sort: ${q%%=*}"; fi
  cat "$OUT/q_hash.txt" >> "$OUT/join_results.txt"
done >> "$OUT/join_same.txt"
for mode in sort hash; do echo "-- join bench SF $SF, RAYDB_CUDA_JOIN=$mode"; cut -c1-300 "$OUT/bench_join_$mode.txt"; done
cat "$OUT/join_same.txt"
