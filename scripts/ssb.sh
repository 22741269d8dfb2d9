#!/usr/bin/env bash
# The main job: installs what is missing, builds raydb, then `raydb ssb` generates the
# Star Schema Benchmark at SF 1 into ./data/ssb-sf1 (once), runs its 13 queries on the
# best backend of this machine and prints the results and a timing table.
# Extra arguments go to `raydb ssb` (see `build/raydb ssb --help`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh raydb
exec build/raydb ssb "$@"
