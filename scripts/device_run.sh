#!/usr/bin/env bash
# One call on the GPU machine with a bundle from scripts/device_bundle.sh: device
# info and calibration, the GPU test suites (CUDA backend vs CPU; RT index on OptiX
# vs brute force), SSB SF 20 on the CUDA backend, and the RT index benchmark on
# OptiX. Logs and JSON go to $OUT; a summary prints last.
# Switches (default 1): TEST_GPU (test_gpu), TEST_RT (test_rt_optix), SSB_BENCH (gen +
# bench ssb), INDEX_BENCH (bench index: METHODS, LOG_KEYS, LOG_LOOKUPS, RANGE_HITS,
# BUCKETS, SORTED, REPS, INDEX_TIMEOUT), INDEX_SWEEP (default 0: a second bench index call over
# SWEEP_ARGS, timeout SWEEP_TIMEOUT, into bench_index_sweep.json), SWEEPS (default empty:
# more bench index calls, their argument lists separated by ';', each with timeout
# SWEEP_TIMEOUT, into bench_index_sweep<i>.{json,txt}), QUERY_BENCH (default 0:
# SQL index queries at SF $SF through `raydb bench query`, lineorder/customer indexes
# created first; QUERY_REPS, QUERY_TIMEOUT; into bench_query.json), GROUP_BENCH (default 0:
# general-path GROUP BY queries at SF $SF that the star kernels reject, once per
# RAYDB_CUDA_GROUP mode (hash: GROUP_HASH_BACKENDS, default cuda,cpu so the CPU
# verifies; sort: GROUP_BACKENDS, default cuda); GROUP_REPS, GROUP_TIMEOUT; into
# bench_group_{hash,sort}.json; GROUP_CHECK=1 adds lines and md5 of each query's CSV per mode and on the CPU).
# SANITIZE (default 0): compute-sanitizer memcheck and racecheck over test_gpu and
# test_rt_optix (scripts/device_sanitize.sh; SAN_FILTER, SAN_RT_FILTER, SAN_TOOLS,
# SAN_TIMEOUT), its summary lines last.
# `raydb calibrate` (CALIBRATE_ARGS) runs first and every later command reads its
# calibration.json (RAYDB_CALIBRATION), so bench index reports the calibrated model's picks.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
SF=${SF:-20}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
"$R" info > "$OUT/info.txt" 2>&1
export RAYDB_CALIBRATION=/tmp/cfg/raydb/calibration.json
rm -f "$RAYDB_CALIBRATION"
t0=$(date +%s.%N)
# shellcheck disable=SC2086
"$R" calibrate ${CALIBRATE_ARGS:-} > "$OUT/calibrate.txt" 2>&1
echo "rc=$? wall $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s" >> "$OUT/calibrate.txt"
cp "$RAYDB_CALIBRATION" "$OUT/calibration.json" 2>/dev/null
# Switches for shorter calls (defaults run everything): TEST_RT=0 (or RT_OPTIX_TESTS=0),
# TEST_GPU=0, SSB_BENCH=0, INDEX_BENCH=0; GPU_TEST_FILTER narrows test_gpu (a gtest filter).
if [ "${TEST_RT:-${RT_OPTIX_TESTS:-1}}" = 1 ]; then
  timeout "${TEST_RT_TIMEOUT:-200}" "$T/test_rt_optix" > "$OUT/test_rt_optix.txt" 2>&1; echo "rc=$?" >> "$OUT/test_rt_optix.txt"
fi
if [ "${TEST_GPU:-1}" = 1 ]; then
  timeout "${GPU_TEST_TIMEOUT:-240}" "$T/test_gpu" --gtest_filter="${GPU_TEST_FILTER:-*}" > "$OUT/test_gpu.txt" 2>&1
  echo "rc=$?" >> "$OUT/test_gpu.txt"
fi
if [ "${SSB_BENCH:-1}" = 1 ]; then
  "$R" gen ssb --sf "$SF" --db /tmp/ssb$SF > "$OUT/gen.txt" 2>&1
  timeout 200 "$R" bench ssb --backend cuda --db /tmp/ssb$SF --reps 10 --json "$OUT/bench_ssb_cuda.json" > "$OUT/bench_ssb.txt" 2>&1
  echo "rc=$?" >> "$OUT/bench_ssb.txt"
