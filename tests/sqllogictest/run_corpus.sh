#!/usr/bin/env bash
# The optional `slow` CTest over SQLite's public sqllogictest corpus (never part of this
# repository): RAYDB_SLT_CORPUS names a checkout's test/ folder (holding select1.test ..
# select5.test, random/ and index/). Without it the test is skipped (exit 77).
# RAYDB_SLT_LIMIT_FILES (default 40) samples random/ and index/, spread evenly over their
# subfolders; RAYDB_SLT_MAX_QUERIES (default 0: all) caps queries per file;
# RAYDB_SLT_BUDGET_S (default 1800) stops starting files after that many seconds.
# Passes when at least RAYDB_SLT_MIN_PASS (default 99) percent of the queries pass.
set -euo pipefail
runner=$1
corpus=${RAYDB_SLT_CORPUS:-}
if [[ -z "$corpus" ]]; then
  echo "skipped: set RAYDB_SLT_CORPUS to the test/ folder of a sqllogictest corpus checkout"
  exit 77
fi
[[ -f "$corpus/select1.test" ]] || { echo "error: $corpus has no select1.test (RAYDB_SLT_CORPUS must name the corpus's test/ folder)"; exit 1; }
args=(--corpus --show-failures 3 --min-pass-rate "${RAYDB_SLT_MIN_PASS:-99}"
      --limit-files "${RAYDB_SLT_LIMIT_FILES:-40}" --max-queries "${RAYDB_SLT_MAX_QUERIES:-0}"
      --time-budget "${RAYDB_SLT_BUDGET_S:-1800}")
paths=()
for f in select1 select2 select3 select4 select5; do paths+=("$corpus/$f.test"); done
for d in random index; do [[ -d "$corpus/$d" ]] && paths+=("$corpus/$d"); done
exec "$runner" "${args[@]}" "${paths[@]}"
