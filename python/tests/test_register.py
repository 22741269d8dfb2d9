"""register() and create_table(): Python data queried by the engine, checked against
SQLite (Python's sqlite3) on the same rows."""
import datetime
import decimal

import pytest

import raydb

pa = pytest.importorskip("pyarrow")

# Queries over `sales` in both dialects: raydb's (DECIMAL and DATE columns) and
# SQLite's (price in cents, day as ISO text).
ORACLE_QUERIES = [
    ("select region, count(*), sum(qty), min(id), max(id) from sales group by region order by region",
     "select region, count(*), sum(qty), min(id), max(id) from sales group by region order by region"),
    ("select id, region from sales where region like 'A%' and qty % 7 = 3 order by id",
     "select id, region from sales where region like 'A%' and qty % 7 = 3 order by id"),
    ("select sum(price * 100) from sales where day >= date '1995-01-01' and day < date '1996-01-01'",
     "select sum(price_cents) from sales where day >= '1995-01-01' and day < '1996-01-01'"),
    ("select count(distinct region), count(*) from sales where ratio between -10 and 250",
     "select count(distinct region), count(*) from sales where ratio between -10 and 250"),
    ("select a.region, count(*) from sales a join sales b on a.id = b.id + 1 where b.qty > a.qty group by a.region "
     "order by 2 desc, 1 limit 3",
     "select a.region, count(*) from sales a join sales b on a.id = b.id + 1 where b.qty > a.qty group by a.region "
     "order by 2 desc, 1 limit 3"),
    ("select id, qty / 1000 from sales where id in (3, 17, 2999) order by id",
     "select id, qty / 1000 from sales where id in (3, 17, 2999) order by id"),
]


@pytest.mark.parametrize("raydb_sql,sqlite_sql", ORACLE_QUERIES)
def test_registered_arrow_matches_sqlite(sales_con, sales_sqlite, raydb_sql, sqlite_sql):
    got = [tuple(int(v) if isinstance(v, decimal.Decimal) else v for v in row)
           for row in sales_con.sql(raydb_sql).fetchall()]
    assert got == sales_sqlite.execute(sqlite_sql).fetchall()


def test_pandas_and_polars_frames(con, sales_rows, sales_sqlite):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    from conftest import SALES_COLUMNS

    frame = pd.DataFrame(sales_rows, columns=SALES_COLUMNS)
    frame["ratio"] = frame["ratio"].astype("float32").astype("float64")
    con.register("p", frame)
    assert con.sql("select count(*), sum(qty), min(day), max(region) from p").fetchone() == \
        (len(sales_rows), sum(r[2] for r in sales_rows), min(r[5] for r in sales_rows), max(r[1] for r in sales_rows))
    assert con.sql("select price from p where id = 5").fetchone()[0] == sales_rows[5][3]
    polars = pl.DataFrame({"k": [3, 1, 2], "name": ["c", "a", "b"], "w": [0.5, 1.5, 2.5]})
    con.register("q", polars)
    assert con.sql("select name, k * w from q order by name").fetchall() == [("a", 1.5), ("b", 5.0), ("c", 1.5)]


def test_register_types_are_mapped(con):
    con.register("t", pa.table({
        "i8": pa.array([1, -2], pa.int8()), "u16": pa.array([3, 65535], pa.uint16()),
        "u32": pa.array([4, 2**32 - 1], pa.uint32()), "f32": pa.array([0.5, 1.25], pa.float32()),
        "s": pa.array(["x", "y"], pa.large_string()), "dict": pa.array(["a", "b"]).dictionary_encode(),
        "d64": pa.array([datetime.date(2000, 1, 1), datetime.date(1969, 12, 31)], pa.date64()),
        "dec": pa.array([decimal.Decimal("1.5"), decimal.Decimal("-2.25")], pa.decimal128(30, 2)),
    }))
    r = con.sql("select * from t")
    assert r.types == ["INTEGER", "INTEGER", "BIGINT", "DOUBLE", "VARCHAR", "VARCHAR", "DATE", "DECIMAL(18,2)"]
    assert r.fetchall() == [(1, 3, 4, 0.5, "x", "a", datetime.date(2000, 1, 1), decimal.Decimal("1.50")),
                            (-2, 65535, 2**32 - 1, 1.25, "y", "b", datetime.date(1969, 12, 31), decimal.Decimal("-2.25"))]


