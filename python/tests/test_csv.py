"""load_csv(): the engine's own CSV loader from Python, checked against SQLite and the
CLI's error lines."""
import decimal
import os
import shutil
import sqlite3
import subprocess

import pytest

import raydb

SCHEMA = "id INT, name VARCHAR, price DECIMAL(10,2), day DATE"


def write_csv(path, rows):
    with open(path, "w") as f:
        f.write("id;name;price;day\n")
        for r in rows:
            f.write(";".join(map(str, r)) + "\n")


def test_load_csv_matches_sqlite(tmp_path):
    rows = [(i, f"n{i % 7}", f"{(i * 37) % 10000 / 100:.2f}", f"199{i % 8}-0{1 + i % 9}-1{i % 10}") for i in range(500)]
    a, b = str(tmp_path / "a.csv"), str(tmp_path / "b.csv")
    write_csv(a, rows[:200])
    write_csv(b, rows[200:])
    with raydb.connect(str(tmp_path / "db")) as con:
        assert con.load_csv("t", [a, b], schema=SCHEMA, header=True, delimiter=";") == 500
        got = con.sql("select name, count(*), sum(price), min(day) from t group by name order by name").fetchall()
    db = sqlite3.connect(":memory:")
    db.execute("create table t (id int, name text, cents int, day text)")
    db.executemany("insert into t values (?,?,?,?)", [(r[0], r[1], round(float(r[2]) * 100), r[3]) for r in rows])
    want = db.execute("select name, count(*), sum(cents), min(day) from t group by name order by name").fetchall()
    assert [(n, c, int(s * 100), d.isoformat()) for n, c, s, d in got] == want
    assert isinstance(got[0][2], decimal.Decimal)


def test_load_csv_errors_are_the_clis(tmp_path):
    bad = str(tmp_path / "bad.csv")
    with open(bad, "w") as f:
        f.write("1,x,1.5,2020-01-01\n2,y,abc,2020-01-02\n")
    db = str(tmp_path / "db")
    with raydb.connect(db) as con:
        with pytest.raises(raydb.LoadException) as info:
            con.load_csv("t", bad, schema=SCHEMA)
        assert "bad.csv:2" in str(info.value) and "\n" not in str(info.value)
        assert con.tables() == []
        with pytest.raises(raydb.InvalidInputException):
            con.load_csv("t", bad, schema="id INT, name BLOB")
        with pytest.raises(raydb.IOException):
            con.load_csv("t", str(tmp_path / "missing.csv"), schema=SCHEMA)
    cli = os.environ.get("RAYDB_CLI") or shutil.which("raydb")
    if cli and os.path.exists(cli):
        p = subprocess.run([cli, "load", "csv", "--db", db, "--table", "t", "--schema", SCHEMA, bad],
                           capture_output=True, text=True)
        assert p.stderr.strip() == "error: " + str(info.value)
