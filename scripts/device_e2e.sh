#!/usr/bin/env bash
# Issue 15, "End to end": the fast load path against today's, on the GPU machine in one
# call (at most 8 minutes), with a bundle from scripts/device_bundle.sh:
#   bash scripts/device_bundle.sh   # here, after the CUDA build
#   then on the GPU machine:  bash .xfer/bundle/scripts/device_e2e.sh     (OUT=/tmp/out by default)
# 0. test_gpu --gtest_filter='GpuFastLoad.*' (the fast load path's GPU tests, SF 0.01).
# 1. SSB at SF $SF in /tmp/ssb$SF, generated when absent or written before narrowed
#    files existed (no "narrowed" in its manifest), else reused.
# 2. Bandwidths of this machine: `raydb calibrate --no-index` into $OUT/calibration.json
#    (host-to-device among them); every later command reads it (RAYDB_CALIBRATION).
# 3. Page cache warmed (every file of the database read once).
# 4. Each of the 13 queries one-shot (a fresh `raydb query --timing` process), $RUNS
#    runs each (median), in these ways:
#      fast  --backend cuda, fast_load=on  (narrowed files, pread into pinned buffers,
#            copies overlapped with reads, checksummed as they pass)
#      today --backend cuda, fast_load=off (map, verify, narrow per process: the old path)
#      cpu   --backend cpu (the oracle; every other answer must equal it)
#      auto  --backend auto, fast_load=on (what a user gets)
#    A wrong answer prints MISMATCH and the script exits 1. Per query it prints the
#    stage breakdown of the median fast and today runs, then a table: the medians,
#    bytes copied to the device, the floor (those bytes / measured host-to-device
#    bandwidth + the run's start-up), each path's ratio to the floor (issue target:
#    <= 2), and the sums (issue target: fast < 0.25 x today).
# 5. With BENCH=1: `raydb bench ssb --one-shot 3` on cuda and cpu ($OUT/bench_*.jsonl).
# Files in $OUT: e2e.txt (everything printed), oneshot_raw.txt (every run's stderr),
# calibration.json, bench_*.jsonl.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
SF=${SF:-20}
RUNS=${RUNS:-3}
DB=/tmp/ssb$SF
Q=$B/ssb/queries
mkdir -p "$OUT"
LOG=$OUT/e2e.txt
RAW=$OUT/oneshot_raw.txt
: > "$LOG"
: > "$RAW"
say() { echo "$*" | tee -a "$LOG"; }
stamp() { say "== $1 $(date +%T)"; }
FAIL=0

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$LOG"
say "cores: $(nproc)"

stamp "GPU tests of the fast load path"
(cd "$T" && timeout 150 ./test_gpu --gtest_filter='GpuFastLoad.*' 2>&1) | tail -25 | tee -a "$LOG"
[ "${PIPESTATUS[0]}" = 0 ] || { say "FAIL: test_gpu GpuFastLoad.*"; FAIL=1; }

stamp gen
if [ -f "$DB/manifest.json" ] && ! grep -q '"narrowed"' "$DB/manifest.json"; then
  say "$DB has no narrowed files (written by an older raydb): generating it again"
  rm -rf "$DB"
fi
if [ ! -f "$DB/manifest.json" ]; then
  /usr/bin/time -f "gen: %e s, max RSS %M KB" timeout 330 "$R" gen ssb --sf "$SF" --db "$DB" > /dev/null 2>> "$LOG" \
    || { say "FAIL: gen ssb"; exit 1; }
  tail -1 "$LOG"
fi
du -sh "$DB" | tee -a "$LOG"
say "narrowed files: $(ls "$DB" | grep -c '\.nar$'), $(cat "$DB"/*.nar | wc -c) bytes; column files: $(cat "$DB"/*.col | wc -c) bytes"

stamp calibrate
export RAYDB_CALIBRATION=$OUT/calibration.json
timeout 120 "$R" calibrate --no-index 2>&1 | tee -a "$LOG"
# (json.dump writes a space after the colon, so read it as JSON rather than grep it)
H2D=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["host_to_device_gbs"])' "$RAYDB_CALIBRATION" 2>/dev/null)
say "host-to-device GB/s used for the floor: ${H2D:-unknown}"