def test_sliced_and_chunked_input(con):
    t = pa.Table.from_batches([pa.record_batch({"a": pa.array(range(0, 5), pa.int32()), "s": list("abcde")}),
                               pa.record_batch({"a": pa.array(range(5, 10), pa.int32()), "s": list("fghij")})])
    con.register("t", t.slice(3, 5))
    assert con.sql("select a, s from t order by a").fetchall() == [(3, "d"), (4, "e"), (5, "f"), (6, "g"), (7, "h")]
    con.register("e", pa.table({"a": pa.array([], pa.int64()), "s": pa.array([], pa.string())}))
    assert con.sql("select count(*), sum(a) from e").fetchall() == [(0, None)]


def test_register_replace_and_unregister(con):
    con.register("t", pa.table({"a": [1]}))
    con.register("T", pa.table({"a": [2, 3]}))  # names are case-insensitive, as SQL's
    assert con.sql("select sum(a) from t").fetchall() == [(5,)]
    con.unregister("t")
    with pytest.raises(raydb.BinderException, match="t"):
        con.sql("select * from t")
    with pytest.raises(raydb.CatalogException, match="no registered table t"):
        con.unregister("t")


def test_registered_and_stored_names_do_not_mix(tmp_path):
    with raydb.connect(str(tmp_path / "db")) as con:
        con.create_table("stored", pa.table({"a": [1]}))
        with pytest.raises(raydb.CatalogException, match="exists in the database"):
            con.register("stored", pa.table({"a": [2]}))
        con.register("mem", pa.table({"a": [2]}))
        with pytest.raises(raydb.CatalogException, match="registered in memory"):
            con.create_table("mem", pa.table({"a": [3]}))
        assert con.sql("select s.a, m.a from stored s, mem m").fetchall() == [(1, 2)]
        assert con.tables() == ["stored"]  # registered tables are not written


BAD_INPUT = [
    (pa.table({"t": pa.array([1], pa.time32("s"))}), "column t: Arrow type time32[s] cannot be stored"),
    (pa.table({"b": pa.array([b"x"], pa.binary())}), "column b: Arrow type binary cannot be stored"),
    (pa.table({"ts": pa.array([1_000_000_001], pa.timestamp("ns"))}),
     "column ts: cannot convert timestamp[ns] to timestamp[us]"),   # not a whole microsecond
    (pa.table({"ts": pa.array([2**62], pa.timestamp("s"))}), "column ts: cannot convert timestamp[s] to timestamp[us]"),
    (pa.table({"u": pa.array([2**64 - 1], pa.uint64())}), "column u: cannot convert uint64 to int64"),
    (pa.table({"d": pa.array([decimal.Decimal("1" * 25)], pa.decimal128(30, 0))}), "column d: cannot convert"),
    ([1, 2, 3], "expected a pyarrow Table, a pandas or polars DataFrame"),
]


@pytest.mark.parametrize("data,message", BAD_INPUT)
def test_bad_input_is_one_line(con, data, message):
    with pytest.raises(raydb.InvalidInputException) as info:
        con.register("bad", data)
    assert message in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(raydb.BinderException):
        con.sql("select * from bad")


@pytest.mark.parametrize("name", ["1abc", "a-b", "", "x y"])
def test_bad_table_names(con, name):
    with pytest.raises(raydb.InvalidInputException, match="invalid table name"):
        con.register(name, pa.table({"a": [1]}))


def test_duplicate_column_names(con):
    t = pa.Table.from_arrays([pa.array([1]), pa.array([2])], names=["a", "A"])
    with pytest.raises(raydb.InvalidInputException, match="duplicate column name"):
        con.register("t", t)


