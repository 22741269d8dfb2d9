"""Fixtures for the `raydb shell` tests: a database made with the raydb CLI and the same
rows in SQLite (the oracle)."""
import csv
import os
import sqlite3
import subprocess

import pytest

RAYDB = os.environ.get("RAYDB_BINARY", "raydb")


def raydb(*args, stdin=None, env=None, timeout=120):
    return subprocess.run([RAYDB, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=env)


def make_rows(n=100):
    names = ["Zürich", "東京", "a|b", "plain", "line\nbreak", "tab\there", "O'Hare"]
    return [(i, names[i % len(names)], (i * 37) % 101 - 50, None if i % 9 == 0 else i * 1.5) for i in range(n)]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("shell")
    rows = make_rows()
    with open(root / "cities.csv", "w", newline="") as f:
        csv.writer(f).writerows([(i, s, t, "" if x is None else x) for i, s, t, x in rows])
    db = str(root / "db")
    p = raydb("load", "csv", "--db", db, "--table", "cities", "--schema",
              "id INTEGER, name VARCHAR, temperature INTEGER, reading DOUBLE", str(root / "cities.csv"))
    assert p.returncode == 0, p.stderr
    wide = ", ".join(f"c{i:02d} INTEGER" for i in range(30))
    with open(root / "wide.csv", "w", newline="") as f:
        csv.writer(f).writerows([[r * 100 + c for c in range(30)] for r in range(3)])
    p = raydb("load", "csv", "--db", db, "--table", "wide_table", "--schema", wide, str(root / "wide.csv"))
    assert p.returncode == 0, p.stderr
    oracle = sqlite3.connect(":memory:")
    oracle.execute("create table cities (id integer, name text, temperature integer, reading real)")
    oracle.executemany("insert into cities values (?,?,?,?)", rows)
    oracle.execute("create table wide_table (" + wide.replace("INTEGER", "integer") + ")")
    oracle.executemany("insert into wide_table values (" + ",".join("?" * 30) + ")",
                       [[r * 100 + c for c in range(30)] for r in range(3)])
    return {"root": root, "db": db, "oracle": oracle, "rows": rows}
