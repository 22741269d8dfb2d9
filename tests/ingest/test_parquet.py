"""Parquet in and out: files written by DuckDB and pyarrow loaded with `raydb load
parquet` and COPY FROM, compared value by value with DuckDB reading the same file; files
raydb writes (COPY ... TO, raydb export --parquet) read back by DuckDB and by raydb."""
import datetime
import decimal
import math
import random
import subprocess

import duckdb
import pytest

from conftest import RAYDB, printed, query, raydb

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def parquet_built():
    p = subprocess.run([RAYDB, "load", "parquet", "--db", "/nonexistent/x", "--table", "t", "/nonexistent.parquet"],
                       capture_output=True, text=True)
    return "Parquet support was not built" not in p.stderr


pytestmark = pytest.mark.skipif(not parquet_built(), reason="this raydb was built without Parquet support")


def same(ours, theirs):
    if theirs is None or ours is None:
        return ours is None and theirs is None
    if isinstance(theirs, bool):
        return ours is theirs
    if isinstance(theirs, float):
        return math.isclose(float(ours), theirs, rel_tol=1e-12, abs_tol=0) or (math.isnan(theirs) and ours == "NaN")
    if isinstance(theirs, decimal.Decimal):
        return decimal.Decimal(str(ours)) == theirs
    if isinstance(theirs, int):
        return ours == theirs
    if isinstance(theirs, (datetime.date, datetime.datetime)):
        return ours == str(theirs)
    return ours == theirs


def assert_rows(ours, theirs):
    assert len(ours) == len(theirs)
    for r, d in zip(ours, theirs):
        bad = [(i, a, b) for i, (a, b) in enumerate(zip(r, d)) if not same(a, b)]
        assert len(r) == len(d) and not bad, (bad, r, d)


def duck_file(tmp_path, n=500):
    """A file DuckDB writes: every mapped type, NULLs in each column, row groups."""
    path = str(tmp_path / "duck.parquet")
    duckdb.sql(f"""
        copy (select (i % 100)::tinyint as i8, (i * 7 % 30000)::smallint as i16, (i * 31 - 1000)::integer as i32,
                     (i * 1000003 - 5e8)::bigint as i64, (i % 250)::utinyint as u8, (i * 99991)::uinteger as u32,
                     (i * 1.25 - 100)::decimal(9,2) as d9, (i * 123456789.125)::decimal(18,3) as d18,
                     (i / 7.0)::double as f64, (i / 3.0)::float as f32,
                     date '1970-01-01' + (i * 37 - 9000)::integer as day,
                     timestamp '2020-01-01 00:00:00' + to_microseconds(i * 1234567891) as ts,
                     i % 3 = 0 as flag,
                     case when i % 5 = 0 then 'Zürich' else 'name_' || (i % 17) end as name
              from range({n}) t(i))
        to '{path}' (format parquet, row_group_size 128)""")
    # NULLs: one in ten rows of every column
    nulled = str(tmp_path / "duck_nulls.parquet")
    cols = [c[0] for c in duckdb.sql(f"describe select * from '{path}'").fetchall()]
    sel = ", ".join(f"case when (row_number() over () + {k}) % 10 = 0 then null else {c} end as {c}"
                    for k, c in enumerate(cols))
    duckdb.sql(f"copy (select {sel} from '{path}') to '{nulled}' (format parquet, row_group_size 128)")
    return nulled, cols


def test_load_parquet_written_by_duckdb(tmp_path):
    path, cols = duck_file(tmp_path)
    db = str(tmp_path / "db")
    out = raydb("load", "parquet", "--db", db, "--table", "t", path).stdout
    got = printed(out)
    assert "t: 500 rows" in out
    assert got["schema"] == ("i8 INTEGER, i16 INTEGER, i32 INTEGER, i64 BIGINT, u8 INTEGER, u32 BIGINT, "
                             "d9 DECIMAL(9,2), d18 DECIMAL(18,3), f64 DOUBLE, f32 DOUBLE, day DATE, ts TIMESTAMP, "
                             "flag BOOLEAN, name VARCHAR")
    ours = query(db, "select * from t")
    # timestamps as DuckDB's own text of them (raydb prints a TIMESTAMP the same way)
    sel = ", ".join("ts::varchar" if c == "ts" else c for c in cols)
    assert_rows(ours, duckdb.sql(f"select {sel} from '{path}'").fetchall())
    # aggregates over the loaded table equal DuckDB's over the file
    q = "select count(i32), sum(i64), sum(d9), min(day), max(name), count(*) from {}"
    assert_rows(query(db, q.format("t")), duckdb.sql(q.format(f"'{path}'")).fetchall())


