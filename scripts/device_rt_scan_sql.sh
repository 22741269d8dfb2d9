#!/usr/bin/env bash
# RT scan behind SQL on the GPU machine: the SQL tests (tests/e2e/rt_scan_sql_test.cpp
# and the other index tests) with a CUDA backend present, the RT scan cases on OptiX,
# and the GPU index tests. Pack here, run there:
#   XFER_DIR=CHECKOUT/.xfer/rtscan bash scripts/device_rt_scan_sql.sh pack BUILD_DIR
#   run(command="bash .xfer/rtscan/scripts/device_rt_scan_sql.sh run", carry=[".xfer/rtscan"])
# The device call sends the session's main checkout, so the bundle must lie in it
# (XFER_DIR; default: this checkout's .xfer/rtscan).
set -uo pipefail
if [ "${1:-}" = pack ]; then
  ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  BUILD=$(cd "${2:?build dir}" && pwd)
  B=${XFER_DIR:-$ROOT/.xfer/rtscan}
  rm -rf "$B" && mkdir -p "$B/bin/tests" "$B/lib" "$B/scripts"
  cp "$BUILD/raydb" "$B/bin/" && for t in test_e2e test_gpu test_rt_optix; do cp "$BUILD/tests/$t" "$B/bin/tests/"; done
  cp "$0" "$B/scripts/"
  for f in "$B"/bin/raydb "$B"/bin/tests/*; do ldd "$f"; done | awk '{print $3}' | grep '^/' | sort -u |
    grep -vE 'lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so|ld-linux' | xargs -r -I{} cp -L {} "$B/lib/"
  gzip -9 "$B"/lib/* "$B"/bin/raydb "$B"/bin/tests/*
  echo "$BUILD" > "$B/build_dir"
  du -sh "$B"
  exit 0
fi
B=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)  # .xfer/rtscan
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
BUILD=$(cat "$B/build_dir")
# The test binaries name raydb by its build path here.
mkdir -p "$BUILD/tests" && for f in "$B"/bin/raydb.gz; do gunzip -c "$f" > "$BUILD/raydb"; done
for f in "$B"/bin/tests/*.gz; do gunzip -c "$f" > "$BUILD/tests/$(basename "$f" .gz)"; done
chmod +x "$BUILD/raydb" "$BUILD"/tests/*
mkdir -p /tmp/raydb-lib && for f in "$B"/lib/*.gz; do gunzip -c "$f" > "/tmp/raydb-lib/$(basename "$f" .gz)"; done
export LD_LIBRARY_PATH=/tmp/raydb-lib:${LD_LIBRARY_PATH:-}
export RAYDB_CALIBRATION=/tmp/none/calibration.json  # compiled-in defaults
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
"$BUILD/raydb" info > "$OUT/info.txt" 2>&1
cd /tmp
timeout 200 "$BUILD/tests/test_e2e" --gtest_filter='RtScanSql*:IndexCatalog*:IndexPaths*:CliBenchQuery*' > "$OUT/test_e2e.txt" 2>&1
echo "rc=$?" >> "$OUT/test_e2e.txt"
timeout 150 "$BUILD/tests/test_rt_optix" --gtest_filter='*RtScan*' > "$OUT/test_rt_optix.txt" 2>&1
echo "rc=$?" >> "$OUT/test_rt_optix.txt"
timeout 150 "$BUILD/tests/test_gpu" --gtest_filter='*Index*' > "$OUT/test_gpu.txt" 2>&1
echo "rc=$?" >> "$OUT/test_gpu.txt"
for f in test_e2e test_rt_optix test_gpu; do echo "== $f"; grep -E "^\[  (PASSED|FAILED) |^rc=|tests ran|SKIPPED \]" "$OUT/$f.txt" | head -20; done
