#!/usr/bin/env bash
# compute-sanitizer over the GPU test binaries (issue 14): --tool memcheck (with
# --leak-check full) and --tool racecheck each run test_gpu and test_rt_optix, one
# sanitizer process per test suite (gtest's Suite.*), SAN_JOBS of them at a time, each
# under its own timeout, so a slow suite does not hide the others' verdicts. One line
# per tool, binary and suite, and one total per tool and binary, say what was found.
# Opt-in; run on the GPU machine, from a bundle of scripts/device_bundle.sh
# (device_run.sh calls it with SANITIZE=1) or from a checkout with a CUDA build
# (TESTS=build/tests).
#
#   SAN_FILTER='GpuEdges.*' bash scripts/device_sanitize.sh
#
# Environment: TESTS (folder of test_gpu / test_rt_optix; default: the bundle's, else
# build/tests), SAN_TOOLS (default "memcheck racecheck"), SAN_BINARIES (default
# "test_gpu test_rt_optix"), SAN_FILTER / SAN_RT_FILTER (gtest filters selecting the
# suites of test_gpu / test_rt_optix, default '*': every suite), SAN_SPLIT (suites run
# test by test, default "GpuEdges GpuHashGroup GpuHashJoin GpuSqlFuzz"),
# SAN_FUZZ_QUERIES (GpuSqlFuzz's queries per schema, default 250), SAN_JOBS (parallel
# sanitizer processes, default 6), SAN_TIMEOUT (seconds per suite, default 600), OUT
# (logs; default /tmp/out). The GPU test binaries free the process's device caches
# after their last test (tests/support/release_device_environment.h), so the leak check
# sees only memory that something still holds. Exit 0 when every run reports 0 errors
# and its tests pass, 1 when any run reports errors, fails or times out, 2 when the
# tool or a binary is missing (nothing ran).
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
FILTER=${SAN_FILTER:-*}
RT_FILTER=${SAN_RT_FILTER:-*}
JOBS=${SAN_JOBS:-6}
SPLIT=${SAN_SPLIT:-GpuEdges GpuHashGroup GpuHashJoin GpuSqlFuzz}
# The GPU differential fuzzer's queries per schema under the tools (1,000 without them).
export RAYDB_FUZZ_GPU_QUERIES=${SAN_FUZZ_QUERIES:-250}
TIMEOUT=${SAN_TIMEOUT:-600}

# One suite under one tool: the log, then one verdict line in "$OUT/san_<tool>_<bin>.lines".
run_suite() {
  local tool=$1 bin=$2 suite=$3  # suite: a gtest filter, "Suite.*" or "Suite.Test"
  local name=${suite//\//_}
  name=${name//\*/all}
  local log="$OUT/sanitize_${tool}_${bin}_${name}.txt"
  local extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  local t0=$SECONDS
  # --error-exitcode tells sanitizer findings (99) from failing tests (1) and timeouts (124).
  timeout "$TIMEOUT" "$SAN" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
    "$TESTS/$bin" --gtest_filter="$suite" > "$log" 2>&1
  local rc=$? verdict
  local found tests
  found=$(grep -E "^========= (ERROR|RACECHECK) SUMMARY" "$log" | tail -1 | sed 's/^========= //')
  tests=$(grep -E "^\[  PASSED  \]|^\[  FAILED  \] [0-9]|^\[  SKIPPED \] [0-9]" "$log" | tr '\n' ' ')
  case $rc in
    0) verdict="clean" ;;
    99) verdict="FINDINGS" ;;
    124) verdict="TIMEOUT after ${TIMEOUT} s" ;;
    *) verdict="FAILED (exit $rc)" ;;
  esac
  echo "$tool $bin $suite: $verdict; ${found:-no sanitizer summary}; ${tests:-no gtest summary}; $((SECONDS - t0)) s" \
    >> "$OUT/san_${tool}_${bin}.lines"
}
export -f run_suite
export SAN OUT TESTS TIMEOUT

status=0
summary=()
jobs=()
declare -A suite_count
for bin in ${SAN_BINARIES:-test_gpu test_rt_optix}; do
  if [ ! -x "$TESTS/$bin" ]; then
    summary+=("$bin: missing in $TESTS (not run)")
    status=2
    continue
  fi
  filter=$FILTER
  [ "$bin" = test_rt_optix ] && filter=$RT_FILTER
  # Suite names as gtest lists them ("Ssb/GpuSsb." for parameterized ones).
  mapfile -t suites < <("$TESTS/$bin" --gtest_list_tests --gtest_filter="$filter" | grep -E '^[A-Za-z0-9_/]+\.( |$)' | sed 's/\. .*//; s/\.$//')
  # Units of work: a whole suite ("Suite.*"), or each test of the suites in SAN_SPLIT
  # (the long ones, so their tests run side by side).
  units=()
  for suite in "${suites[@]}"; do
    if [[ " $SPLIT " == *" $suite "* ]]; then
      # The tests of this suite that the filter selects.
      while read -r t; do units+=("$suite.$t"); done < <("$TESTS/$bin" --gtest_list_tests --gtest_filter="$filter" |
        awk -v s="$suite." '/^[^ ]/ { cur = $1 } /^  / && cur == s { print $1 }')
    else
      units+=("$suite.*")
    fi
  done
  if [ ${#suites[@]} = 0 ]; then
    summary+=("$bin: no test suite matches the filter '$filter' (not run)")
    status=2
    continue
  fi
  for tool in ${SAN_TOOLS:-memcheck racecheck}; do
    rm -f "$OUT/san_${tool}_${bin}.lines"
    suite_count[$tool $bin]=${#units[@]}
    for unit in "${units[@]}"; do jobs+=("$tool $bin $unit"); done
  done
done
# Every (tool, binary, suite) in one pool, so both tools share the machine's cores.
# The split (long) units first, so they do not start last.
{ printf '%s\n' "${jobs[@]}" | grep -v '\*$'; printf '%s\n' "${jobs[@]}" | grep '\*$'; } | xargs -r -P "$JOBS" -L 1 bash -c 'run_suite "$@"' _
for key in "${!suite_count[@]}"; do
  read -r tool bin <<< "$key"
  lines="$OUT/san_${tool}_${bin}.lines"
  touch "$lines"
  sort -o "$lines" "$lines"
  clean=$(grep -c ": clean;" "$lines")
  [ "$clean" = "${suite_count[$key]}" ] || status=1
  summary+=("$tool $bin: $clean of ${suite_count[$key]} runs clean")
  while read -r l; do case $l in *": clean;"*) ;; *) summary+=("  $l") ;; esac; done < "$lines"
done
echo "== compute-sanitizer summary ($(cat "$OUT/sanitize_version.txt"))"
printf '%s\n' "${summary[@]}" | tee "$OUT/sanitize_summary.txt"
cat "$OUT"/san_*.lines > "$OUT/sanitize_suites.txt" 2>/dev/null
exit $status