fi
if [ "${INDEX_BENCH:-1}" = 1 ]; then
  timeout "${INDEX_TIMEOUT:-240}" "$R" bench index --tracer optix --methods "${METHODS:-rt-gpu,sa-gpu,hash-gpu}" \
    --log-keys "${LOG_KEYS:-26}" --log-lookups "${LOG_LOOKUPS:-27}" --range-hits "${RANGE_HITS:-0,16}" \
    --bucket "${BUCKETS:-0}" --sorted-probes "${SORTED:-0,1,2}" --reps "${REPS:-3}" --json "$OUT/bench_index.json" > "$OUT/bench_index.txt" 2>&1
  echo "rc=$?" >> "$OUT/bench_index.txt"
fi
if [ "${INDEX_SWEEP:-0}" = 1 ]; then
  # shellcheck disable=SC2086
  timeout "${SWEEP_TIMEOUT:-120}" "$R" bench index --tracer optix ${SWEEP_ARGS:---methods rt-gpu,sa-gpu,hash-gpu} \
    --json "$OUT/bench_index_sweep.json" > "$OUT/bench_index_sweep.txt" 2>&1
  echo "rc=$?" >> "$OUT/bench_index_sweep.txt"
fi
if [ -n "${SWEEPS:-}" ]; then
  i=0
  IFS=';' read -ra sweep_list <<< "$SWEEPS"
  for args in "${sweep_list[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    timeout "${SWEEP_TIMEOUT:-120}" "$R" bench index --tracer optix $args --json "$OUT/bench_index_sweep$i.json" \
      > "$OUT/bench_index_sweep$i.txt" 2>&1
    echo "rc=$? args=$args" >> "$OUT/bench_index_sweep$i.txt"
  done
fi
if [ "${QUERY_BENCH:-0}" = 1 ]; then
  [ -f /tmp/ssb$SF/manifest.json ] || "$R" gen ssb --sf "$SF" --db /tmp/ssb$SF > "$OUT/gen.txt" 2>&1
  D=/tmp/ssb$SF
  {
    for ix in "lo_ok_hash on lineorder (lo_orderkey) using hash" "lo_ok_sorted on lineorder (lo_orderkey) using sorted" \
              "lo_ok_rt on lineorder (lo_orderkey) using rt" \
              "c_ck_hash on customer (c_custkey) using hash" "c_ck_rt on customer (c_custkey) using rt"; do
      s0=$(date +%s%N); "$R" query --db "$D" "create index $ix" 2>&1; echo "  ($(( ($(date +%s%N) - s0) / 1000000 )) ms: create index $ix)"
    done
  } > "$OUT/query_indexes.txt" 2>&1
  timeout "${QUERY_TIMEOUT:-240}" "$R" bench query --db "$D" --reps "${QUERY_REPS:-10}" \
    --backends "${QUERY_BACKENDS:-cuda,rt,cpu}" --index-paths "${QUERY_PATHS:-off,cost,force}" \
    -q "point=select count(*), sum(lo_revenue) from lineorder where lo_orderkey = 12345678" \
    -q "in=select count(*), sum(lo_revenue) from lineorder where lo_orderkey in (7, 1234567, 23456789, 29999999, 55555, 98765432)" \
    -q "range=select count(*), sum(lo_revenue) from lineorder where lo_orderkey between 50000000 and 50000100" \
    -q "join=select c_nation, sum(lo_revenue) from lineorder, customer where lo_custkey = c_custkey and lo_orderkey between 50000000 and 50001000 group by c_nation order by c_nation" \
    -q "wide=select count(*), sum(lo_revenue) from lineorder where lo_orderkey between 1 and 40000000" \
    --json "$OUT/bench_query.json" > "$OUT/bench_query.txt" 2>&1
  echo "rc=$?" >> "$OUT/bench_query.txt"