stamp warm-page-cache
cat "$DB"/* > /dev/null

# One run: stdout (CSV) to $2, stderr kept in $3 and appended to the raw log.
one() {  # one MODE OUTFILE ERRFILE SQL
  local mode=$1 out=$2 err=$3 sql=$4
  case $mode in
    fast) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cuda --set fast_load=on "$sql" > "$out" 2> "$err" ;;
    today) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cuda --set fast_load=off "$sql" > "$out" 2> "$err" ;;
    cpu) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cpu "$sql" > "$out" 2> "$err" ;;
    auto) timeout 60 "$R" query --db "$DB" --format csv --timing --backend auto --set fast_load=on "$sql" > "$out" 2> "$err" ;;
  esac
  local rc=$?
  { echo "--- $mode rc=$rc"; cat "$err"; } >> "$RAW"
  return $rc
}
e2e_of() { grep -o '^end-to-end: [0-9.]*' "$1" | awk '{print $2}'; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "nan"}'; }
stage_of() { awk -v s="$2" '$1 == "stage" && $2 == s {print $3}' "$1" 2>/dev/null; }
# The "bytes" line's counter (not the stage "host_to_device", which also ends in to_device).
bytes_of() { grep -oE "(^| )$2 [0-9]+" "$1" 2>/dev/null | head -1 | awk '{print $NF}'; }

stamp one-shot
TMP=$(mktemp -d)
TABLE=$TMP/table
: > "$TABLE"
for f in "$Q"/q*.sql; do
  name=$(basename "$f" .sql)
  sql=$(cat "$f")
  one cpu "$TMP/want.csv" "$TMP/err" "$sql" || { say "FAIL: $name on the CPU: $(tail -1 "$TMP/err")"; FAIL=1; continue; }
  declare -A med=()
  for mode in fast today cpu auto; do
    : > "$TMP/times"
    for i in $(seq "$RUNS"); do
      if ! one "$mode" "$TMP/got.csv" "$TMP/err.$mode.$i" "$sql"; then
        say "FAIL: $name $mode run $i: $(tail -1 "$TMP/err.$mode.$i")"; FAIL=1; continue
      fi
      if ! cmp -s "$TMP/got.csv" "$TMP/want.csv"; then
        say "MISMATCH: $name $mode run $i differs from the CPU's answer"; FAIL=1
      fi
      echo "$(e2e_of "$TMP/err.$mode.$i") $i" >> "$TMP/times"
    done
    m=$(awk '{print $1}' "$TMP/times" | median)
    med[$mode]=$m
    mi=$(awk -v m="$m" '$1 == m {print $2; exit}' "$TMP/times")
    [ -n "$mi" ] && cp "$TMP/err.$mode.$mi" "$TMP/best.$mode"
  done
  for mode in fast today; do
    say "-- $name: median CUDA one-shot breakdown, fast_load $([ $mode = fast ] && echo on || echo off)"
    [ -f "$TMP/best.$mode" ] && sed 's/^/   /' "$TMP/best.$mode" | tee -a "$LOG"
  done
  ran=$(grep -o 'backend [a-z]*' "$TMP/best.auto" 2>/dev/null | head -1 | awk '{print $2}')
  echo "$name ${med[fast]} ${med[today]} ${med[cpu]} ${med[auto]} ${ran:-?} $(bytes_of "$TMP/best.fast" to_device) \
$(bytes_of "$TMP/best.fast" needed) $(stage_of "$TMP/best.fast" startup)" >> "$TABLE"
  rm -f "$TMP"/best.*
done
say ""
say "one-shot medians (ms, $RUNS runs, page cache warm). floor = bytes copied to the device / ${H2D:-?} GB/s + start-up;"
say "x_floor = fast / floor (issue target: <= 2); today = fast_load=off (the path before); needed_MB = stored bytes of the columns read"
awk -v h2d="${H2D:-0}" '
  BEGIN { printf "%-6s %9s %9s %9s %9s %-5s %10s %10s %8s %8s %8s %s\n", "query", "fast", "today", "cpu", "auto", "ran",
          "device_MB", "needed_MB", "floor", "x_floor", "x_today", "target" }
  {
    floor = (h2d > 0 ? $7 / (h2d * 1e9) * 1e3 : 0) + $9
    x = floor > 0 ? $2 / floor : 0
    xt = floor > 0 ? $3 / floor : 0
    ok = (x > 0 && x <= 2) ? "met" : "NOT met"
    printf "%-6s %9.1f %9.1f %9.1f %9.1f %-5s %10.1f %10.1f %8.1f %8.2f %8.2f %s\n", $1, $2, $3, $4, $5, $6, $7 / 1e6,
           $8 / 1e6, floor, x, xt, ok
    sf += $2; st += $3; sc += $4; sa += $5; fl += floor
  }
  END {
    printf "%-6s %9.1f %9.1f %9.1f %9.1f %-5s %10s %10s %8.1f\n", "sum", sf, st, sc, sa, "", "", "", fl
    if (st > 0) printf "sum fast / today: %.3f (issue target: < 0.25); sum fast / floor: %.2f\n", sf / st, sf / fl
  }' "$TABLE" | tee -a "$LOG"
rm -rf "$TMP"

if [ "${BENCH:-0}" = 1 ]; then
  for b in cuda cpu; do
    stamp "bench ssb $b"
    timeout 200 "$R" bench ssb --db "$DB" --backend "$b" --reps 5 --one-shot 3 --json "$OUT/bench_$b.jsonl" \
      > "$OUT/bench_$b.txt" 2>&1
    rc=$?
    tee -a "$LOG" < "$OUT/bench_$b.txt"
    [ $rc = 0 ] || { say "FAIL: bench ssb $b rc=$rc (a NO in verified means a wrong answer)"; FAIL=1; }
  done
fi
stamp done
[ $FAIL = 0 ] && say "all answers equal the CPU's" || say "FAILED (see above)"
exit $FAIL
