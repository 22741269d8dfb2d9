#!/usr/bin/env bash
# Coverage-guided fuzzing (issue 14): builds the libFuzzer targets of tests/fuzz with
# clang in build-fuzz/ (-DRAYDB_LIBFUZZER=ON: coverage instrumentation, ASan and UBSan in
# every library they link) and runs each for a while from its committed seed corpus
# (tests/fuzz/corpus/<target>; new inputs go to build-fuzz/corpus/<target>, never into
# the repository), after replaying tests/fuzz/regressions/<target> (inputs that once
# crashed). A crash, sanitizer report, leak or finding of a target's own checks fails
# the run; libFuzzer leaves the input as build-fuzz/crash-* (reproduce with
# build-fuzz/fuzz/fuzz_<target> <file>).
#
#   bash scripts/fuzz.sh            # 20 s per target (the CI budget)
#   FUZZ_SECONDS=600 FUZZ_TARGETS="sql" bash scripts/fuzz.sh
#
# Environment: FUZZ_SECONDS (per target, default 20), FUZZ_TARGETS (default "sql csv
# manifest"), RAYDB_JOBS (build jobs, default nproc), CXX (default clang++). Prints one
# summary line per target (runs, coverage, corpus size) and exits non-zero on failure.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${FUZZ_SECONDS:-20}
jobs=${RAYDB_JOBS:-$(nproc)}
cxx=${CXX_FUZZ:-clang++}
if ! command -v "$cxx" > /dev/null 2>&1; then
  echo "fuzz.sh: $cxx not found (libFuzzer needs clang; apt install clang)" >&2
  exit 1
fi
generator=()
if command -v ninja > /dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  mkdir -p build-fuzz
  CC=${CC_FUZZ:-clang} CXX=$cxx cmake -S . -B build-fuzz "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRAYDB_CUDA=OFF -DRAYDB_BUILD_TESTS=OFF -DRAYDB_LIBFUZZER=ON > build-fuzz/configure.log 2>&1 ||
    { cat build-fuzz/configure.log >&2; echo "fuzz.sh: configure failed" >&2; exit 1; }
fi
cmake --build build-fuzz -j "$jobs" --target fuzz_targets || { echo "fuzz.sh: build failed" >&2; exit 1; }
# Findings abort; leaks count; OpenMP's one worker keeps runs comparable.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export OMP_NUM_THREADS=1
failed=0
summary=()
for t in ${FUZZ_TARGETS:-sql csv manifest}; do
  bin=build-fuzz/fuzz/fuzz_$t
  log=build-fuzz/fuzz_$t.log
  if [ -d "tests/fuzz/regressions/$t" ] && [ -n "$(ls -A "tests/fuzz/regressions/$t")" ]; then
    if ! "$bin" -runs=0 "tests/fuzz/regressions/$t" > "$log.regressions" 2>&1; then
      tail -30 "$log.regressions"
      summary+=("$t: a regression input fails again (see $log.regressions)")
      failed=1
      continue
    fi
  fi
  mkdir -p "build-fuzz/corpus/$t"
  (cd build-fuzz && "./fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
     -print_final_stats=1 "corpus/$t" "../tests/fuzz/corpus/$t") > "$log" 2>&1
  rc=$?
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$")
  cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*" "$log" | tail -1)
  if [ $rc -ne 0 ]; then
    tail -40 "$log"
    summary+=("$t: FAILED (exit $rc) after ${runs:-?} runs; input: $(ls -t build-fuzz/crash-* build-fuzz/leak-* build-fuzz/timeout-* build-fuzz/oom-* 2>/dev/null | head -1)")
    failed=1
  else
    summary+=("$t: ok, ${runs:-?} runs in ${seconds} s, ${cov:-no stats}")
  fi
done
echo "== libFuzzer summary"
printf '%s\n' "${summary[@]}"
exit $failed
