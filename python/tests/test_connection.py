"""Connections, statements, fetches and errors."""
import os
import shutil
import subprocess

import pytest

import raydb


def test_memory_database_is_removed_on_close():
    con = raydb.connect()
    path = con.path
    assert os.path.isdir(path)
    con.register("t", __import__("pyarrow").table({"a": [1, 2, 3]}))
    assert con.sql("select sum(a) from t").fetchall() == [(6,)]
    con.close()
    assert not os.path.exists(path)
    with pytest.raises(raydb.ConnectionException, match="connection is closed"):
        con.sql("select 1")


def test_directory_database_persists(tmp_path):
    import pyarrow as pa

    db = str(tmp_path / "db")
    with raydb.connect(db) as con:
        assert con.create_table("t", pa.table({"k": pa.array([3, 1, 2], pa.int32()), "s": ["c", "a", "b"]})) == 3
        assert con.tables() == ["t"]
    with raydb.connect(db) as con:
        assert con.sql("select k, s from t order by k").fetchall() == [(1, "a"), (2, "b"), (3, "c")]
        with pytest.raises(raydb.CatalogException, match="exists"):
            con.create_table("t", pa.table({"k": [1]}))
        con.create_table("t", pa.table({"k": [7]}), replace=True)
        assert con.sql("select * from t").fetchall() == [(7,)]


def test_not_a_database(tmp_path):
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(raydb.CatalogException):
        raydb.connect(str(tmp_path))
    assert os.listdir(tmp_path) == ["file.txt"]  # nothing created


def test_fetch_cursor(con):
    import pyarrow as pa

    con.register("t", pa.table({"a": pa.array(range(5), pa.int32())}))
    r = con.sql("select a from t order by a")
    assert len(r) == 5 and r.columns == ["a"] and r.types == ["INTEGER"]
    assert r.fetchone() == (0,)
    assert r.fetchmany(2) == [(1,), (2,)]
    assert r.fetchall() == [(3,), (4,)]
    assert r.fetchone() is None and r.fetchall() == []
    assert con.execute("select count(*) from t").fetchone() == (5,)
    assert con.execute("select a from t where a > 2 order by a").fetchall() == [(3,), (4,)]


def test_python_values(con):
    import datetime
    import decimal
    import pyarrow as pa

    con.register("t", pa.table({"d": pa.array([decimal.Decimal("-12.50")], pa.decimal128(6, 2)),
                                "day": pa.array([datetime.date(1998, 12, 31)]), "s": ["héllo"],
                                "x": [0.1], "b": pa.array([2**40], pa.int64())}))
    row = con.sql("select d, day, s, x, b, b * b * b, d > 0, cast(null as integer) from t").fetchone()
    assert row == (decimal.Decimal("-12.50"), datetime.date(1998, 12, 31), "héllo", 0.1, 2**40, 2**120, False, None)
    assert isinstance(row[0], decimal.Decimal)


ERRORS = [
    ("selec 1", raydb.ParserException),
    ("select nope from t", raydb.BinderException),
    ("select * from missing", raydb.BinderException),
    ("select a / 0 from t", raydb.ExecutionException),
]


@pytest.mark.parametrize("sql,cls", ERRORS)
def test_errors_are_exceptions_with_the_engines_one_line(con, sql, cls):
    import pyarrow as pa

    con.register("t", pa.table({"a": pa.array([1, 2], pa.int32())}))
    with pytest.raises(cls) as info:
        con.sql(sql).fetchall()
    message = str(info.value)
    assert message and "\n" not in message
    assert isinstance(info.value, raydb.Error)


def test_errors_match_the_cli(tmp_path):
    """The same statement fails with the same line in Python and in `raydb query`."""
    import pyarrow as pa

    cli = os.environ.get("RAYDB_CLI") or shutil.which("raydb")
    here = os.path.dirname(__file__)
    for candidate in [cli, os.path.join(here, "..", "..", "build", "raydb")]:
        if candidate and os.path.exists(candidate):
            cli = candidate
            break
    else:
        pytest.skip("no raydb CLI binary (build/raydb) to compare with")
    db = str(tmp_path / "db")
    with raydb.connect(db) as con:
        con.create_table("t", pa.table({"a": pa.array([1, 2], pa.int32())}))
        for sql, _ in ERRORS:
            with pytest.raises(raydb.Error) as info:
                con.sql(sql)
            p = subprocess.run([cli, "query", "--db", db, "--backend", "cpu", sql], capture_output=True, text=True)
            assert p.returncode != 0
            assert p.stderr.strip() == "error: " + str(info.value)


def test_backend_and_settings_keywords():
    with raydb.connect(backend="cpu", threads=1, index_paths="off") as con:
        import pyarrow as pa

        con.register("t", pa.table({"a": [1, 2, 3]}))
        r = con.sql("select sum(a) from t")
        assert r.backend == "cpu" and r.fetchall() == [(6,)]
        assert con.sql("show index_paths").fetchall() == [("off",)]
        assert con.sql("show threads").fetchall() == [("1",)]
    with pytest.raises(raydb.InvalidInputException, match="unknown backend 'warp'"):
        raydb.connect(backend="warp")
    with pytest.raises(raydb.InvalidInputException, match="no_such_setting"):
        raydb.connect(config={"no_such_setting": 1})
    with raydb.connect() as con:
        with pytest.raises(raydb.InvalidInputException):
            con.configure(index_paths="sideways")
        assert con.sql("show index_paths").fetchall() == [("default",)]  # unchanged
        with pytest.raises(raydb.InvalidInputException, match="threads"):
            con.configure(threads=-1)


def test_execute_without_statement_and_parameters(con):
    with pytest.raises(raydb.InvalidInputException, match="no statement"):
        con.fetchall()
    with pytest.raises(raydb.NotImplementedException):
        con.execute("select 1", [1])


def test_default_connection():
    import pyarrow as pa

    raydb.register("dflt", pa.table({"a": [4, 5]}))
    assert raydb.sql("select sum(a) from dflt").fetchall() == [(9,)]
    assert raydb.default_connection() is raydb.default_connection()
