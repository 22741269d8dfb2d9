#!/usr/bin/env bash
# compute-sanitizer over the GPU test binaries (issue 14): --tool memcheck and --tool
# racecheck each run test_gpu and test_rt_optix, and one summary line per tool and
# binary says what it found. Opt-in; run on the GPU machine, from a bundle of
# scripts/device_bundle.sh (device_run.sh calls it with SANITIZE=1) or from a checkout
# with a CUDA build (TESTS=build/tests).
#
#   SAN_FILTER='GpuEdges.*' bash scripts/device_sanitize.sh
#
# Environment: TESTS (folder of test_gpu / test_rt_optix; default: the bundle's, else
# build/tests), SAN_TOOLS (default "memcheck racecheck"), SAN_BINARIES (default
# "test_gpu test_rt_optix"), SAN_FILTER (gtest filter for test_gpu, default a short
# set so each tool finishes in minutes), SAN_RT_FILTER (the same for test_rt_optix,
# default '*'), SAN_TIMEOUT (seconds per run, default 600), OUT (logs; default
# /tmp/out). Exit 0 when every run reports 0 errors and its tests pass, 1 when any
# run reports errors or fails, 2 when the tool or a binary is missing (nothing ran).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
if [ -z "${TESTS:-}" ]; then
  if [ -f "$here/../source_dir" ]; then
    source "$here/device_unpack.sh"  # a bundle: sets T and LD_LIBRARY_PATH
    TESTS=$T
  else
    TESTS="$here/../build/tests"
  fi
fi
SAN=""
for c in "${COMPUTE_SANITIZER:-}" "$(command -v compute-sanitizer 2>/dev/null)" \
         /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  if [ -n "$c" ] && [ -x "$c" ]; then SAN=$c; break; fi
done
if [ -z "$SAN" ]; then
  echo "device_sanitize: compute-sanitizer not found (PATH, /usr/local/cuda/bin); set COMPUTE_SANITIZER" >&2
  exit 2
fi
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "device_sanitize: no CUDA device (nvidia-smi -L failed): nothing to sanitize" >&2
  exit 2
fi
"$SAN" --version 2>&1 | tail -1 > "$OUT/sanitize_version.txt"
# The default test_gpu filter: edge cases, query shapes, hash join, hash group and index kinds
# at their small sizes (the whole binary takes long under memcheck).
FILTER=${SAN_FILTER:-GpuEdges*:GpuShapes*:GpuHashJoin*:GpuHashGroup*:GpuIndexKinds*}
RT_FILTER=${SAN_RT_FILTER:-*}
status=0
summary=()
for bin in ${SAN_BINARIES:-test_gpu test_rt_optix}; do
  if [ ! -x "$TESTS/$bin" ]; then
    summary+=("$bin: missing in $TESTS (not run)")
    status=2
    continue
  fi
  filter=$FILTER
  [ "$bin" = test_rt_optix ] && filter=$RT_FILTER
  for tool in ${SAN_TOOLS:-memcheck racecheck}; do
    log="$OUT/sanitize_${tool}_${bin}.txt"
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    # --error-exitcode tells sanitizer findings (99) from failing tests (1) and timeouts (124).
    timeout "${SAN_TIMEOUT:-600}" "$SAN" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$TESTS/$bin" --gtest_filter="$filter" > "$log" 2>&1
    rc=$?
    found=$(grep -E "^========= (ERROR|RACECHECK) SUMMARY" "$log" | tail -1 | sed 's/^========= //')
    tests=$(grep -E "^\[  PASSED  \]|^\[  FAILED  \] [0-9]|^\[  SKIPPED \] [0-9]" "$log" | tr '\n' ' ')
    case $rc in
      0) verdict="clean" ;;
      99) verdict="FINDINGS"; status=1 ;;
      124) verdict="TIMEOUT after ${SAN_TIMEOUT:-600} s"; status=1 ;;
      *) verdict="FAILED (exit $rc)"; status=1 ;;
    esac
    summary+=("$tool $bin [$filter]: $verdict; ${found:-no sanitizer summary}; ${tests:-no gtest summary}")
  done
done
echo "== compute-sanitizer summary ($(cat "$OUT/sanitize_version.txt"))"
printf '%s\n' "${summary[@]}" | tee "$OUT/sanitize_summary.txt"
exit $status
