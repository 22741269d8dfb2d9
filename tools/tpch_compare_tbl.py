#!/usr/bin/env python3
"""Compares two directories of TPC-H .tbl files (e.g. the TPC-H kit's dbgen output and
`raydb gen tpch --tbl DIR`) row by row and field by field.

Fields that both parse as decimal numbers are compared as numbers (raydb writes
l_quantity, a DECIMAL(15,2), as "17.00" where dbgen writes "17"); all other fields
must be equal as text. Prints one line per table and the first differing rows;
exits 1 when any table differs.

usage: tools/tpch_compare_tbl.py EXPECTED_DIR ACTUAL_DIR [--show N]
"""
import argparse
import os
import sys
from decimal import Decimal, InvalidOperation

TABLES = ["nation", "region", "supplier", "customer", "part", "partsupp", "orders", "lineitem"]


def number(text):
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def same_field(a, b):
    if a == b:
        return True
    x, y = number(a), number(b)
    return x is not None and y is not None and x == y


def compare_table(expected_path, actual_path, show):
    differing = 0
    rows = 0
    with open(expected_path, encoding="latin-1") as fe, open(actual_path, encoding="latin-1") as fa:
        while True:
            le, la = fe.readline(), fa.readline()
            if not le and not la:
                break
            rows += 1
            if le == la:
                continue
            fe_fields = le.rstrip("\n").split("|")
            fa_fields = la.rstrip("\n").split("|")
            if len(fe_fields) == len(fa_fields) and all(map(same_field, fe_fields, fa_fields)):
                continue
            differing += 1
            if differing <= show:
                print(f"  row {rows}:\n    expected {le.rstrip()}\n    actual   {la.rstrip()}")
    return rows, differing


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("expected")
    ap.add_argument("actual")
    ap.add_argument("--show", type=int, default=3, help="differing rows to print per table")
    args = ap.parse_args()
    bad = False
    for t in TABLES:
        e, a = os.path.join(args.expected, t + ".tbl"), os.path.join(args.actual, t + ".tbl")
        if not os.path.exists(e) or not os.path.exists(a):
            print(f"{t}: missing {e if not os.path.exists(e) else a}")
            bad = True
            continue
        rows, differing = compare_table(e, a, args.show)
        print(f"{t}: {rows} rows, {'equal' if differing == 0 else f'{differing} differ'}")
        bad |= differing > 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
