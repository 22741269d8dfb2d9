"""`raydb load jsonl` against DuckDB's read_json_auto on the same newline-delimited
files: the same columns in the same order, types that correspond, the same values."""
import datetime
import json
import math
import random

import duckdb

from conftest import printed, query, raydb

MATCHES = {"BIGINT": {"INTEGER", "BIGINT"}, "HUGEINT": {"BIGINT"}, "DOUBLE": {"DOUBLE"}, "DATE": {"DATE"},
           "VARCHAR": {"VARCHAR"}, "BOOLEAN": {"BOOLEAN"}, "TIMESTAMP": {"TIMESTAMP"}}


def same(ours, theirs):
    if theirs is None or ours is None:
        return ours is None and theirs is None
    if isinstance(theirs, bool):
        return ours is theirs
    if isinstance(theirs, float):
        return math.isclose(float(ours), theirs, rel_tol=1e-12)
    if isinstance(theirs, (list, dict)):
        return json.loads(ours) == theirs
    if isinstance(theirs, datetime.datetime):
        return ours.replace("T", " ") == str(theirs)
    if isinstance(theirs, datetime.date):
        return ours == str(theirs)
    return ours == theirs


def test_jsonl_agrees_with_duckdb(tmp_path):
    rng = random.Random(2)
    lines = []
    for i in range(300):
        row = {"id": i, "amount": rng.randint(-10**4, 10**4) / 8, "big": rng.randint(-2**40, 2**40),
               "day": (datetime.date(2000, 1, 1) + datetime.timedelta(days=rng.randint(0, 5000))).isoformat(),
               "name": rng.choice(["a", "b \"q\"", "Zürich", ""]), "flag": rng.random() < 0.5,
               "at": f"2021-03-04 0{rng.randint(0, 9)}:15:00", "tags": [rng.randint(0, 9)]}
        for k in list(row):
            if k != "id" and rng.random() < 0.1:
                if rng.random() < 0.5:
                    del row[k]  # a missing key is NULL
                else:
                    row[k] = None
        lines.append(json.dumps(row, ensure_ascii=False))
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = str(tmp_path / "db")
    out = raydb("load", "jsonl", "--db", db, "--table", "t", str(path)).stdout
    got = printed(out)
    ours = [c.strip().rsplit(" ", 1) for c in got["schema"].split(",")]
    theirs = duckdb.sql(f"describe select * from read_json_auto('{path}')").fetchall()
    assert [n for n, _ in ours] == [c[0] for c in theirs]
    for (name, typ), col in zip(ours, theirs):
        if col[1].endswith("[]"):
            assert typ == "VARCHAR"
        else:
            assert typ in MATCHES[col[1]], (name, typ, col[1])
    rows = query(db, "select * from t")
    expect = duckdb.sql(f"select * from read_json_auto('{path}')").fetchall()
    assert len(rows) == len(expect) == 300
    for r, d in zip(rows, expect):
        bad = [(a, b) for a, b in zip(r, d) if not same(a, b)]
        assert not bad, (bad, r, d)


def test_jsonl_schema_append_and_errors(tmp_path):
    a = tmp_path / "a.jsonl"
    a.write_text('{"k": 1, "v": "x", "skip": 5}\n{"k": 2}\n', encoding="utf-8")
    db = str(tmp_path / "db")
    raydb("load", "jsonl", "--db", db, "--table", "t", "--schema", "k INT, v VARCHAR", str(a))
    out = raydb("load", "jsonl", "--db", db, "--table", "t", "--append", str(a)).stdout
    assert "t: 2 rows appended" in out
    assert query(db, "select k, count(*), count(v) from t group by k order by k") == [[1, 2, 2], [2, 2, 0]]
    bad = {  # name: (text, schema, expected message)
        "notjson.jsonl": ('{"k": 1}\n{"k": \n', "", "notjson.jsonl:2: not valid JSON"),
        "array.jsonl": ("[1, 2]\n", "", "expected a JSON object"),
        "type.jsonl": ('{"k": 1}\n{"k": "x"}\n', "k INT", "type.jsonl:2: column k (INTEGER)"),
        "range.jsonl": ('{"k": 3000000000}\n', "k INT", "range.jsonl:1: column k (INTEGER)"),
        # the guess reads 20480 lines; a key first seen after them is an error, not lost data
        "late.jsonl": ('{"k": 1}\n' * 20480 + '{"k": 2, "late": 1}\n', "", "late.jsonl:20481: key 'late'"),
    }
    for name, (text, schema, what) in bad.items():
        f = tmp_path / name
        f.write_text(text, encoding="utf-8")
        extra = ["--schema", schema] if schema else []
        p = raydb("load", "jsonl", "--db", db, "--table", "u", *extra, str(f), check=False)
        assert p.returncode != 0 and what in p.stderr and len(p.stderr.strip().splitlines()) == 1, (name, p.stderr)
    p = raydb("query", "--db", db, "select * from u", check=False)  # no table from the failed loads
    assert p.returncode != 0 and "unknown table" in p.stderr, p.stderr
    assert query(db, "select count(*) from t") == [[4]]
