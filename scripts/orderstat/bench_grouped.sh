#!/usr/bin/env bash
# Grouped order statistics over SSB on the CPU backend, per cpu_order_stats mode
# (collect: the (group, value) pairs path; auto: in place, histograms or segments by
# group count; histograms; segments), then DuckDB on the same data and thread count.
#
#   build-cpu/raydb gen ssb --sf 1 --db /tmp/ssb1 --tbl /tmp/ssb1-tbl
#   scripts/orderstat/bench_grouped.sh build-cpu/raydb /tmp/ssb1 /tmp/ssb1-tbl [reps] [threads]
set -euo pipefail
raydb=$1 db=$2 tbl=$3 reps=${4:-5} threads=${5:-2}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
queries=(
  "few7=select d_year, median(lo_revenue) from lineorder, date where lo_orderdate = d_datekey group by d_year order by d_year"
  "where7=select d_year, quantile_disc(lo_revenue, 0.9), median(lo_supplycost) from lineorder, date where lo_orderdate = d_datekey and lo_discount between 1 and 3 group by d_year order by d_year"
  "mid84=select d_yearmonthnum, median(lo_revenue) from lineorder, date where lo_orderdate = d_datekey group by d_yearmonthnum order by d_yearmonthnum"
  "many20k=select lo_custkey, median(lo_revenue) from lineorder group by lo_custkey order by lo_custkey"
  "none=select median(lo_revenue) from lineorder"
  "sum7=select d_year, sum(lo_revenue) from lineorder, date where lo_orderdate = d_datekey group by d_year order by d_year"
)
args=()
for q in "${queries[@]}"; do args+=(-q "$q"); done
for mode in collect auto histograms segments; do
  echo "== raydb, cpu_order_stats=$mode, $threads threads"
  OMP_NUM_THREADS=$threads RAYDB_CPU_ORDER_STATS=$mode "$raydb" bench query --db "$db" --backends cpu \
    --reps "$reps" "${args[@]}" | awk 'NR > 1 { printf "%-10s median %9.2f ms\n", $1, $5 }'
done
echo "== DuckDB"
python3 "$here/duckdb_grouped.py" "$tbl" --threads "$threads" --reps "$reps" "${args[@]}"
