"""`raydb load csv` without a schema against DuckDB's read_csv_auto on generated files:
the same delimiter and header, types that correspond (DuckDB's BIGINT is INTEGER or
BIGINT here, its DOUBLE is DOUBLE or an exact DECIMAL), and the same values."""
import datetime
import math
import os
import random

import duckdb
import pytest

from conftest import printed, query, raydb

# DuckDB type -> the raydb types that correspond to it.
MATCHES = {
    "BIGINT": {"INTEGER", "BIGINT"},
    "DOUBLE": {"DOUBLE", "DECIMAL"},
    "HUGEINT": {"DOUBLE"},
    "DATE": {"DATE"},
    "TIMESTAMP": {"TIMESTAMP"},
    "BOOLEAN": {"BOOLEAN"},
    "VARCHAR": {"VARCHAR"},
}


def gen_value(kind, rng):
    if kind == "int":
        return str(rng.randint(-10**6, 10**6))
    if kind == "bigint":
        return str(rng.randint(-10**15, 10**15))
    if kind == "decimal":
        return f"{rng.randint(-99999, 99999) / 100:.2f}"
    if kind == "double":
        return f"{rng.uniform(-1e6, 1e6):.6e}"
    if kind == "date":
        return (datetime.date(1990, 1, 1) + datetime.timedelta(days=rng.randint(0, 12000))).isoformat()
    if kind == "timestamp":
        return (datetime.datetime(2001, 1, 1) + datetime.timedelta(seconds=rng.randint(0, 10**8))).isoformat(" ")
    if kind == "bool":
        return rng.choice(["true", "false"])
    if kind == "text":
        return rng.choice(["alpha", "beta gamma", "Zürich", "x" * rng.randint(1, 5), "O'Hare"])
    if kind == "quoted":  # needs quotes: delimiters, quotes, newlines inside
        return rng.choice(['"a,b"', '"say ""hi"""', '"two\nlines"', '"semi;colon|pipe\tx"'])
    raise ValueError(kind)


def write_csv(path, kinds, delim, header, rows, rng, nulls=0.0, names=None):
    names = names or [f"c_{k}{i}" for i, k in enumerate(kinds)]
    lines = []
    if header:
        lines.append(delim.join(names))
    for _ in range(rows):
        fields = []
        for k in kinds:
            fields.append("" if rng.random() < nulls else gen_value(k, rng))
        lines.append(delim.join(fields))
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(lines) + "\n")


def duck_sniff(path, **kw):
    opts = "".join(f", {k}={v!r}" for k, v in kw.items())
    rel = duckdb.sql(f"select Delimiter, HasHeader, Columns from sniff_csv('{path}'{opts})")
    delim, header, cols = rel.fetchall()[0]
    return delim, header, [(c["name"], c["type"]) for c in cols]


def duck_rows(path, **kw):
    opts = "".join(f", {k}={v!r}" for k, v in kw.items())
    return duckdb.sql(f"select * from read_csv_auto('{path}'{opts})").fetchall()


