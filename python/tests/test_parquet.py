"""Parquet in (load_parquet, through pyarrow) and out (write_parquet), checked with
DuckDB reading the same files."""
import datetime
import decimal
import os

import pytest

import raydb

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def test_load_parquet_matches_duckdb(tmp_path, sales_rows):
    duckdb = pytest.importorskip("duckdb")
    from conftest import sales_arrow

    path = str(tmp_path / "sales.parquet")
    pq.write_table(sales_arrow(sales_rows), path, row_group_size=700)  # several row groups
    with raydb.connect(str(tmp_path / "db")) as con:
        assert con.load_parquet("sales", path) == len(sales_rows)
    sql = ("select region, count(*), sum(qty), sum(price), min(day), max(ratio) from sales "
           "group by region order by region")
    with raydb.connect(str(tmp_path / "db")) as con:  # persisted
        got = con.sql(sql).fetchall()
    want = duckdb.sql(sql.replace("from sales", f"from read_parquet('{path}')")).fetchall()
    assert [r[:5] for r in got] == [r[:5] for r in want]
    assert [r[5] for r in got] == [r[5] for r in want]


def test_write_parquet_round_trip(tmp_path, sales_con, sales_duckdb):
    path = str(tmp_path / "out.parquet")
    sql = "select id, region, qty, price, ratio, day, case when id % 3 = 0 then id end as n from sales order by id"
    sales_con.sql(sql).write_parquet(path)
    back = pq.read_table(path)
    assert back.schema.field("price").type == pa.decimal128(10, 2)
    assert back.schema.field("day").type == pa.date32()
    assert back.column("n").null_count == 2000
    from conftest import duckdb_arrow

    assert back.to_pylist() == duckdb_arrow(sales_duckdb, sql).to_pylist()


def test_parquet_errors(tmp_path):
    with raydb.connect() as con:
        with pytest.raises(raydb.IOException, match="cannot read Parquet"):
            con.load_parquet("t", str(tmp_path / "missing.parquet"))
        (tmp_path / "junk.parquet").write_bytes(b"not parquet at all")
        with pytest.raises(raydb.IOException, match="cannot read Parquet"):
            con.load_parquet("t", str(tmp_path / "junk.parquet"))
        assert con.tables() == []  # nothing written by the failed loads


def test_parquet_nulls_are_stored(tmp_path):
    import sqlite3

    path = str(tmp_path / "nulls.parquet")
    pq.write_table(pa.table({"a": [1, None, 3, None], "s": ["x", None, "", "y"],
                             "d": pa.array([1.5, 2.5, None, None], pa.float64())}), path)
    lite = sqlite3.connect(":memory:")
    lite.execute("create table t (a integer, s text, d real)")
    lite.executemany("insert into t values (?, ?, ?)", [tuple(r.values()) for r in pq.read_table(path).to_pylist()])
    with raydb.connect(str(tmp_path / "db")) as con:
        con.load_parquet("t", path)
        for sql in ["select a, s, d from t order by coalesce(a, -1), coalesce(s, '~')",
                    "select count(*), count(a), count(s), sum(a), min(s), max(d) from t",
                    "select s is null, count(*) from t group by s is null order by 1",
                    "select a from t where a > 1 or s = 'x' order by a"]:
            assert con.sql(sql).fetchall() == lite.execute(sql).fetchall(), sql
        assert con.sql("select a from t").arrow().column("a").null_count == 2


def test_load_parquet_replace_and_columns(tmp_path):
    path = str(tmp_path / "x.parquet")
    pq.write_table(pa.table({"a": pa.array([1, 2], pa.int32()), "s": ["u", "v"],
                             "d": [datetime.date(2024, 2, 29)] * 2,
                             "m": pa.array([decimal.Decimal("0.001")] * 2, pa.decimal128(4, 3))}), path)
    with raydb.connect() as con:
        con.load_parquet("x", path, columns=["a", "m"])
        assert con.sql("select * from x order by a").fetchall() == [(1, decimal.Decimal("0.001")),
                                                                     (2, decimal.Decimal("0.001"))]
        with pytest.raises(raydb.CatalogException):
            con.load_parquet("x", path)
        con.load_parquet("x", path, replace=True)
        assert con.sql("select s, d from x where a = 2").fetchall() == [("v", datetime.date(2024, 2, 29))]
        assert os.path.isdir(con.path)
