"""Results as Arrow, pandas and polars, checked against DuckDB on the same data."""
import pytest

from conftest import duckdb_arrow

pa = pytest.importorskip("pyarrow")


def test_arrow_types_and_values_match_duckdb(sales_con, sales_duckdb):
    sql = ("select id, region, qty, price, ratio, day, qty * 2 as q2, price * 3 as p3 "
           "from sales where id < 500 order by id")
    got = sales_con.sql(sql).arrow()
    want = duckdb_arrow(sales_duckdb, sql)
    assert got.schema.names == ["id", "region", "qty", "price", "ratio", "day", "q2", "p3"]
    assert got.schema.types[:6] == [pa.int32(), pa.string(), pa.int64(), pa.decimal128(10, 2), pa.float64(),
                                    pa.date32()]
    for name in got.schema.names:
        g, w = got.column(name), want.column(name)
        if pa.types.is_decimal(g.type):
            assert g.to_pylist() == w.to_pylist(), name  # widths differ by engine; values exactly equal
        else:
            assert g.equals(w.cast(g.type)), name


def test_nulls_become_validity_bitmaps(sales_con, sales_duckdb):
    sql = ("select id, case when id % 3 = 0 then qty end as q, case when id % 4 = 0 then region end as r, "
           "case when id % 5 = 0 then price end as p, case when id % 2 = 0 then day end as d "
           "from sales where id < 100 order by id")
    got = sales_con.sql(sql).arrow()
    want = duckdb_arrow(sales_duckdb, sql)
    assert got.column("q").null_count == 66
    assert got.to_pylist() == want.to_pylist()
    assert got.column("r").chunk(0).buffers()[0] is not None  # a real bitmap, not a sentinel


def test_aggregates_hugeint_and_empty(sales_con, sales_duckdb):
    sql = "select region, sum(qty) as s, count(*) as n, avg(ratio) as a from sales group by region order by region"
    got = sales_con.sql(sql).arrow()
    want = sales_duckdb.sql(sql).fetchall()
    assert [tuple(r.values()) for r in got.to_pylist()][0][:3] == want[0][:3]
    for g, w in zip(got.to_pylist(), want):
        assert (g["region"], int(g["s"]), g["n"]) == w[:3]
        assert g["a"] == pytest.approx(w[3], rel=1e-12)
    empty = sales_con.sql("select id, region from sales where id < 0").arrow()
    assert empty.num_rows == 0 and empty.schema.names == ["id", "region"]
    none = sales_con.sql("select sum(qty) as s, count(*) as n from sales where id < 0").arrow()
    assert none.to_pylist() == [{"s": None, "n": 0}]


def test_bigint_and_double_columns_are_shared_not_copied(sales_con):
    r = sales_con.sql("select qty, ratio, id from sales")
    a = pa.record_batch(r)
    b = pa.record_batch(r)
    # Two exports of one result point at the same engine buffers (zero-copy) ...
    assert a.column(0).buffers()[1].address == b.column(0).buffers()[1].address
    assert a.column(1).buffers()[1].address == b.column(1).buffers()[1].address
    # ... while INTEGER is narrowed from the result's 64-bit values into a new buffer.
    assert a.column(2).buffers()[1].address != b.column(2).buffers()[1].address
    del r
    assert a.column(0).to_pylist()[:3] == b.column(0).to_pylist()[:3]  # alive after the Result is gone


def test_pandas_and_polars(sales_con, sales_duckdb):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    sql = "select id, region, qty, ratio, day from sales where id < 50 order by id"
    df = sales_con.sql(sql).df()
    want = sales_duckdb.sql(sql).df()
    assert list(df.columns) == list(want.columns)
    pd.testing.assert_frame_equal(df.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False)
    p = sales_con.sql(sql).pl()
    assert isinstance(p, pl.DataFrame) and p.shape == (50, 5)
    assert p["qty"].to_list() == [int(x) for x in want["qty"]]
    assert p["region"].to_list() == list(want["region"])


def test_arrow_c_stream_protocol(sales_con):
    r = sales_con.sql("select id from sales where id < 3 order by id")
    assert pa.table(r).column("id").to_pylist() == [0, 1, 2]
    assert pa.RecordBatchReader.from_stream(r).read_all().num_rows == 3


def test_many_rows(con):
    import numpy as np

    n = 1_000_000
    con.register("big", pa.table({"k": pa.array(np.arange(n, dtype=np.int64)),
                                  "v": pa.array(np.arange(n, dtype=np.float64) / 7)}))
    t = con.sql("select k, v from big").arrow()
    assert t.num_rows == n
    assert t.column("k").to_numpy()[-1] == n - 1
    assert t.column("v").to_numpy().sum() == pytest.approx(np.arange(n).sum() / 7)


def test_boolean_and_null_typed_columns(con):
    con.register("t", pa.table({"a": pa.array([1, 2, 3], pa.int32())}))
    t = con.sql("select a > 1 as gt, a from t order by a").arrow()
    assert t.schema.field("gt").type == pa.bool_()
    assert t.column("gt").to_pylist() == [False, True, True]
    assert con.sql("select a > 1 from t order by a").fetchall() == [(False,), (True,), (True,)]


def test_cuda_backend_answers_as_the_cpu_or_says_why(sales_rows):
    import raydb
    from conftest import sales_arrow

    sql = "select region, sum(qty), count(*) from sales group by region order by region"
    with raydb.connect(backend="cpu") as cpu, raydb.connect(backend="cuda") as gpu:
        cpu.register("sales", sales_arrow(sales_rows))
        gpu.register("sales", sales_arrow(sales_rows))
        want = cpu.sql(sql).fetchall()
        try:
            r = gpu.sql(sql)
        except raydb.Error as e:  # no CUDA device or no CUDA build here: one line saying so
            assert "CUDA" in str(e) and "\n" not in str(e)
        else:
            assert r.backend == "cuda" and r.fetchall() == want
