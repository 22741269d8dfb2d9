#!/usr/bin/env bash
# Installs a built raydb into a temporary prefix (cmake --install) and builds and runs
# examples/embed against it twice: through the CMake package (find_package(raydb)) and
# through pkg-config. Neither sees the source tree, so the installed headers must be
# self-contained. Non-zero exit on any failure.
#
#   bash scripts/install_check.sh [BUILD_DIR]     # default: build
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir="${1:-build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi

cmake --build "$build_dir" --target raydb raydb_shared -j "${RAYDB_JOBS:-2}" >/dev/null
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
for f in bin/raydb include/raydb/raydb.h include/raydb/internal/common/error.h lib/cmake/raydb/raydbConfig.cmake \
         lib/pkgconfig/raydb.pc; do
  [ -e "$prefix/$f" ] || { echo "install_check: $f was not installed" >&2; exit 1; }
done
"$prefix/bin/raydb" info >/dev/null

echo "install_check: find_package(raydb)"
cmake -S examples/embed -B "$work/cmake" "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/raydb_embed_example" "$work/db1"

echo "install_check: pkg-config"
flags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs raydb)"
# shellcheck disable=SC2086  # the flags are words
g++ -std=c++20 -O1 examples/embed/main.cpp -o "$work/pc_example" $flags -Wl,-rpath,"$prefix/lib"
"$work/pc_example" "$work/db2"
echo "install_check: ok"
