#!/usr/bin/env bash
# Issue 15, "End to end": one-shot `raydb query` processes on the GPU machine in one call
# (at most 8 minutes), with a bundle from scripts/device_bundle.sh:
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
#      cuda  --backend cuda (GPU context made on a background thread from the start,
#            dictionaries read when first used, narrowed files read ahead on several
#            threads while the context is made, then copied up on several streams)
#      cold  --backend cuda --set device_warmup=off (the context made when the query
#            first needs it: what the warm-up hides)
#      cpu   --backend cpu (the oracle; every other answer must equal it)
#      auto  --backend auto (what a user gets; since session 14 it starts no warm-up and
#            decides before probing the device, so a CPU run pays nothing for the GPU)
#      chunk64   as noprefetch with RAYDB_UPLOAD_CHUNK=64M (session 13's staging buffers;
#                the default is 16M; upload_chunk sizes the chunked path only)
#      nokernels as cuda with RAYDB_WARMUP_KERNELS=off (kernels loaded at first launch,
#                not on the warm-up thread after the context)
#      noprefetch as cuda with --set prefetch=off (narrowed files read, verified and
#                copied one chunk at a time after the context, the path before session 18;
#                cuda reads them ahead on several threads while the context is made and
#                copies them up on several streams)
#    A wrong answer prints MISMATCH and the script exits 1. Then two tables: the stage
#    breakdown of each query's median cuda and noprefetch runs (ms; "other" is time in no
#    stage, warmup and prefetch the background threads' own time, hidden behind the
#    stages), and the medians with
#    bytes copied to the device, the floor (those bytes / measured host-to-device
#    bandwidth + the run's start-up), cuda / floor (issue target: <= 2), and the sums
#    against session 10's one-shot path before narrowed files (12921 ms; issue target:
#    cuda sum < 0.25 x that = 3230 ms) and session 10's fast load (8674 ms).
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
    cuda) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cuda "$sql" > "$out" 2> "$err" ;;
    cold) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cuda --set device_warmup=off "$sql" > "$out" 2> "$err" ;;
    cpu) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cpu "$sql" > "$out" 2> "$err" ;;
    auto) timeout 60 "$R" query --db "$DB" --format csv --timing --backend auto "$sql" > "$out" 2> "$err" ;;
    chunk64) RAYDB_UPLOAD_CHUNK=64M timeout 60 "$R" query --db "$DB" --format csv --timing --backend cuda \
      --set prefetch=off "$sql" > "$out" 2> "$err" ;;
    nokernels) RAYDB_WARMUP_KERNELS=off timeout 60 "$R" query --db "$DB" --format csv --timing --backend cuda "$sql" \
      > "$out" 2> "$err" ;;
    noprefetch) timeout 60 "$R" query --db "$DB" --format csv --timing --backend cuda --set prefetch=off "$sql" \
      > "$out" 2> "$err" ;;
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

# Session 10's one-shot medians on the H100 at SF 20 (docs/benchmarks/e2e-sf20-h100-session10.md):
# the path before narrowed files (fast_load=off) and its fast load path.
declare -A S10_OFF=([q1.1]=987 [q1.2]=943 [q1.3]=910 [q2.1]=818 [q2.2]=876 [q2.3]=840 [q3.1]=1024 [q3.2]=864
  [q3.3]=987 [q3.4]=911 [q4.1]=1217 [q4.2]=1090 [q4.3]=1456)
declare -A S10_ON=([q1.1]=623 [q1.2]=615 [q1.3]=638 [q2.1]=638 [q2.2]=642 [q2.3]=621 [q3.1]=637 [q3.2]=666
  [q3.3]=650 [q3.4]=662 [q4.1]=755 [q4.2]=723 [q4.3]=805)
STAGES="startup open plan read+verify device_init narrow pinned_staging host_to_device prefetch_wait upload execute format"

