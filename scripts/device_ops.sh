#!/usr/bin/env bash
# Issue 10 on the GPU machine, one call with a bundle from scripts/device_bundle.sh
# (BUNDLE_E2E=1 for the e2e predicate tests):
#   TESTS=1  test_gpu (GPU_TEST_FILTER), test_gpu_orderstat, test_rt_optix when TEST_RT=1, and test_e2e's
#            predicate and EXPLAIN ANALYZE tests
#   OPS=1    raydb bench ops --suite predicates at N rows, cpu and cuda (OPS_REPS)
#   OS=1     raydb bench ops order statistics (OS_ARGS, then OS2_ARGS when set)
#   SSBQ=1   SSB at SF $SF: the 6-key IN-list query and other predicate shapes through
#            raydb bench query on cuda and cpu (QUERY_REPS)
#   BA=1     SSB before/after: .xfer/base's raydb against this bundle's, ROUNDS rounds
#   S10=1    session 10, in one call of at most 8 minutes (run it with TESTS=0 OPS=0):
#            the new GPU tests (k from aggregates, the plain radix pass with masks and
#            groups, OR across dimensions on the star kernels); raydb bench ops radix
#            against radix-general and sort at S10_N rows (WHERE mask 1% and 50%, 7
#            groups); SSB at SF $SF: OR across dimensions and k from aggregates, cuda
#            against cpu, EXPLAIN; scripts/ops_targets.py sets the numbers beside the
#            targets. Prints "S10 FAILED" and exits 1 on a failed test or a wrong answer.
# Output (at most 8 files come back): gpu.txt, tests.txt, ops.txt/.json, ssbq.txt/.json, ba.txt/.json;
# S10: s10_tests.txt, s10_ops.txt/.json, s10_ssb.txt/.json, s10_summary.txt.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
SF=${SF:-20}
N=${N:-100000000}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
stamp() { echo "== $1 $(date +%T)" >> "$OUT/gpu.txt"; }
if [ "${TESTS:-1}" = 1 ]; then
  stamp tests
  timeout "${GPU_TEST_TIMEOUT:-240}" "$T/test_gpu" --gtest_filter="${GPU_TEST_FILTER:-*}" > "$OUT/tests.txt" 2>&1
  echo "test_gpu rc=$?" >> "$OUT/tests.txt"
  if [ "${TEST_RT:-0}" = 1 ] && [ -f "$T/test_rt_optix" ]; then
    timeout 200 "$T/test_rt_optix" >> "$OUT/tests.txt" 2>&1
    echo "test_rt_optix rc=$?" >> "$OUT/tests.txt"
  fi
  if [ -f "$T/test_gpu_orderstat" ]; then
    timeout 240 "$T/test_gpu_orderstat" >> "$OUT/tests.txt" 2>&1
    echo "test_gpu_orderstat rc=$?" >> "$OUT/tests.txt"
  fi
  if [ -f "$T/test_e2e" ]; then
    timeout 120 "$T/test_e2e" --gtest_filter='*Predicate*:*ExplainAnalyze*' >> "$OUT/tests.txt" 2>&1
    echo "test_e2e rc=$?" >> "$OUT/tests.txt"
  fi
fi
if [ "${OPS:-1}" = 1 ]; then
  stamp ops
  timeout "${OPS_TIMEOUT:-240}" "$R" bench ops --suite predicates --db /tmp/opsdb --n "$N" --devices cpu,cuda \
    --reps "${OPS_REPS:-5}" --json "$OUT/ops.json" > "$OUT/ops.txt" 2>&1
  echo "rc=$?" >> "$OUT/ops.txt"
fi
if [ "${OS:-0}" = 1 ]; then
  stamp order-statistics
  # shellcheck disable=SC2086
  timeout "${OS_TIMEOUT:-200}" "$R" bench ops ${OS_ARGS:---n 1000000000 --devices cuda --algorithms radix,bitwise,sort} \
    --json "$OUT/ops.json" >> "$OUT/ops.txt" 2>&1
  echo "rc=$?" >> "$OUT/ops.txt"
  if [ -n "${OS2_ARGS:-}" ]; then  # a second order-statistics run (e.g. grouped)
    # shellcheck disable=SC2086
    timeout "${OS_TIMEOUT:-200}" "$R" bench ops $OS2_ARGS --json "$OUT/ops.json" >> "$OUT/ops.txt" 2>&1
    echo "rc=$?" >> "$OUT/ops.txt"
  fi