def same_value(ours, theirs):
    if theirs is None or ours is None:
        return ours is None and theirs is None
    if isinstance(theirs, bool):
        return str(ours).lower() == str(theirs).lower()
    if isinstance(theirs, float):
        return math.isclose(float(ours), theirs, rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(theirs, int):  # a HUGEINT is a DOUBLE here
        return ours == theirs if isinstance(ours, int) else math.isclose(ours, theirs, rel_tol=1e-15)
    if isinstance(theirs, datetime.datetime):
        return ours == timestamp_text(theirs)
    if isinstance(theirs, datetime.date):
        return ours == str(theirs)
    return ours == theirs


def timestamp_text(t):
    """A datetime as PostgreSQL and DuckDB print a TIMESTAMP (fraction without trailing zeros)."""
    s = t.strftime("%Y-%m-%d %H:%M:%S")
    if t.microsecond:
        s += (".%06d" % t.microsecond).rstrip("0")
    return "%04d" % t.year + s[s.index("-"):]


def load_and_compare(tmp_path, path, extra=(), duck_kw=None):
    duck_kw = duck_kw or {}
    db = str(tmp_path / "db")
    out = raydb("load", "csv", "--db", db, "--table", "t", *extra, str(path)).stdout
    got = printed(out)
    d_delim, d_header, d_cols = duck_sniff(path, **duck_kw)
    assert got["delimiter"] == d_delim, out
    assert got["header"] == d_header, out
    ours = [c.strip().rsplit(" ", 1) for c in split_schema(got["schema"])]
    assert len(ours) == len(d_cols), out
    for (name, typ), (d_name, d_type) in zip(ours, d_cols):
        assert typ.split("(")[0] in MATCHES[d_type], (name, typ, d_type, out)
        if d_name.isidentifier():
            assert name == d_name
    rows = query(db, "select * from t")
    theirs = duck_rows(path, **duck_kw)
    assert len(rows) == len(theirs)
    for r, d in zip(rows, theirs):
        assert all(same_value(a, b) for a, b in zip(r, d)), (r, d)
    return got, db


def split_schema(text):
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


CASES = [
    # (kinds, delimiter, header, nulls)
    (["int", "text", "decimal"], ",", True, 0.0),
    (["int", "bigint", "date"], "|", False, 0.0),
    (["double", "text", "int"], ";", True, 0.1),
    (["date", "timestamp", "bool"], "\t", True, 0.0),
    (["text", "text"], ",", True, 0.0),
    (["quoted", "int", "text"], ",", True, 0.0),
    (["decimal", "quoted"], "|", False, 0.05),
    (["int"], ",", True, 0.0),
    (["bigint", "double", "date", "text", "decimal"], "\t", False, 0.2),
]


FAST_CASES = {3, 5}  # the rest carry the `slow` mark (CTest ingest_cli_slow)


@pytest.mark.parametrize("case", [c if c in FAST_CASES else pytest.param(c, marks=pytest.mark.slow)
                                  for c in range(len(CASES))])
def test_sniffer_agrees_with_duckdb(tmp_path, case):
    kinds, delim, header, nulls = CASES[case]
    path = tmp_path / "in.csv"
    write_csv(path, kinds, delim, header, 300, random.Random(case), nulls)
    load_and_compare(tmp_path, path)


AMBIGUOUS = {
    "mixed.csv": "a,b,c\n1,2020-01-01,1.5\nx,2020-01-02,2\n3,7,1e3\n",
    "numeric_header.csv": "1,2\n3,4\n5,6\n",
    "text_header.csv": "name,city\nbob,paris\nann,rome\n",
    "empty_in_first.csv": "bob,\nann,rome\n",
    "null_then_text.csv": ",x\n3,\n",
    "partly_null_first.csv": "1,\n3,4\n",
    "null_first.csv": ",\n1,2\n",
    "one_record.csv": "1,2\n",
    "one_text_record.csv": "a\n",
    "one_column.csv": "a,b\n1,2,3\n4\n",
    "wide_int.csv": "x,y\n2147483648,1\n3,2\n",
    "huge_int.csv": "x\n99999999999999999999\n1\n",
    "quoted_numbers.csv": '"a","b"\n"1","x"\n"2","y"\n',
    "crlf.csv": "k;v\r\n1;a\r\n2;b\r\n",
    "all_null_column.csv": "a,b\n1,\n2,\n",
}
FAST_AMBIGUOUS = {"mixed.csv", "null_then_text.csv", "one_record.csv"}


@pytest.mark.parametrize("name", [n if n in FAST_AMBIGUOUS else pytest.param(n, marks=pytest.mark.slow)
                                  for n in AMBIGUOUS])
def test_ambiguous_samples(tmp_path, name):
    """Columns that mix kinds, first rows that only a header explains, first rows of
    numbers that are data, NULLs where DuckDB's header rule looks."""
    path = tmp_path / name
    path.write_text(AMBIGUOUS[name], encoding="utf-8", newline="")
    load_and_compare(tmp_path, path)


def test_null_option(tmp_path):
    path = tmp_path / "na.csv"
    path.write_text("id,price,day\n1,NA,2020-01-01\nNA,2.50,NA\n3,4.75,2021-05-06\n", encoding="utf-8")
    got, db = load_and_compare(tmp_path, path, extra=("--null", "NA"), duck_kw={"nullstr": "NA"})
    assert query(db, "select count(*) from t where price is null") == [[1]]


@pytest.mark.slow
def test_printed_schema_loads_the_same_table(tmp_path):
    path = tmp_path / "in.csv"
    write_csv(path, ["int", "decimal", "date", "quoted"], "|", True, 200, random.Random(7), 0.1)
    got, db = load_and_compare(tmp_path, path)
    db2 = str(tmp_path / "db2")
    raydb("load", "csv", "--db", db2, "--table", "t", "--schema", got["schema"], "--header", "--delimiter", "|",
          str(path))
    assert query(db2, "select * from t") == query(db, "select * from t")


def test_append_to_an_existing_table(tmp_path):
    rng = random.Random(3)
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    write_csv(a, ["int", "text", "decimal"], ",", True, 100, rng, 0.1, names=["id", "name", "amount"])
    write_csv(b, ["int", "text", "decimal"], ",", True, 50, rng, 0.1, names=["id", "name", "amount"])
    db = str(tmp_path / "db")
    raydb("load", "csv", "--db", db, "--table", "t", str(a))
    out = raydb("load", "csv", "--db", db, "--table", "t", "--append", str(b)).stdout
    assert "t: 50 rows appended" in out and "header: yes" in out
    rows = query(db, "select id, name, amount from t")
    theirs = duckdb.sql(f"select * from read_csv_auto(['{a}', '{b}'])").fetchall()
    assert len(rows) == len(theirs) == 150
    for r, d in zip(rows, theirs):
        assert all(same_value(x, y) for x, y in zip(r, d)), (r, d)
    # Without --append an existing table is an error that leaves it as it was.
    p = raydb("load", "csv", "--db", db, "--table", "t", str(b), check=False)
    assert p.returncode != 0 and "already exists" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert query(db, "select count(*) from t") == [[150]]


def test_bad_files_fail_in_one_line(tmp_path):
    db = str(tmp_path / "db")
    ragged = tmp_path / "ragged.csv"  # with the delimiter given, records of 3 and 1 fields
    ragged.write_text("a,b\n1,2,3\n4\n", encoding="utf-8")
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    late = tmp_path / "late.csv"  # the sample says INTEGER, a later record does not fit
    late.write_text("x\n" + "1\n" * 30000 + "abc\n", encoding="utf-8")
    for f, what, extra in ((ragged, "different numbers of fields", ["--delimiter", ","]), (empty, "no records", []),
                           (late, "late.csv:30002", [])):
        p = raydb("load", "csv", "--db", db, "--table", "t", *extra, str(f), check=False)
        assert p.returncode != 0, f
        assert what in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
        assert not os.path.exists(os.path.join(db, "manifest.json"))
