#!/usr/bin/env bash
# Runs on the GPU machine, from the pack scripts/device_scaleout_pack.sh made:
#   bash .xfer/scaleout/device_scaleout_run.sh
# Unpacks raydb (CUDA, CPython 3.12), Ray and sqlglot under $WORK, generates SSB at
# scale factor $SF with raydb.generate_ssb (all cores), shards lineorder in $SHARDS by
# rows, then measures throughput through raydb.distributed: $CONCURRENCY clients of
# $ROUNDS passes over the 13 queries, first on 1 shard (the whole database, one worker,
# one GPU), then on $SHARDS shards (one worker and one GPU each), answers checked equal
# across phases and, with CHECK_CPU=1, to the CPU backend in-process. Every number goes
# to JSON under $OUT (default $WORK/out). First, without Ray, ssb_inprocess.py times
# each query in one process on the whole database and on shard 0 (the most a row split
# can gain per query), with the plan cache off and on.
# Each throughput run is made in two styles, in this order: "overlap" (workers run up to
# 4 statements at once on one open shard, 4 merges at once, plan cache on: the default)
# and "serial" (distributed_ssb.py --serial: one statement and one merge at a time, no
# plan cache, as in session 13). The last line sums up the ratios.
# Knobs: SF=40 BACKEND=cuda SHARDS=2 CONCURRENCY=8 ROUNDS=10 BATCH=both|0|1 CHECK_CPU=1
#        STYLES="overlap serial"
#        THREADS=8 (host threads per worker, 0: all cores; 8 keeps two workers and the
#        coordinator off each other's cores) BUDGET=420 (s; later runs skipped)
#        LATENCY=1 (also the per-query latency mode, one process vs the shards)
#        WORKER_CONCURRENCY=4 (calls, and so statements, a worker runs at once)
#        DIM_CACHE="on" (the workers' cuda_dimension_cache; "on off" runs each style twice)
#        WORK=/tmp/raydb-scaleout PYTHON=python3.12
# A dry run on a machine without GPUs: BACKEND=cpu SF=0.1 GPUS=0.
# Generated data stays in $WORK: a second call on the same machine goes straight to the
# measurements (generate_ssb and shard_database publish complete databases only).
set -euo pipefail
P=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SF=${SF:-40}
BACKEND=${BACKEND:-cuda}
SHARDS=${SHARDS:-2}
CONCURRENCY=${CONCURRENCY:-8}
ROUNDS=${ROUNDS:-10}
BATCH=${BATCH:-both}
CHECK_CPU=${CHECK_CPU:-1}
THREADS=${THREADS:-8}
LATENCY=${LATENCY:-0}
WORKER_CONCURRENCY=${WORKER_CONCURRENCY:-4}
DIM_CACHE=${DIM_CACHE:-on}
WORK=${WORK:-/tmp/raydb-scaleout}
OUT=${OUT:-$WORK/out}
mkdir -p "$WORK" "$OUT"
start_all=$SECONDS
stamp() { echo "[$((SECONDS - start_all)) s] $*"; }

PY=${PYTHON:-$(command -v python3.12 || command -v python3)}
"$PY" -c 'import sys; assert sys.version_info[:2] == (3, 12), "raydb was built for CPython 3.12, this is " + sys.version' ||
  { echo "error: $PY is not Python 3.12 (set PYTHON=)" >&2; exit 1; }
"$PY" -c 'import pyarrow' || { echo "error: $PY has no pyarrow" >&2; exit 1; }

# Unpacked with Python's tarfile (the image may lack xz); once per machine.
for a in raydb site; do
  if [ ! -f "$WORK/$a.done" ] || [ "$P/$a.tar.xz" -nt "$WORK/$a.done" ]; then
    rm -rf "${WORK:?}/$a" && mkdir -p "$WORK/$a"
    "$PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="tar")' \
      "$P/$a.tar.xz" "$WORK/$a"
    touch "$WORK/$a.done"
  fi
done
stamp "unpacked into $WORK"
# Ray's workers inherit this environment from the driver.
export PYTHONPATH="$WORK/raydb/pkg:$WORK/site${PYTHONPATH:+:$PYTHONPATH}"
export LD_LIBRARY_PATH="$WORK/raydb/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$WORK/site/bin:$PATH"
export RAY_USAGE_STATS_ENABLED=0

if [ -z "${GPUS:-}" ]; then
  GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
fi
{ nvidia-smi 2>&1 || true; nproc; free -g; df -h /tmp /dev/shm; } > "$OUT/machine.txt"
stamp "GPUs: $GPUS, cores: $(nproc)"

DB=$WORK/ssb-sf$SF
SHARD_DIR=$WORK/ssb-sf$SF-$SHARDS
has_lineorder() {  # a call cut short may leave a database created but not yet written
  "$PY" -c 'import json, sys
sys.exit(0 if any(t["name"] == "lineorder" for t in json.load(open(sys.argv[1])).get("tables", [])) else 1)' \
    "$1/manifest.json" 2>/dev/null
}
if ! has_lineorder "$DB"; then
  stamp "generating SSB SF $SF"
  "$PY" -c 'import sys, time, raydb
