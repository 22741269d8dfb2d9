#!/usr/bin/env bash
# Issue 15, "End to end", on the GPU machine in one call (at most 8 minutes), with a
# bundle from scripts/device_bundle.sh:
#   bash scripts/device_bundle.sh   # here, after the CUDA build
#   then on the GPU machine:  bash .xfer/bundle/scripts/device_e2e.sh     (OUT=/tmp/out by default)
# 1. SSB at SF $SF in /tmp/ssb$SF (generated when absent, else reused).
# 2. Bandwidths of this machine: `raydb calibrate --no-index` into $OUT/calibration.json
#    (CPU read, device read, host-to-device, the device's first use in a process); every
#    later command reads it (RAYDB_CALIBRATION), so `auto` decides on these numbers.
# 3. Page cache warmed (every file of the database read once).
# 4. Each of the 13 queries one-shot (a fresh `raydb query --timing` process), $RUNS runs
#    each (median), in four ways: --backend cuda, --backend cpu, --backend auto (now) and
#    --backend auto --set transfer_cost=off (auto as before this change: always the GPU).
#    Every run's answer is compared with the CPU's: a difference prints MISMATCH and the
#    script exits 1. The breakdown of the median CUDA run is printed per query, then a
#    table: CUDA one-shot time against (bytes copied to the device / measured
#    host-to-device bandwidth) + start-up, the issue's 2x target, and the sums.
# 5. `raydb bench ssb --one-shot 3` on cuda and on cpu: resident, warm and one-shot times
#    side by side as JSON lines ($OUT/bench_cuda.jsonl, $OUT/bench_cpu.jsonl).
# Files in $OUT: e2e.txt (everything printed), oneshot_raw.txt (every run's stderr),
# calibration.json, bench_*.jsonl, bench_*.txt.
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

stamp gen
if [ ! -f "$DB/manifest.json" ]; then
  timeout 300 "$R" gen ssb --sf "$SF" --db "$DB" > /dev/null 2>> "$LOG" || { say "FAIL: gen ssb"; exit 1; }
fi
du -sh "$DB" | tee -a "$LOG"

stamp calibrate
export RAYDB_CALIBRATION=$OUT/calibration.json
timeout 120 "$R" calibrate --no-index 2>&1 | tee -a "$LOG"
H2D=$(grep -o '"host_to_device_gbs":[0-9.e+]*' "$RAYDB_CALIBRATION" | cut -d: -f2)
say "host-to-device GB/s used for the target: ${H2D:-unknown}"

stamp warm-page-cache
cat "$DB"/* > /dev/null

# One run: stdout (CSV) to $2, stderr appended to the raw log and kept in $3.
one() {  # one MODE OUTFILE ERRFILE SQL
  local mode=$1 out=$2 err=$3 sql=$4
  case $mode in
    cuda) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cuda "$sql" > "$out" 2> "$err" ;;
    cpu) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cpu "$sql" > "$out" 2> "$err" ;;
    auto) timeout 60 "$R" query --db "$DB" --format csv --timing --backend auto "$sql" > "$out" 2> "$err" ;;
    today) timeout 60 "$R" query --db "$DB" --format csv --timing --backend auto --set transfer_cost=off "$sql" > "$out" 2> "$err" ;;
  esac
  local rc=$?
  { echo "--- $mode rc=$rc"; cat "$err"; } >> "$RAW"
  return $rc
}
e2e_of() { grep -o '^end-to-end: [0-9.]*' "$1" | awk '{print $2}'; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "nan"}'; }

stamp one-shot
TMP=$(mktemp -d)
TABLE=$TMP/table
: > "$TABLE"
for f in "$Q"/q*.sql; do
  name=$(basename "$f" .sql)
  sql=$(cat "$f")
  one cpu "$TMP/want.csv" "$TMP/err" "$sql" || { say "FAIL: $name on the CPU: $(tail -1 "$TMP/err")"; FAIL=1; continue; }
  declare -A med=()
  for mode in cuda cpu auto today; do
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
  say "-- $name: median CUDA one-shot breakdown"
  [ -f "$TMP/best.cuda" ] && sed 's/^/   /' "$TMP/best.cuda" | tee -a "$LOG"
  backend_auto=$(grep -o 'backend [a-z]*' "$TMP/best.auto" 2>/dev/null | head -1 | awk '{print $2}')
  to_dev=$(grep -o 'to_device [0-9]*' "$TMP/best.cuda" 2>/dev/null | awk '{print $2}')
  start=$(awk '$1 == "stage" && $2 == "startup" {print $3}' "$TMP/best.cuda" 2>/dev/null)
  echo "$name ${med[cuda]} ${med[cpu]} ${med[auto]} ${backend_auto:-?} ${med[today]} ${to_dev:-0} ${start:-0}" >> "$TABLE"
  rm -f "$TMP"/best.*
done
say ""
say "one-shot medians (ms, $RUNS runs, page cache warm); floor = bytes copied to the device / ${H2D:-?} GB/s + start-up;"
say "target: cuda <= 2 x floor; today = auto with transfer_cost=off (the GPU, as before this change)"
awk -v h2d="${H2D:-0}" '
  BEGIN { printf "%-6s %9s %9s %9s %-5s %9s %10s %9s %8s %s\n", "query", "cuda", "cpu", "auto", "ran", "today", "device_MB", "floor", "x_floor", "target" }
  {
    floor = (h2d > 0 ? $7 / (h2d * 1e9) * 1e3 : 0) + $8
    x = floor > 0 ? $2 / floor : 0
    ok = (x > 0 && x <= 2) ? "met" : "NOT met"
    printf "%-6s %9.1f %9.1f %9.1f %-5s %9.1f %10.1f %9.1f %8.2f %s\n", $1, $2, $3, $4, $5, $6, $7 / 1e6, floor, x, ok
    c += $2; p += $3; a += $4; t += $6
  }
  END {
    printf "%-6s %9.1f %9.1f %9.1f %-5s %9.1f\n", "sum", c, p, a, "", t
    if (t > 0) printf "sum auto now / today: %.3f; sum cuda one-shot / today: %.3f (issue target for the load path: < 0.25)\n", a / t, c / t
  }' "$TABLE" | tee -a "$LOG"
rm -rf "$TMP"

for b in cuda cpu; do
  stamp "bench ssb $b"
  timeout 200 "$R" bench ssb --db "$DB" --backend "$b" --reps 5 --one-shot 3 --json "$OUT/bench_$b.jsonl" \
    > "$OUT/bench_$b.txt" 2>&1
  rc=$?
  tee -a "$LOG" < "$OUT/bench_$b.txt"
  [ $rc = 0 ] || { say "FAIL: bench ssb $b rc=$rc (a NO in verified means a wrong answer)"; FAIL=1; }
done
stamp done
[ $FAIL = 0 ] && say "all answers equal the CPU's" || say "FAILED (see above)"
exit $FAIL