def test_nulls_are_registered_and_stored(tmp_path):
    import sqlite3

    pd = pytest.importorskip("pandas")
    rows = [(1, None, "x"), (2, 2.5, None), (None, 3.5, ""), (4, None, None)]
    lite = sqlite3.connect(":memory:")
    lite.execute("create table t (a integer, d real, s text)")
    lite.executemany("insert into t values (?, ?, ?)", rows)
    arrow = pa.table({"a": pa.array([r[0] for r in rows], pa.int32()), "d": [r[1] for r in rows],
                      "s": [r[2] for r in rows]})
    frame = pd.DataFrame({"a": pd.array([r[0] for r in rows], dtype="Int32"), "d": [r[1] for r in rows],
                          "s": [r[2] for r in rows]})
    queries = ["select count(*), count(a), count(d), count(s), sum(a), max(d), min(s) from t",
               "select coalesce(a, -1), coalesce(s, '~') from t where d is null or s = '' order by 1",
               "select s is null, count(*) from t group by s is null order by 1"]
    with raydb.connect(str(tmp_path / "db")) as con:
        con.register("t", arrow)
        for sql in queries:
            assert con.sql(sql).fetchall() == lite.execute(sql).fetchall(), sql
        con.unregister("t")
        con.create_table("t", frame)  # pandas' missing values, written with validity bitmaps
        for sql in queries:
            assert con.sql(sql).fetchall() == lite.execute(sql).fetchall(), sql


def test_booleans_and_timestamps(con):
    """BOOLEAN and TIMESTAMP columns in, queried, and out again, against pyarrow's values and DuckDB."""
    stamps = [datetime.datetime(1969, 12, 31, 23, 59, 59, 999999), None, datetime.datetime(2024, 2, 29, 12, 0, 0, 5),
              datetime.datetime(1, 1, 1), datetime.datetime(9999, 12, 31, 23, 59, 59)]
    flags = [True, None, False, True, False]
    t = pa.table({"id": pa.array(range(5), pa.int32()), "b": pa.array(flags, pa.bool_()),
                  "us": pa.array(stamps, pa.timestamp("us")), "s": pa.array(stamps, pa.timestamp("us")).cast(
                      pa.timestamp("s"), safe=False),
                  "ms": pa.array([0, 1, None, -1, 1700000000123], pa.timestamp("ms")),
                  "ns": pa.array([0, 1000, None, -5000, 1700000000123456000], pa.timestamp("ns")),
                  "tz": pa.array([0, 1, 2, 3, 4], pa.timestamp("us", tz="Europe/Zurich"))})
    con.register("t", t)
    r = con.sql("select * from t order by id")
    assert r.types == ["INTEGER", "BOOLEAN", "TIMESTAMP", "TIMESTAMP", "TIMESTAMP", "TIMESTAMP", "TIMESTAMP"]
    out = r.arrow()
    for name in ["b", "us", "s", "ms", "ns"]:  # exact values, microseconds now
        want = t.column(name) if name == "b" else t.column(name).cast(pa.timestamp("us"))
        assert out.column(name).combine_chunks().equals(want.combine_chunks()), name
    assert out.column("tz").cast(pa.int64()).to_pylist() == [0, 1, 2, 3, 4]  # zoned: the UTC instants, zone dropped
    assert r.fetchall()[0][:3] == (0, True, stamps[0])
    duck = pytest.importorskip("duckdb").connect()
    duck.register("t", t.drop_columns(["tz"]))
    for sql in ["select count(*), count(b), sum(case when b then 1 else 0 end) from t where b or us > timestamp '2000-01-01'",
                "select id from t where not b order by id", "select min(us), max(us), min(ms), max(ns) from t",
                "select id, ms from t where ms >= timestamp '1970-01-01 00:00:00' order by ms"]:
        assert con.sql(sql).fetchall() == duck.sql(sql).fetchall(), sql
    frame = r.df()
    assert str(frame["us"].dtype).startswith("datetime64") and frame["b"].tolist()[0] is True