t = time.perf_counter(); rows = raydb.generate_ssb(sys.argv[1], float(sys.argv[2]))
print(f"generate_ssb: {rows} rows in {time.perf_counter() - t:.1f} s")' "$DB" "$SF" 2>&1 |
    { grep -v '%)$' || true; } | tee "$OUT/generate.txt"
fi
if [ ! -f "$SHARD_DIR/shards.json" ]; then
  rm -rf "$WORK"/.ssb-sf*.tmp-*  # staging left by a call cut short mid-split
  "$PY" -c 'import sys, time, raydb.distributed as rd
t = time.perf_counter(); layout = rd.shard_database(sys.argv[1], sys.argv[2], int(sys.argv[3]))
print(f"shard_database: {layout.fact_rows} rows per shard in {time.perf_counter() - t:.1f} s")' \
    "$DB" "$SHARD_DIR" "$SHARDS" | tee "$OUT/shard.txt"
fi
stamp "data ready: $(du -sh "$DB" | cut -f1) whole, shards in $SHARD_DIR"

STYLES=${STYLES:-overlap serial}
BUDGET=${BUDGET:-420}  # seconds after which a further benchmark run is skipped (a call has 600)
bench() {  # bench NAME ARGS...: one distributed_ssb.py run, its JSON and log under $OUT
  local name=$1
  shift
  if [ $((SECONDS - start_all)) -gt "$BUDGET" ]; then
    stamp "skipped $name: past BUDGET=$BUDGET s" | tee "$OUT/$name.skipped"
    return 0
  fi
  stamp "distributed_ssb.py $*"
  "$PY" "$P/python/benchmarks/distributed_ssb.py" --db "$DB" --shard-dir "$SHARD_DIR" --shards "$SHARDS" \
    --backend "$BACKEND" --threads "$THREADS" --gpus "$GPUS" --worker-concurrency "$WORKER_CONCURRENCY" \
    --json "$OUT/$name.json" "$@" 2>&1 | tee "$OUT/$name.txt"
}
rc=0
# The ceiling of a row split, without Ray: each query in-process on the whole and on one
# shard, planned every time (as before session 15) and from the plan cache.
for cache in off on; do
  stamp "ssb_inprocess.py: the whole database and shard 0 in one process, plan cache $cache"
  "$PY" "$P/python/benchmarks/ssb_inprocess.py" --backend "$BACKEND" --threads "$THREADS" --reps 10 \
    --plan-cache "$cache" --json "$OUT/inprocess_cache_$cache.json" "$DB" "$SHARD_DIR/shard_0" 2>&1 |
    tee "$OUT/inprocess_cache_$cache.txt" || rc=1
done
if [[ " $DIM_CACHE " == *" off "* ]]; then
  stamp "ssb_inprocess.py: plan cache on, cuda_dimension_cache off"
  "$PY" "$P/python/benchmarks/ssb_inprocess.py" --backend "$BACKEND" --threads "$THREADS" --reps 10 \
    --set cuda_dimension_cache=off --json "$OUT/inprocess_dimcache_off.json" "$DB" "$SHARD_DIR/shard_0" 2>&1 |
    tee "$OUT/inprocess_dimcache_off.txt" || rc=1
fi
cpu=()
[ "$CHECK_CPU" = 1 ] && cpu=(--check-cpu)
for dim in $DIM_CACHE; do
for style in $STYLES; do
  flags=(--set "cuda_dimension_cache=$dim")
  [ "$style" = serial ] && flags+=(--serial)
  tag=$style
  [ "$dim" = on ] || tag=${style}_dimcache_$dim
  if [ "$BATCH" != 1 ]; then
    bench "throughput_c${CONCURRENCY}_$tag" --concurrency "$CONCURRENCY" --rounds "$ROUNDS" "${flags[@]}" \
      "${cpu[@]}" || rc=1
    cpu=()  # the CPU comparison once is enough
  fi
  if [ "$BATCH" != 0 ]; then
    bench "throughput_c${CONCURRENCY}_${tag}_batch" --concurrency "$CONCURRENCY" --rounds "$ROUNDS" --batch \
      "${flags[@]}" "${cpu[@]}" || rc=1
    cpu=()
  fi
done
done
if [ "$LATENCY" = 1 ]; then
  bench latency --reps 5 || rc=1
fi
# One line: each run's throughput on $SHARDS GPUs over 1 GPU.
"$PY" - "$OUT" "$SHARDS" <<'PY' | tee "$OUT/summary.txt"
import glob, json, os, sys
out, shards = sys.argv[1], sys.argv[2]
parts = []
for path in sorted(glob.glob(os.path.join(out, "throughput_*.json"))):
    d = json.load(open(path))
    qps = [p["queries_per_second"] for p in d["phases"]]
    parts.append(f"{os.path.basename(path)[11:-5]} {d['speedup']}x ({qps[0]} -> {qps[-1]} q/s)")
print(f"summary: {shards} GPUs over 1 GPU: " + ("; ".join(parts) if parts else "no throughput run finished"))
PY
stamp "done (rc $rc); results in $OUT"
ls -la "$OUT"
exit $rc
