#!/usr/bin/env bash
# After scripts/device_run.sh in the same device call (it generates /tmp/ssb$SF and
# puts the binaries in place): SSB on the CUDA backend once per variant given as
# NAME=ENV[,ENV...] arguments (e.g. blocked=RAYDB_CUDA_LAYOUT=b), and optionally
# Nsight Compute on the fact kernel of the queries in $NCU_QUERIES. Each variant's
# table goes to $OUT/variant-NAME.txt; a summary of the sums prints last.
set -uo pipefail
B=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-/tmp/out}
SRC=$(cat "$B/source_dir")
export LD_LIBRARY_PATH=/tmp/raydb-lib:${LD_LIBRARY_PATH:-}
R=$SRC/build/raydb
SF=${SF:-20}
for v in "$@"; do
  name=${v%%=*}
  envs=${v#*=}
  ( IFS=,; for e in $envs; do export "$e"; done
    timeout 120 "$R" bench ssb --backend cuda --db /tmp/ssb$SF --reps 10 > "$OUT/variant-$name.txt" 2>&1 )
done
if [ -n "${NCU_QUERIES:-}" ]; then
  NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  for q in $NCU_QUERIES; do
    timeout 120 "$NCU" --clock-control none --kernel-name regex:star_kernel --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
      --section WarpStateStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis \
      --section InstructionStats --section SourceCounters \
      "$R" query --db /tmp/ssb$SF --backend cuda -f "$SRC/ssb/queries/$q.sql" > "$OUT/ncu-$q.txt" 2>&1
  done
fi
if [ "${SASS:-0}" = 1 ]; then  # the fact kernels' machine code, for instruction counts
  CUOBJDUMP=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null | head -1)
  "$CUOBJDUMP" -sass "$R" 2>/dev/null | awk '/Function :/ {p = ($0 ~ /star_kernel/)} p' | gzip > "$OUT/sass-star.txt.gz"
fi
echo "== VARIANTS (sum of medians, ms)"
for v in "$@"; do
  name=${v%%=*}
  printf '%-12s %s\n' "$name" "$(grep -E '^sum' "$OUT/variant-$name.txt" | awk '{print $2}')"
  grep -E '^q[0-9]' "$OUT/variant-$name.txt" | awk '{printf "%s %s  ", $1, $2} END {print ""}'
done
for q in ${NCU_QUERIES:-}; do
  echo "-- ncu $q"; grep -E "Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Stall|Sectors/Req" "$OUT/ncu-$q.txt" | head -24
done