def test_pyarrow_types_and_errors(tmp_path):
    table = pa.table({
        "u64": pa.array([1, None, 2**63 - 1], pa.uint64()),
        "d64": pa.array([datetime.date(2001, 2, 3), None, datetime.date(1960, 1, 1)], pa.date64()),
        "s": pa.array(["a", None, ""], pa.large_string()),
        "dict": pa.array(["x", "y", None]).dictionary_encode(),
        "tz": pa.array([0, 1_500_000, None], pa.timestamp("us", tz="UTC")),
    })
    path = str(tmp_path / "pa.parquet")
    pq.write_table(table, path)
    db = str(tmp_path / "db")
    raydb("load", "parquet", "--db", db, "--table", "t", path)
    ours = query(db, "select * from t")
    # a timestamp with a time zone loads as its UTC TIMESTAMP
    theirs = duckdb.sql(f"select u64, d64, s, dict, make_timestamp(epoch_us(tz))::varchar from '{path}'").fetchall()
    assert_rows(ours, theirs)
    bad = {
        "big.parquet": pa.table({"x": pa.array([2**63], pa.uint64())}),
        "list.parquet": pa.table({"x": pa.array([[1, 2]])}),
        "wide.parquet": pa.table({"x": pa.array([decimal.Decimal("1.5")], pa.decimal128(30, 1))}),
    }
    for name, t in bad.items():
        f = str(tmp_path / name)
        pq.write_table(t, f)
        p = raydb("load", "parquet", "--db", db, "--table", "b", f, check=False)
        assert p.returncode != 0 and "column x" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    notparquet = tmp_path / "x.parquet"
    notparquet.write_text("a,b\n1,2\n")
    for f, what in ((str(notparquet), "not a Parquet file"), (str(tmp_path / "missing.parquet"), "cannot open")):
        p = raydb("load", "parquet", "--db", db, "--table", "b", f, check=False)
        assert p.returncode != 0 and what in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert query(db, "select count(*) from t") == [[3]]  # the failed loads changed nothing


def test_round_trip_and_duckdb_reads_ours(tmp_path):
    rng = random.Random(5)
    db = str(tmp_path / "db")
    rows = []
    names = ["a", '"b,c"', "Zürich", '""']
    for i in range(400):
        name = rng.choice(names)
        rows.append(f"{i},{rng.randint(-2**40, 2**40)},{rng.randint(-10**8, 10**8) / 100:.2f},"
                    f"{datetime.date(1995, 1, 1) + datetime.timedelta(days=rng.randint(0, 9000))},"
                    f"{name},{rng.uniform(-1, 1)!r}")
        if i % 9 == 0:
            rows[-1] = f"{i},,,,,"
    csv = tmp_path / "in.csv"
    csv.write_text("\n".join(rows) + "\n")
    raydb("load", "csv", "--db", db, "--table", "t", "--schema",
          "id INT, big BIGINT, price DECIMAL(12,2), day DATE, name VARCHAR, x DOUBLE", str(csv))
    out = str(tmp_path / "t.parquet")
    raydb("query", "--db", db, f"copy t to '{out}'")
    # DuckDB reads what raydb wrote: types and values
    types = [c[1] for c in duckdb.sql(f"describe select * from '{out}'").fetchall()]
    assert types == ["INTEGER", "BIGINT", "DECIMAL(12,2)", "DATE", "VARCHAR", "DOUBLE"]
    assert_rows(query(db, "select * from t"), duckdb.sql(f"select * from '{out}'").fetchall())
    # and raydb reads it back into a table equal to the original
    raydb("query", "--db", db, "create table u (id INT, big BIGINT, price DECIMAL(12,2), day DATE, name VARCHAR, x DOUBLE)")
    assert query(db, f"copy u from '{out}'") == [["COPY 400"]]
    assert query(db, "select * from u order by id") == query(db, "select * from t order by id")
    # a query's result, aggregates and NULLs included, through COPY and raydb export
    sql = "select name, count(*) as n, sum(price) as s, avg(x) as a, min(day) as d from t group by name order by name"
    q1, q2 = str(tmp_path / "q1.parquet"), str(tmp_path / "q2.parquet")
    raydb("query", "--db", db, f"copy ({sql}) to '{q1}' (format parquet)")
    raydb("export", "--db", db, "--query", sql, "--parquet", q2)
    for f in (q1, q2):
        assert_rows(query(db, sql), duckdb.sql(f"select * from '{f}'").fetchall())
    # export --query --csv reads back in DuckDB too
    c = str(tmp_path / "q.csv")
    raydb("export", "--db", db, "--query", sql, "--csv", c)
    assert_rows(query(db, sql), duckdb.sql(f"select * from read_csv('{c}', header=true, allow_quoted_nulls=false)").fetchall())


def test_append_and_options(tmp_path):
    db = str(tmp_path / "db")
    f = str(tmp_path / "a.parquet")
    pq.write_table(pa.table({"k": pa.array([1, 2], pa.int32()), "v": pa.array(["x", None])}), f)
    raydb("load", "parquet", "--db", db, "--table", "t", f)
    out = raydb("load", "parquet", "--db", db, "--table", "t", "--append", f, f).stdout
    assert "t: 4 rows appended" in out
    assert query(db, "select k, count(*), count(v) from t group by k order by k") == [[1, 3, 3], [2, 3, 0]]
    p = raydb("query", "--db", db, f"copy t from '{f}' (header)", check=False)
    assert p.returncode != 0 and "CSV only" in p.stderr
    p = raydb("query", "--db", db, f"copy t to '{tmp_path}/x.out' (format orc)", check=False)
    assert p.returncode != 0 and "orc" in p.stderr.lower()
    p = raydb("export", "--db", db, "--query", "delete from t", "--parquet", str(tmp_path / "d.parquet"), check=False)
    assert p.returncode != 0 and "takes a query" in p.stderr
    assert query(db, "select count(*) from t") == [[6]]