fi
if [ "${GROUP_BENCH:-0}" = 1 ]; then
  [ -f /tmp/ssb$SF/manifest.json ] || "$R" gen ssb --sf "$SF" --db /tmp/ssb$SF > "$OUT/gen.txt" 2>&1
  group_queries=(
    "mod=select lo_orderkey % 1000 as k, count(*), sum(lo_revenue), max(lo_discount) from lineorder group by 1 order by 1"
    "str=select case when lo_quantity < 25 then lo_shipmode else 'ZZ' end as m, lo_tax, count(*), sum(lo_extendedprice) from lineorder group by 1, 2 order by 1, 2"
    "cust=select lo_custkey, count(*), sum(case when lo_discount > 8 then null else lo_revenue end), min(lo_quantity) from lineorder group by lo_custkey order by 1"
    "dsum=select lo_orderkey % 1000 as k, count(*), sum(cast(lo_revenue as double) / 7) from lineorder group by 1 order by 1"
  )
  qargs=()
  for q in "${group_queries[@]}"; do qargs+=(-q "$q"); done
  for mode in hash sort; do
    backends=${GROUP_BACKENDS:-cuda}; [ "$mode" = hash ] && backends=${GROUP_HASH_BACKENDS:-cuda,cpu}
    RAYDB_CUDA_GROUP=$mode timeout "${GROUP_TIMEOUT:-100}" stdbuf -oL "$R" bench query --db /tmp/ssb$SF \
      --reps "${GROUP_REPS:-5}" --backends "$backends" --index-paths off "${qargs[@]}" \
      --json "$OUT/bench_group_$mode.json" > "$OUT/bench_group_$mode.txt" 2>&1
    echo "rc=$? RAYDB_CUDA_GROUP=$mode" >> "$OUT/bench_group_$mode.txt"
  done
  # GROUP_CHECK=1: each query's CSV under both modes and on the CPU (one process each), by checksum.
  if [ "${GROUP_CHECK:-0}" = 1 ]; then
    for q in "${group_queries[@]}"; do
      line="${q%%=*}:"
      for mode in hash sort cpu; do
        backend=cuda; [ "$mode" = cpu ] && backend=cpu
        csv=$(RAYDB_CUDA_GROUP=${mode/cpu/hash} timeout 60 "$R" query --db /tmp/ssb$SF --backend $backend --format csv "${q#*=}" 2>&1)
        line+=" $mode $(printf '%s\n' "$csv" | wc -l) lines $(printf '%s\n' "$csv" | md5sum | cut -c1-12);"
      done
      echo "$line"
    done > "$OUT/group_check.txt"
  fi
fi
if [ "${SANITIZE:-0}" = 1 ]; then
  OUT="$OUT" TESTS="$T" bash "$B/scripts/device_sanitize.sh" > "$OUT/sanitize.txt" 2>&1
  echo "rc=$?" >> "$OUT/sanitize.txt"
fi
echo "== SUMMARY"
cat "$OUT/gpu.txt" "$OUT/info.txt" "$OUT/calibrate.txt"
for t in test_rt_optix test_gpu; do
  [ -f "$OUT/$t.txt" ] || continue
  echo "-- $t: $(grep -E '^\[  PASSED|^\[  FAILED|^\[  SKIPPED' "$OUT/$t.txt" | tr '\n' ' ') $(tail -1 "$OUT/$t.txt")"
  grep -E '^\[  FAILED  \] [A-Za-z]' "$OUT/$t.txt" | head -5
done
[ -f "$OUT/sanitize.txt" ] && { echo "-- compute-sanitizer"; sed -n '/^== compute-sanitizer summary/,$p' "$OUT/sanitize.txt"; grep "^device_sanitize:" "$OUT/sanitize.txt"; }
[ -f "$OUT/bench_ssb.txt" ] && { echo "-- bench ssb cuda SF $SF"; tail -17 "$OUT/bench_ssb.txt"; }
[ -f "$OUT/bench_index.txt" ] && { echo "-- bench index optix"; cat "$OUT/bench_index.txt"; }
[ -f "$OUT/bench_query.txt" ] && { echo "-- bench query SF $SF"; cat "$OUT/query_indexes.txt"; grep -v "^index .*: built" "$OUT/bench_query.txt" | cut -c1-400; grep "^index .*: built" "$OUT/bench_query.txt" | head -8; }
for mode in hash sort; do
  [ -f "$OUT/bench_group_$mode.txt" ] && { echo "-- bench group SF $SF RAYDB_CUDA_GROUP=$mode"; cut -c1-120 "$OUT/bench_group_$mode.txt"; }
done
[ -f "$OUT/group_check.txt" ] && { echo "-- group results, md5 of the CSV per mode"; cat "$OUT/group_check.txt"; }
[ -f "$OUT/bench_index_sweep.txt" ] && { echo "-- bench index sweep"; grep -E "auto|NO|rc=|rror" "$OUT/bench_index_sweep.txt" | tail -20; }
for f in "$OUT"/bench_index_sweep[0-9]*.txt; do
  [ -f "$f" ] || continue
  echo "-- $(basename "$f"): $(grep -c '^auto' "$f") picks, $(grep -c 'DIFFERS' "$f") differ beyond noise, $(grep -c 'within noise' "$f") within noise; $(grep -cE ' NO$' "$f") unverified; $(tail -1 "$f")"
  grep -E "DIFFERS|rror" "$f" | head -8
done
true
