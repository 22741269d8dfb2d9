#!/usr/bin/env bash
# Builds and installs the raydb Python package (`pip install .`: scikit-build-core and
# nanobind over the engine's CMake targets, build directory build-python/) and runs its
# pytest suite (python/tests) against SQLite and DuckDB. scripts/test.sh runs it after
# the Release suite; scripts/setup.sh installs the Python packages it needs.
#
# The engine's objects come from ccache: the compiler and CUDA choice are taken from
# build/ (RAYDB_BUILD_DIR), and with a ccache base_dir above the checkout the compile
# lines in build-python/ equal those in build/. The package goes to build-pysite/ (pip
# --target); RAYDB_PY_SKIP_INSTALL=1 tests what is there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir="${RAYDB_BUILD_DIR:-build}"
cache="$build_dir/CMakeCache.txt"
if [ -f "$cache" ]; then
  cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")
  cuda=$(sed -n 's/^RAYDB_CUDA:[A-Z]*=//p' "$cache")
  if [ -n "$cxx" ] && [ -z "${CXX:-}" ]; then export CXX="$cxx"; fi
  if [ -n "$cuda" ] && [ -z "${RAYDB_CUDA:-}" ]; then export RAYDB_CUDA="$cuda"; fi
fi
if command -v ccache >/dev/null 2>&1 && [ -z "${CCACHE_BASEDIR:-}" ] && [ -z "$(ccache -k base_dir 2>/dev/null)" ]; then
  export CCACHE_BASEDIR="$PWD"  # setup.sh sets the same for build/
fi
export CMAKE_BUILD_PARALLEL_LEVEL="${RAYDB_JOBS:-$(nproc)}"

# Installed into this checkout (build-pysite/), not into the system's site-packages:
# checkouts testing side by side on one machine must not import each other's build.
site="$PWD/build-pysite"
if [ "${RAYDB_PY_SKIP_INSTALL:-0}" != 1 ]; then
  start=$SECONDS
  python3 -m pip install --quiet --no-build-isolation --no-deps --upgrade --target "$site" .
  echo "python_test: pip install . took $((SECONDS - start)) s"
fi
RAYDB_CLI="$PWD/$build_dir/raydb" PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" \
  python3 -m pytest -q -p no:cacheprovider python/tests
