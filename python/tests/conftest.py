"""Shared fixtures: a temporary raydb database, and one data set loaded into raydb,
SQLite (Python's sqlite3) and DuckDB alike, so every query has two oracles."""
import datetime
import decimal
import random
import sqlite3

import pytest

import raydb


@pytest.fixture
def con():
    c = raydb.connect(backend="cpu")
    yield c
    c.close()


def make_sales(rows=3000, seed=7):
    """Deterministic rows: id INTEGER, region VARCHAR, qty BIGINT, price DECIMAL(10,2),
    ratio DOUBLE, day DATE."""
    rng = random.Random(seed)
    regions = ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST", "Zürich"]
    start = datetime.date(1992, 1, 1)
    out = []
    for i in range(rows):
        out.append((i, rng.choice(regions), rng.randint(-5, 10**12),
                    decimal.Decimal(rng.randint(-99999999, 99999999)) / 100, rng.uniform(-1e3, 1e3),
                    start + datetime.timedelta(days=rng.randint(0, 2555))))
    return out


SALES_COLUMNS = ["id", "region", "qty", "price", "ratio", "day"]


def sales_arrow(rows):
    import pyarrow as pa

    cols = list(zip(*rows))
    return pa.table({
        "id": pa.array(cols[0], pa.int32()),
        "region": pa.array(cols[1], pa.string()),
        "qty": pa.array(cols[2], pa.int64()),
        "price": pa.array(cols[3], pa.decimal128(10, 2)),
        "ratio": pa.array(cols[4], pa.float64()),
        "day": pa.array(cols[5], pa.date32()),
    })


@pytest.fixture(scope="session")
def sales_rows():
    return make_sales()


@pytest.fixture(scope="session")
def sales_sqlite(sales_rows):
    """SQLite holds decimals as integers of cents and dates as ISO text."""
    db = sqlite3.connect(":memory:")
    db.execute("create table sales (id integer, region text, qty integer, price_cents integer, ratio real, day text)")
    db.executemany("insert into sales values (?,?,?,?,?,?)",
                   [(r[0], r[1], r[2], int(r[3] * 100), r[4], r[5].isoformat()) for r in sales_rows])
    return db


@pytest.fixture(scope="session")
def sales_duckdb(sales_rows):
    duckdb = pytest.importorskip("duckdb")
    db = duckdb.connect()
    tbl = sales_arrow(sales_rows)
    db.register("sales_arrow", tbl)
    db.execute("create table sales as select * from sales_arrow")
    return db


@pytest.fixture
def sales_con(sales_rows):
    c = raydb.connect(backend="cpu")
    c.register("sales", sales_arrow(sales_rows))
    yield c
    c.close()


def duckdb_arrow(db, sql):
    """DuckDB's result as a pyarrow Table (newer DuckDB returns a RecordBatchReader)."""
    out = db.sql(sql).arrow()
    return out.read_all() if hasattr(out, "read_all") else out
