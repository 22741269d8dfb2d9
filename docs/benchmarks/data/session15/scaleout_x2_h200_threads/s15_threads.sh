#!/usr/bin/env bash
# Session 15: the overlapped, batched throughput run with fewer host threads per worker (the
# 2-GPU phase has 2 workers x 4 statements x THREADS OpenMP threads on 32 cores), and with
# OMP_WAIT_POLICY=passive, each 1 GPU against 2 in one invocation.
set -uo pipefail
O=${OUT:-/tmp/out}
for cfg in "8 passive" "4 active" "2 active"; do
  set -- $cfg
  mkdir -p "$O/t$1_$2"
  OMP_WAIT_POLICY=$2 OUT="$O/t$1_$2" THREADS=$1 STYLES=overlap BATCH=1 CHECK_CPU=0 BUDGET=500 \
    bash .xfer/scaleout/device_scaleout_run.sh 2>&1 | grep -E "summary|queries/s|ssb_inprocess|in the engine|generate_ssb|shard_database"
done
