#!/usr/bin/env bash
# TPC-H at a large scale factor on the GPU machine, with a bundle from
# scripts/device_bundle.sh (the test binaries are not needed: BUNDLE_TESTS=none):
#   1. `raydb gen tpch --sf $SF` into $TPCH_DB (its wall time and progress lines),
#   2. `raydb bench tpch --backend cuda --reps 3` (JSON lines: $OUT/tpch_cuda.jsonl),
#   3. `raydb bench tpch --backend cpu --threads $CPU_THREADS --reps 1` ($OUT/tpch_cpu.jsonl),
#   4. a table of per-query medians (the backend each query ran on, CPU / CUDA), also in
#      $OUT/summary.txt.
# Environment: SF (20), TPCH_DB (/tmp/tpch-sf$SF; an existing TPC-H database of that SF
# is used as it is), CPU_THREADS (16), CUDA_REPS (3), CPU_REPS (1), CPU_WARMUP (1), and
# QUERIES (a subset such as q1,q6; default all 22), TRACE (queries traced block by
# block, below), and the timeouts in seconds
# GEN_TIMEOUT (240), CUDA_TIMEOUT (150), CPU_TIMEOUT (140): the defaults keep the whole
# script under 9 minutes. bench tpch writes its JSON when all its queries ran, so a step
# that times out leaves no rows in the table: split the queries with QUERIES then. A generation that does not finish
# stops the script (the database is left as it was: nothing half-written); run it
# again with SF=10. Exits non-zero when a step failed or timed out.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_unpack.sh"  # B, SRC, R, T
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
SF=${SF:-20}
DB=${TPCH_DB:-/tmp/tpch-sf$SF}
status=0
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "cores $(nproc)"; free -g | head -2; df -h "$(dirname "$DB")" | tail -1
} > "$OUT/machine.txt" 2>&1

t0=$(now)
timeout "${GEN_TIMEOUT:-240}" "$R" gen tpch --sf "$SF" --db "$DB" > "$OUT/gen.txt" 2>&1
rc=$?
echo "gen tpch --sf $SF: rc=$rc wall $(since "$t0") s" | tee -a "$OUT/gen.txt"
if [ $rc -ne 0 ]; then
  echo "generation failed or passed GEN_TIMEOUT; nothing benchmarked (try SF=10)"
  tail -n 20 "$OUT/gen.txt"
  exit 1
fi
du -sh "$DB" >> "$OUT/gen.txt" 2>&1

# bench_step NAME TIMEOUT ARGS...: one bench tpch call, its table in $OUT/bench_NAME.txt.
bench_step() {
  local name=$1 limit=$2 t rc
  shift 2
  t=$(now)
  timeout "$limit" "$R" bench tpch --db "$DB" --json "$OUT/tpch_$name.jsonl" ${QUERIES:+--queries "$QUERIES"} "$@" \
    > "$OUT/bench_$name.txt" 2>&1
  rc=$?
  echo "bench tpch $name ($*): rc=$rc wall $(since "$t") s" | tee -a "$OUT/bench_$name.txt"
  [ $rc -eq 0 ] || status=1
}
bench_step cuda "${CUDA_TIMEOUT:-150}" --backend cuda --reps "${CUDA_REPS:-3}"
bench_step cpu "${CPU_TIMEOUT:-140}" --backend cpu --threads "${CPU_THREADS:-16}" --reps "${CPU_REPS:-1}" \
  --warmup "${CPU_WARMUP:-1}"
# TRACE (e.g. q21,q13,q4): those queries once more on CUDA (a warm-up and one timed run)
# with RAYDB_TRACE_BLOCKS=1 and the plan cache off: each block's rows, run and copy times
# on stderr, in $OUT/trace.txt (where a multi-block query's time goes).
if [ -n "${TRACE:-}" ]; then
  RAYDB_TRACE_BLOCKS=1 RAYDB_PLAN_CACHE=off timeout "${TRACE_TIMEOUT:-120}" "$R" bench tpch --db "$DB" \
    --backend cuda --reps 1 --queries "$TRACE" > "$OUT/trace.txt" 2>&1
  echo "trace $TRACE: rc=$?" | tee -a "$OUT/trace.txt"
fi

python3 - "$SF" "$OUT/tpch_cuda.jsonl" "$OUT/tpch_cpu.jsonl" <<'PY' | tee "$OUT/summary.txt"
import json, sys
sf = sys.argv[1]

def load(path):
    try:
        return {r["query"]: r for r in (json.loads(l) for l in open(path) if l.strip())}
    except OSError:
        return {}

cuda, cpu = load(sys.argv[2]), load(sys.argv[3])
print(f"TPC-H SF {sf}: per-query medians (ms); 'ran on' is the backend that executed the query")
print(f"{'query':<6} {'cuda_ms':>10} {'ran on':>8} {'cpu_ms':>10} {'cpu/cuda':>9}  notes")
sums = [0.0, 0.0]
for n in range(1, 23):
    q = f"q{n}"
    g, c = cuda.get(q, {}), cpu.get(q, {})
    gm, cm = g.get("median_ms"), c.get("median_ms")
    notes = []
    for label, r in (("cuda", g), ("cpu", c)):
        if not r:
            notes.append(f"{label}: not run")
        elif r.get("status") != "ok":
            notes.append(f"{label}: {r.get('status')}: {r.get('error', '')[:80]}")
        elif not r.get("verified", False):
            notes.append(f"{label}: repetitions differed")
    sums[0] += gm or 0
    sums[1] += cm or 0
    fmt = lambda v: f"{v:10.2f}" if v is not None else f"{'-':>10}"
    ratio = f"{cm / gm:9.1f}" if gm and cm else f"{'-':>9}"
    print(f"{q:<6} {fmt(gm)} {g.get('backend', '-'):>8} {fmt(cm)} {ratio}  {'; '.join(notes)}")
print(f"{'sum':<6} {sums[0]:10.2f} {'':>8} {sums[1]:10.2f} ({len(cuda)} cuda, {len(cpu)} cpu records)")
PY
grep -h "rc=" "$OUT/gen.txt" "$OUT"/bench_*.txt
exit $status