fi
if [ "${SSBQ:-0}" = 1 ] || [ "${BA:-0}" = 1 ]; then
  stamp gen
  [ -d /tmp/ssb$SF ] || "$R" gen ssb --sf "$SF" --db /tmp/ssb$SF > /dev/null 2>> "$OUT/gpu.txt"
fi
if [ "${SSBQ:-0}" = 1 ]; then
  stamp ssbq
  timeout "${QUERY_TIMEOUT:-200}" "$R" bench query --db /tmp/ssb$SF --reps "${QUERY_REPS:-10}" --backends cuda,cpu \
    --index-paths off \
    -q "in6=select count(*), sum(lo_revenue) from lineorder where lo_orderkey in (7, 1234567, 23456789, 29999999, 55555, 98765432)" \
    -q "in20=select count(*), sum(lo_revenue) from lineorder where lo_quantity in (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39)" \
    -q "or=select count(*), sum(lo_revenue) from lineorder where lo_quantity < 5 or lo_discount > 9" \
    -q "not=select count(*) from lineorder where not (lo_quantity between 10 and 40) and not (lo_discount < 3 or lo_tax > 6)" \
    -q "colcmp=select count(*), sum(lo_quantity) from lineorder where lo_commitdate > lo_orderdate" \
    -q "linear4=select count(*), sum(lo_revenue) from lineorder where 3 * lo_quantity + 2 * lo_discount - lo_tax + 7 * lo_linenumber > 100" \
    -q "q11or=select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and (lo_discount between 1 and 3 or lo_quantity < 25 and lo_tax = 1)" \
    -q "median_year=select d_year, median(lo_revenue) from lineorder, date where lo_orderdate = d_datekey group by d_year order by d_year" \
    -q "median_all=select median(lo_extendedprice) from lineorder" \
    -q "quantiles_filtered=select lo_shipmode, quantile_disc(lo_quantity, 0.9), kth_largest(lo_revenue, 10) from lineorder where lo_discount between 1 and 3 group by lo_shipmode order by 1" \
    --json "$OUT/ssbq.json" > "$OUT/ssbq.txt" 2>&1
  echo "rc=$?" >> "$OUT/ssbq.txt"
  "$R" query --db /tmp/ssb$SF --backend cuda "explain analyze select d_year, count(*) from lineorder, date where lo_orderdate = d_datekey and (lo_quantity < 5 or lo_discount > 9) group by d_year" >> "$OUT/ssbq.txt" 2>&1
  "$R" query --db /tmp/ssb$SF --backend cpu "explain analyze select d_year, count(*) from lineorder, date where lo_orderdate = d_datekey and (lo_quantity < 5 or lo_discount > 9) group by d_year" >> "$OUT/ssbq.txt" 2>&1
  "$R" query --db /tmp/ssb$SF --backend cuda "explain analyze select d_year, median(lo_revenue) from lineorder, date where lo_orderdate = d_datekey group by d_year" >> "$OUT/ssbq.txt" 2>&1
fi
if [ "${BA:-0}" = 1 ]; then
  stamp before-after
  [ -f "$ROOT/.xfer/base/build/raydb.gz" ] && gunzip -f "$ROOT/.xfer/base/build/raydb.gz" && chmod +x "$ROOT/.xfer/base/build/raydb"
  for r in $(seq "${ROUNDS:-2}"); do
    for w in base bundle; do
      bin=$ROOT/.xfer/$w/build/raydb
      [ "$w" = bundle ] && bin=$R
      echo "== $w round $r" >> "$OUT/ba.txt"
      timeout 150 "$bin" bench ssb --backend cuda --db /tmp/ssb$SF --reps 10 --json "$OUT/ba_${w}_$r.json" >> "$OUT/ba.txt" 2>&1
      echo "rc=$?" >> "$OUT/ba.txt"
    done
  done
  cat "$OUT"/ba_*.json > "$OUT/ba.json" 2>/dev/null; rm -f "$OUT"/ba_*.json
