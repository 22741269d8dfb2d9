#!/usr/bin/env python3
"""Runs the 22 TPC-H queries (tpch/queries/q*.sql, the specification's default
substitution parameters) on a raydb database and compares each answer with the
reference answers published with the TPC-H kit (answers/q1.out ... q22.out, read
from a directory the user gives; they are not part of raydb).

The comparison follows the precision rules of the specification (clause 2.1.3.5),
column by column:
  str  text, equal after trimming the padding of the answer files
  int  integers and singleton values, equal
  cnt  COUNT results, equal
  num  decimal values, equal when rounded to the cent
  sum  SUMs of money, within $100
  avg  averages, within 1% when rounded to 1/100
  rat  ratios (percentages), within 1% when rounded to 1/100
Each query's column kinds are listed below (QUERY_COLUMNS). A query also reports
whether every value was equal at the answer file's printed precision ("exact").

usage: tools/tpch_check_answers.py --db DIR --answers DIR [--raydb BIN] [--markdown FILE]
--db and --answers default to $RAYDB_TPCH_SF1_DB and $RAYDB_TPCH_ANSWERS; without
them the script exits 77 (skipped), as the `slow` CTest test tpch_kit_answers expects.
"""
import argparse
import csv
import io
import os
import subprocess
import sys
import time
from decimal import Decimal, ROUND_HALF_UP

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

QUERY_COLUMNS = {
    1: "str str sum sum sum sum avg avg avg cnt",
    2: "num str str int str str str str",
    3: "int sum str int",
    4: "str cnt",
    5: "str sum",
    6: "sum",
    7: "str str int sum",
    8: "int rat",
    9: "str int sum",
    10: "int str sum num str str str str",
    11: "int sum",
    12: "str cnt cnt",
    13: "cnt cnt",
    14: "rat",
    15: "int str str str sum",
    16: "str str int cnt",
    17: "avg",
    18: "str int int str num num",
    19: "sum",
    20: "str str",
    21: "str cnt",
    22: "str cnt sum",
}


def cents(text):
    return Decimal(text).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def within(kind, expected, actual):
    """(ok under the rules, equal at the answer's printed precision)"""
    if kind == "str":
        return expected == actual, expected == actual
    if kind in ("int", "cnt"):
        ok = Decimal(expected) == Decimal(actual)
        return ok, ok
    e, a = Decimal(expected), Decimal(actual)
    places = Decimal(1).scaleb(-max(0, -e.as_tuple().exponent))
    exact = a.quantize(places, rounding=ROUND_HALF_UP) == e
    if kind == "num":
        return cents(expected) == cents(actual), exact
    if kind == "sum":
        return abs(e - a) <= 100, exact
    # avg, rat: within 1% at 1/100 precision
    ce, ca = cents(expected), cents(actual)
    return (abs(ce - ca) <= abs(ce) / 100) if ce != 0 else ca == 0, exact


def read_answer(path):
    with open(path, encoding="latin-1") as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    return [[c.strip() for c in l.split("|")] for l in lines[1:]]


def run_query(raydb, db, sql_file):
    start = time.time()
    r = subprocess.run([raydb, "query", "--db", db, "--format", "csv", "-f", sql_file],
                       capture_output=True, text=True, env=dict(os.environ, RAYDB_QUIET="1"))
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}", 0
    rows = list(csv.reader(io.StringIO(r.stdout)))
    return [[c.strip() for c in row] for row in rows[1:]], "", time.time() - start


def compare(q, expected, actual):
    """(violations of the rules, values equal under the rules but not at the answer's precision)"""
    kinds = QUERY_COLUMNS[q].split()
    violations, inexact = [], []
    if len(expected) != len(actual):
        violations.append(f"{len(actual)} rows, the answer has {len(expected)}")
    for i, (e, a) in enumerate(zip(expected, actual)):
        if len(e) != len(kinds) or len(a) != len(kinds):
            violations.append(f"row {i + 1}: {len(a)} columns, expected {len(kinds)}")
            continue
        for c, kind in enumerate(kinds):
            ok, same = within(kind, e[c], a[c])
            where = f"row {i + 1} ({', '.join(e[:c][:2])}) column {c + 1} ({kind}): answer {e[c]}, raydb {a[c]}"
            if not ok:
                violations.append(where)
            elif not same:
                inexact.append(where)
    return violations, inexact


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default=os.environ.get("RAYDB_TPCH_SF1_DB"),
                    help="raydb database of `raydb gen tpch --sf 1` (default $RAYDB_TPCH_SF1_DB)")
    ap.add_argument("--answers", default=os.environ.get("RAYDB_TPCH_ANSWERS"),
                    help="directory of the kit's q1.out ... q22.out (default $RAYDB_TPCH_ANSWERS)")
    ap.add_argument("--raydb", default=os.path.join(ROOT, "build", "raydb"), help="raydb binary")
    ap.add_argument("--queries", default=os.path.join(ROOT, "tpch", "queries"))
    ap.add_argument("--markdown", help="also write the per-query table to this file")
    args = ap.parse_args()
    if not args.db or not args.answers:
        print("skipped: give --db and --answers (or RAYDB_TPCH_SF1_DB and RAYDB_TPCH_ANSWERS)")
        return 77
    table = ["| query | rows | result | time (s) | notes |", "|---|---|---|---|---|"]
    failed = 0
    for q in range(1, 23):
        expected = read_answer(os.path.join(args.answers, f"q{q}.out"))
        actual, error, seconds = run_query(args.raydb, args.db, os.path.join(args.queries, f"q{q}.sql"))
        if actual is None:
            result, notes = "error", [error]
        else:
            violations, inexact = compare(q, expected, actual)
            result = "differs" if violations else ("within the rules" if inexact else "exact")
            notes = violations or inexact
        failed += result in ("differs", "error")
        note = "; ".join(notes[:3]) + (f"; {len(notes) - 3} more" if len(notes) > 3 else "")
        print(f"q{q}: {result} ({len(expected)} rows){': ' + note if note else ''}", flush=True)
        table.append(f"| q{q} | {len(expected)} | {result} | {seconds:.2f} | {note.replace('|', '/')} |")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(table) + "\n")
    print(f"{22 - failed} of 22 queries match the kit's answers")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
