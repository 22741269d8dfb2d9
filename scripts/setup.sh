#!/usr/bin/env bash
# Installs the Debian packages raydb needs (only those missing), then configures and
# builds a Release build into build/ (the binary is build/raydb).
#
#   bash scripts/setup.sh            # build everything (engine, CLI, tests)
#   bash scripts/setup.sh raydb      # build only the named targets
#
# Environment: RAYDB_JOBS (parallel build jobs, default: all cores),
# RAYDB_BUILD_DIR (default: build), RAYDB_NO_APT=1 (never call apt-get).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

required=(cmake ninja-build g++ libfmt-dev libcli11-dev nlohmann-json3-dev libreadline-dev libgtest-dev
          libsqlite3-dev libssl-dev libxxhash-dev libtbb-dev libembree-dev libbenchmark-dev python3 python3-pip
          postgresql-client libpq-dev  # raydb serve's tests (psql) and shell --server
          clang libclang-rt-dev libomp-dev  # libFuzzer targets (scripts/fuzz.sh)
          pkgconf)  # the installed package's pkg-config check (scripts/install_check.sh)
optional=(ccache)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if command -v dpkg-query >/dev/null 2>&1 && [ "${RAYDB_NO_APT:-0}" != 1 ]; then
  missing=()
  for p in "${required[@]}"; do installed "$p" || missing+=("$p"); done
  missing_optional=()
  for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done
  if [ "${#missing[@]}" -gt 0 ] || [ "${#missing_optional[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
      sudo=()
    elif command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      sudo=()
    fi
    if [ "$(id -u)" -ne 0 ] && [ "${#sudo[@]}" -eq 0 ]; then
      if [ "${#missing[@]}" -gt 0 ]; then
        echo "setup: missing packages: ${missing[*]} (run as root or install sudo)" >&2
        exit 1
      fi
    else
      echo "setup: installing ${missing[*]} ${missing_optional[*]}"
      "${sudo[@]}" apt-get update -qq
      if [ "${#missing[@]}" -gt 0 ]; then
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
      fi
      if [ "${#missing_optional[@]}" -gt 0 ]; then
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
          "${missing_optional[@]}" || echo "setup: optional ${missing_optional[*]} not installed (fine)"
      fi
    fi
  fi
elif [ "${RAYDB_NO_APT:-0}" != 1 ]; then
  echo "setup: not a Debian system (no dpkg-query); assuming the dependencies are installed" >&2
fi

# Python oracle for the SQL SQLite lacks (order statistics): DuckDB from PyPI. Debian's
# own python3 refuses user installs into it (PEP 668) unless told to.
if [ "${RAYDB_NO_PIP:-0}" != 1 ] && ! python3 -c "import duckdb" >/dev/null 2>&1; then
  echo "setup: installing the duckdb Python package (test oracle)"
  python3 -m pip install --quiet duckdb 2>/dev/null || python3 -m pip install --quiet --break-system-packages duckdb ||
    echo "setup: duckdb not installed; the DuckDB oracle tests will report Skipped" >&2
fi

# The Python package (scripts/python_test.sh, README "Python"): its build tools and what
# it and its tests use, from PyPI, only those missing.
if [ "${RAYDB_NO_PIP:-0}" != 1 ]; then
  py_missing=()
  for m in scikit_build_core:scikit-build-core nanobind:nanobind pyarrow:pyarrow pandas:pandas polars:polars \
           pytest:pytest psycopg:psycopg[binary] ray:ray sqlglot:sqlglot; do  # ray, sqlglot: raydb.distributed
    python3 -c "import ${m%%:*}" >/dev/null 2>&1 || py_missing+=("${m#*:}")
  done
  if [ "${#py_missing[@]}" -gt 0 ]; then
    echo "setup: installing Python packages ${py_missing[*]}"
    python3 -m pip install --quiet "${py_missing[@]}" 2>/dev/null ||
      python3 -m pip install --quiet --break-system-packages "${py_missing[@]}" ||
      echo "setup: Python packages not installed; the Python tests will fail" >&2
  fi
fi

# ccache finds objects by their compile lines; with paths relative to the checkout, the
# Python package's build (build-python/) reuses build/'s objects.
if command -v ccache >/dev/null 2>&1 && [ -z "${CCACHE_BASEDIR:-}" ] && [ -z "$(ccache -k base_dir 2>/dev/null)" ]; then
  export CCACHE_BASEDIR="$PWD"
fi

build_dir="${RAYDB_BUILD_DIR:-build}"
jobs="${RAYDB_JOBS:-$(nproc)}"
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
fi
if [ "$#" -gt 0 ]; then
  cmake --build "$build_dir" -j "$jobs" --target "$@"
else
  cmake --build "$build_dir" -j "$jobs"
fi