fi
if [ "${S10:-0}" = 1 ]; then
  s10_fail=0
  stamp s10-tests
  timeout 200 "$T/test_gpu" --gtest_filter='GpuOrderStatistics.*:Issue10/GpuPredicates.*' > "$OUT/s10_tests.txt" 2>&1
  rc=$?; echo "test_gpu rc=$rc" >> "$OUT/s10_tests.txt"; [ $rc = 0 ] || s10_fail=1
  timeout 120 "$T/test_gpu_orderstat" --gtest_filter='*PlainPass*:*Adversarial*:*DeviceResident*' >> "$OUT/s10_tests.txt" 2>&1
  rc=$?; echo "test_gpu_orderstat rc=$rc" >> "$OUT/s10_tests.txt"; [ $rc = 0 ] || s10_fail=1
  grep -E "SKIPPED|FAILED" "$OUT/s10_tests.txt" | head -20 >> "$OUT/gpu.txt"
  stamp s10-bench
  N10=${S10_N:-1000000000}
  for args in "--selectivity 0.01,0.5 --spec median --algorithms radix,radix-general,sort" \
              "--selectivity 0.01,0.5 --spec k=1000 --algorithms radix,radix-general" \
              "--groups 7 --spec median --algorithms radix,radix-general,sort"; do
    # shellcheck disable=SC2086
    timeout 150 "$R" bench ops --n "$N10" --devices cuda $args --reps 5 --json "$OUT/s10_ops.json" >> "$OUT/s10_ops.txt" 2>&1
    rc=$?; echo "rc=$rc ($args)" >> "$OUT/s10_ops.txt"; [ $rc = 0 ] || s10_fail=1
  done
  stamp s10-gen
  [ -d /tmp/ssb$SF ] || timeout 150 "$R" gen ssb --sf "$SF" --db /tmp/ssb$SF > /dev/null 2>> "$OUT/gpu.txt"
  stamp s10-ssb
  xdim="select d_year, count(*), sum(lo_revenue) from lineorder, date, supplier where lo_orderdate = d_datekey and lo_suppkey = s_suppkey and (d_year = 1993 or s_region = 'ASIA') group by d_year order by d_year"
  timeout 150 "$R" bench query --db /tmp/ssb$SF --reps 3 --backends cuda,cpu --index-paths off \
    -q "or_dims=$xdim" \
    -q "or_dims_fact=select s_region, count(*) from lineorder, date, supplier, customer where lo_orderdate = d_datekey and lo_suppkey = s_suppkey and lo_custkey = c_custkey and ((d_year = 1997 and c_nation = 'CHINA') or s_nation = 'PERU' or lo_quantity > 48) group by s_region order by s_region" \
    -q "not_or_dims=select count(*), sum(lo_extendedprice) from lineorder, date, part where lo_orderdate = d_datekey and lo_partkey = p_partkey and not (d_yearmonthnum between 199401 and 199406 or p_mfgr = 'MFGR#1')" \
    -q "kth_count_year=select d_year, kth_smallest(lo_revenue, count(*) / 2), kth_largest(lo_quantity, count(*) / 3 + 1) from lineorder, date where lo_orderdate = d_datekey group by d_year order by d_year" \
    -q "median_year=select d_year, median(lo_revenue) from lineorder, date where lo_orderdate = d_datekey group by d_year order by d_year" \
    --json "$OUT/s10_ssb.json" > "$OUT/s10_ssb.txt" 2>&1
  rc=$?; echo "rc=$rc" >> "$OUT/s10_ssb.txt"; [ $rc = 0 ] || s10_fail=1
  "$R" query --db /tmp/ssb$SF --backend cuda "explain analyze $xdim" > /tmp/s10_explain.txt 2>&1
  cat /tmp/s10_explain.txt >> "$OUT/s10_ssb.txt"
  grep -q "star kernels" /tmp/s10_explain.txt || { echo "OR across dimensions is not on the star kernels" | tee -a "$OUT/s10_ssb.txt"; s10_fail=1; }
  python3 "$B/scripts/ops_targets.py" --ops "$OUT/s10_ops.json" --query "$OUT/s10_ssb.json" > "$OUT/s10_summary.txt" 2>&1 || s10_fail=1
  cat "$OUT/s10_summary.txt"
  if [ $s10_fail = 0 ]; then echo "S10 PASSED" | tee -a "$OUT/s10_summary.txt"
  else echo "S10 FAILED (see s10_tests.txt, s10_ops.txt, s10_ssb.txt)" | tee -a "$OUT/s10_summary.txt"; stamp done; exit 1; fi
fi
stamp done
