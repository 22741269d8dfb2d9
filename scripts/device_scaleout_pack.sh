#!/usr/bin/env bash
# Packs what the scale-out measurement (SSB over 1 and 2 GPUs through raydb.distributed)
# needs on a GPU machine that has Python 3.12 and pyarrow but no internet, no Ray and no
# sqlglot, into .xfer/scaleout (git-ignored; nothing of it is committed):
#   - raydb.tar.xz: the Python package with raydb._core built for CPython 3.12 with the
#     CUDA backend (build dir build-py312-cuda, ccache), and the shared libraries it needs
#     that a bare CUDA image lacks (Embree, TBB, fmt, xxhash, OpenMP; found with ldd);
#   - site.tar.xz: Ray, its dependencies and sqlglot for CPython 3.12 (pip download of
#     wheels here, installed into a folder with pip --target), without what a Ray actor
#     never loads (Java jars, the dashboard's source maps, RLlib/Tune/Train/Serve/LLM)
#     and with the native binaries' symbols stripped;
#   - python/benchmarks (distributed_ssb.py, its throughput module, ssb_inprocess.py), ssb/queries and
#     device_scaleout_run.sh, the script to run there (it generates SSB with
#     raydb.generate_ssb, so the raydb CLI and its Arrow/Parquet libraries stay here).
# Then, on the device, from the checkout that holds .xfer/scaleout:
#   bash .xfer/scaleout/device_scaleout_run.sh          (SF=40 BACKEND=cuda by default)
# PY312 names the Python 3.12 to build with (it needs nanobind: pip installs it when
# missing); XFER_DIR=/abs/path puts the pack elsewhere (it must lie under the checkout
# that travels, in its .xfer/).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
P=${XFER_DIR:-$PWD/.xfer/scaleout}
PY312=${PY312:-/root/.pyenv/versions/3.12.1/bin/python3.12}
BUILD=${BUILD_DIR:-build-py312-cuda}
RAY_VERSION=${RAY_VERSION:-$(python3 -c 'import ray; print(ray.__version__)' 2>/dev/null || echo 2.60.0)}
SQLGLOT_VERSION=${SQLGLOT_VERSION:-$(python3 -c 'import sqlglot; print(sqlglot.__version__)' 2>/dev/null || echo 30.30.0)}

"$PY312" -c 'import sys; assert sys.version_info[:2] == (3, 12), sys.version' ||
  { echo "error: PY312=$PY312 is not Python 3.12" >&2; exit 1; }
"$PY312" -c 'import nanobind' 2>/dev/null || "$PY312" -m pip install --quiet nanobind

# raydb._core for 3.12 with CUDA (the engine's objects come from ccache when build/ is current).
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  optix=()
  [ -d third_party/optix/include ] && optix=(-DOptiX_INSTALL_DIR="$PWD/third_party/optix")
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRAYDB_CUDA=ON -DRAYDB_PYTHON=ON \
    -DRAYDB_BUILD_TESTS=OFF -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DPython_EXECUTABLE="$PY312" "${optix[@]}"
fi
cmake --build "$BUILD" -j "${RAYDB_JOBS:-2}" --target _core
core=$(ls "$BUILD"/python/_core.cpython-312-*.so)

stage=$(mktemp -d /tmp/raydb-scaleout-pack.XXXXXX)
trap 'rm -rf "$stage"' EXIT
rm -rf "$P" && mkdir -p "$P/python/benchmarks" "$P/ssb" "$stage/raydb/pkg" "$stage/raydb/lib" "$stage/site" "$stage/whl"

cp -r python/raydb "$stage/raydb/pkg/"
find "$stage/raydb/pkg" -name __pycache__ -prune -exec rm -rf {} +
cp "$core" "$stage/raydb/pkg/raydb/"
ldd "$core" | awk '{print $3}' | grep '^/' | sort -u |
  grep -vE 'lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so|ld-linux' | xargs -r -I{} cp -L {} "$stage/raydb/lib/"
tar -C "$stage/raydb" -cf - pkg lib | xz -6 -T0 > "$P/raydb.tar.xz"

# Ray and sqlglot as wheels for CPython 3.12 on x86-64 Linux, installed into one folder.
"$PY312" -m pip download --quiet --only-binary=:all: --python-version 3.12 --platform manylinux2014_x86_64 \
  --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 -d "$stage/whl" \
  "ray==$RAY_VERSION" "sqlglot==$SQLGLOT_VERSION"
"$PY312" -m pip install --quiet --no-index --find-links "$stage/whl" --target "$stage/site" \
  "ray==$RAY_VERSION" "sqlglot==$SQLGLOT_VERSION"
rm -rf "$stage"/site/ray/{jars,rllib,tune,train,serve,llm} "$stage"/site/bin
find "$stage/site/ray/dashboard" -name '*.map' -delete
find "$stage/site" -name __pycache__ -prune -exec rm -rf {} +
strip --strip-unneeded "$stage/site/ray/_raylet.so" "$stage/site/ray/core/src/ray/gcs/gcs_server" \
  "$stage/site/ray/core/src/ray/raylet/raylet"
tar -C "$stage/site" -cf - . | xz -6 -T0 > "$P/site.tar.xz"

cp python/benchmarks/distributed_ssb.py python/benchmarks/ssb_throughput.py python/benchmarks/ssb_inprocess.py \
  "$P/python/benchmarks/"
cp -r ssb/queries "$P/ssb/"
cp scripts/device_scaleout_run.sh "$P/"
du -sh "$P"
du -b "$P"/*.tar.xz | awk '{s += $1} END {printf "archives: %.1f MB\n", s / 1e6}'
