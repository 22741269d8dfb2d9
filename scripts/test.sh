#!/usr/bin/env bash
# Builds raydb and runs the default test suite (everything but the `slow` label) and the
# installed-package example (scripts/install_check.sh), then
# repeats it in an AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/),
# leaving out the `release_only` label (tests too slow under the sanitizers).
# Between the two, the Python package is built with pip and its pytest suite runs
# (scripts/python_test.sh; RAYDB_SKIP_PYTHON=1 skips it). Skip the sanitizer pass with
# RAYDB_SKIP_SANITIZE=1. Last, the libFuzzer targets (scripts/fuzz.sh: a clang build in
# build-fuzz/, 20 s per target under ASan + UBSan; RAYDB_SKIP_FUZZ=1 skips it, and it is
# skipped with a note when clang is missing). Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="${RAYDB_JOBS:-$(nproc)}"
start=$SECONDS
failed=0

stamp() { echo "== $1 ($((SECONDS - start)) s)"; }

stamp "setup and Release build"
bash scripts/setup.sh || { echo "test.sh: setup or build failed" >&2; exit 1; }

stamp "default suite (Release)"
ctest --test-dir build -LE slow --output-on-failure -j "$jobs" || failed=1

stamp "installed package (cmake --install, examples/embed through find_package and pkg-config)"
bash scripts/install_check.sh build || failed=1

if [ "${RAYDB_SKIP_PYTHON:-0}" != 1 ]; then
  # Release only: a sanitizer-instrumented engine cannot be loaded into python3.
  stamp "Python package (pip install .) and its tests"
  bash scripts/python_test.sh || failed=1
fi

if [ "${RAYDB_SKIP_SANITIZE:-0}" != 1 ]; then
  stamp "sanitizer build (ASan + UBSan)"
  generator=()
  if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
  # CUDA off here: no GPU in CI, and the sanitizers do not instrument device code.
  if [ ! -f build-asan/CMakeCache.txt ]; then
    cmake -S . -B build-asan "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug -DRAYDB_SANITIZE=ON -DRAYDB_CUDA=OFF || exit 1
  fi
  if cmake --build build-asan -j "$jobs"; then
    stamp "default suite (sanitizers)"
    # Findings abort the process, so the test fails; children (the raydb CLI) inherit this.
    ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      ctest --test-dir build-asan -LE 'slow|release_only' --output-on-failure -j "$jobs" || failed=1
  else
    echo "test.sh: sanitizer build failed" >&2
    failed=1
  fi
fi

if [ "${RAYDB_SKIP_FUZZ:-0}" != 1 ]; then
  if command -v clang++ >/dev/null 2>&1; then
    stamp "libFuzzer targets (clang, ASan + UBSan)"
    RAYDB_JOBS="$jobs" bash scripts/fuzz.sh || failed=1
  else
    echo "test.sh: clang++ not found: libFuzzer targets SKIPPED (apt install clang)"
  fi
fi

stamp "done"
if [ "$failed" -ne 0 ]; then
  echo "test.sh: FAILED" >&2
  exit 1
fi
echo "test.sh: all passed"