stamp one-shot
TMP=$(mktemp -d)
TABLE=$TMP/table
BREAK=$TMP/breakdown
: > "$TABLE"
: > "$BREAK"
: > "$BREAK.noprefetch"
for f in "$Q"/q*.sql; do
  name=$(basename "$f" .sql)
  sql=$(cat "$f")
  one cpu "$TMP/want.csv" "$TMP/err" "$sql" || { say "FAIL: $name on the CPU: $(tail -1 "$TMP/err")"; FAIL=1; continue; }
  declare -A med=()
  for mode in cuda noprefetch cold cpu auto chunk64 nokernels; do
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
  for mode in cuda noprefetch cold; do
    say "-- $name: median one-shot breakdown, $mode"
    [ -f "$TMP/best.$mode" ] && sed 's/^/   /' "$TMP/best.$mode" | tee -a "$LOG"
  done
  ran=$(grep -o 'backend [a-z]*' "$TMP/best.auto" 2>/dev/null | head -1 | awk '{print $2}')
  echo "$name ${med[cuda]} ${med[cold]} ${med[cpu]} ${med[auto]} ${ran:-?} $(bytes_of "$TMP/best.cuda" to_device) \
$(bytes_of "$TMP/best.cuda" needed) $(stage_of "$TMP/best.cuda" startup) ${S10_OFF[$name]:-0} ${S10_ON[$name]:-0}" >> "$TABLE"
  for mode in cuda noprefetch; do
    row="$name"
    for s in $STAGES; do v=$(stage_of "$TMP/best.$mode" "$s"); row="$row ${v:-0}"; done
    other=$(grep -o 'other [0-9.]*' "$TMP/best.$mode" 2>/dev/null | awk '{print $2}')
    warm=$(awk '$1 == "warmup" {print $2}' "$TMP/best.$mode" 2>/dev/null)
    pre=$(awk '$1 == "prefetch" {print $2}' "$TMP/best.$mode" 2>/dev/null)
    dest=$BREAK; [ "$mode" = cuda ] || dest=$BREAK.$mode
    echo "$row ${other:-0} ${warm:--} ${pre:--} ${med[$mode]}" >> "$dest"
  done
  echo "$name ${med[cuda]} ${med[chunk64]} ${med[nokernels]} ${med[noprefetch]}" >> "$TMP/variants"
  rm -f "$TMP"/best.*
done
say ""
for mode in cuda noprefetch; do
  src=$BREAK; [ "$mode" = cuda ] || src=$BREAK.$mode
  say "stage breakdown of the median $mode run (ms; other = in no stage; warmup, prefetch = background threads, hidden):"
  awk -v stages="$STAGES" '
    BEGIN { n = split(stages, st, " "); printf "%-6s", "query"; for (i = 1; i <= n; i++) printf " %9.9s", st[i];
            printf " %9s %9s %9s %9s\n", "other", "warmup", "prefetch", "total" }
    { printf "%-6s", $1; for (i = 2; i <= NF; i++) printf " %9s", $i; printf "\n" }' "$src" | tee -a "$LOG"
done
say ""
say "one-shot medians (ms, $RUNS runs, page cache warm). floor = bytes copied to the device / ${H2D:-?} GB/s + start-up;"
say "x_floor = cuda / floor (issue target: <= 2); s10_off / s10_fast = session 10 (before narrowed files / fast load)"
awk -v h2d="${H2D:-0}" '
  BEGIN { printf "%-6s %8s %8s %8s %8s %-5s %10s %10s %8s %8s %8s %8s %s\n", "query", "cuda", "cold", "cpu", "auto", "ran",
          "device_MB", "needed_MB", "floor", "x_floor", "s10_off", "s10_fast", "target" }
  {
    floor = (h2d > 0 ? $7 / (h2d * 1e9) * 1e3 : 0) + $9
    x = floor > 0 ? $2 / floor : 0
    ok = (x > 0 && x <= 2) ? "met" : "NOT met"
    printf "%-6s %8.1f %8.1f %8.1f %8.1f %-5s %10.1f %10.1f %8.1f %8.2f %8d %8d %s\n", $1, $2, $3, $4, $5, $6, $7 / 1e6,
           $8 / 1e6, floor, x, $10, $11, ok
    sc += $2; sw += $3; sp += $4; sa += $5; fl += floor; so += $10; sf += $11
  }
  END {
    printf "%-6s %8.1f %8.1f %8.1f %8.1f %-5s %10s %10s %8.1f %8s %8d %8d\n", "sum", sc, sw, sp, sa, "", "", "", fl, "", so, sf
    if (so > 0) printf "sum cuda / session 10 before: %.3f (issue target: < 0.25); / session 10 fast load: %.3f; cuda / floor: %.2f\n",
                       sc / so, sc / sf, sc / fl
    if (so > 0) printf "sum auto / session 10 before: %.3f; sum cpu: %.1f ms\n", sa / so, sp
  }' "$TABLE" | tee -a "$LOG"
say ""
say "switches (medians, ms): cuda as above; chunk64 = noprefetch with RAYDB_UPLOAD_CHUNK=64M; nokernels = RAYDB_WARMUP_KERNELS=off;"
say "noprefetch = --set prefetch=off (chunk by chunk after the context, as before session 18)"
awk 'BEGIN { printf "%-6s %9s %9s %9s %10s\n", "query", "cuda", "chunk64", "nokernels", "noprefetch" }
  { printf "%-6s %9.1f %9.1f %9.1f %10.1f\n", $1, $2, $3, $4, $5; a += $2; b += $3; c += $4; d += $5 }
  END { printf "%-6s %9.1f %9.1f %9.1f %10.1f\n", "sum", a, b, c, d }' "$TMP/variants" | tee -a "$LOG"
say "session 13 (call F2): cuda sum 7666.9 ms, auto 3791.7, cpu 2227.7"
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
