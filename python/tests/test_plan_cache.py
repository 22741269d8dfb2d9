"""The plan cache (a SELECT run again with the same text skips parse, bind and plan) and
cursors (several sessions on one open database, statements at once from threads):
every answer equals SQLite's on the same rows, before and after each change to the
catalog or the data, and concurrent cursors answer as one connection does serially."""
import sqlite3
import threading

import pytest

import raydb

pa = pytest.importorskip("pyarrow")

QUERIES = [
    "select g, count(*), sum(v), min(v), max(v) from t group by g order by g",
    "select count(*), sum(v) from t where v > 40",
    "select g, sum(v) from t where g in ('a', 'c') group by g order by g",
    "select t.g, count(*) from t, d where t.g = d.g and d.w > 1 group by t.g order by t.g",
]


def _rows(n, start=0):
    return [(i, "abcde"[i % 5], (i * 37) % 101) for i in range(start, start + n)]


@pytest.fixture
def pair(tmp_path):
    """A raydb database and SQLite holding the same tables t(k, g, v) and d(g, w)."""
    con = raydb.connect(str(tmp_path / "db"), backend="cpu", threads=1)
    lite = sqlite3.connect(":memory:", check_same_thread=False)
    rows = _rows(500)
    con.create_table("t", pa.table({"k": pa.array([r[0] for r in rows], pa.int32()), "g": [r[1] for r in rows],
                                    "v": pa.array([r[2] for r in rows], pa.int64())}))
    con.create_table("d", pa.table({"g": list("abcde"), "w": pa.array([0, 2, 1, 3, 2], pa.int32())}))
    lite.execute("create table t (k integer, g text, v integer)")
    lite.executemany("insert into t values (?, ?, ?)", rows)
    lite.execute("create table d (g text, w integer)")
    lite.executemany("insert into d values (?, ?)", list(zip("abcde", [0, 2, 1, 3, 2])))
    yield con, lite
    con.close()
    lite.close()


def _check(con, lite, sql):
    r = con.sql(sql)
    assert r.fetchall() == [tuple(x) for x in lite.execute(sql).fetchall()], sql
    return r.plan_cached


def test_a_query_run_again_comes_from_the_cache_with_the_same_answer(pair):
    con, lite = pair
    for q in QUERIES:
        assert _check(con, lite, q) is False
        assert _check(con, lite, q) is True
    assert _check(con, lite, QUERIES[0] + " ") is False  # the exact text is the key
    assert con.sql("explain " + QUERIES[0]).plan_cached is False


def test_insert_update_delete_make_cached_plans_stale(pair):
    con, lite = pair
    for q in QUERIES:
        _check(con, lite, q)
    for change in ["insert into t values (1000, 'a', 99), (1001, 'e', 5)", "update t set v = v + 1 where g = 'c'",
                   "delete from t where k < 50", "insert into d values ('f', 9)"]:
        con.sql(change)
        lite.execute(change)
        for q in QUERIES:
            assert _check(con, lite, q) is False, (change, q)  # planned anew over the new rows
            assert _check(con, lite, q) is True


def test_ddl_makes_cached_plans_stale(pair):
    con, lite = pair
    q = "select g, count(*), sum(v) from t group by g order by g"
    _check(con, lite, q)
    assert _check(con, lite, q) is True
    # the same name, other rows and another type for v
    con.sql("drop table t")
    lite.execute("drop table t")
    con.sql("create table t (k integer, g varchar, v double)")
    lite.execute("create table t (k integer, g text, v real)")
    for stmt in ["insert into t values (1, 'x', 1.5), (2, 'y', 2.25), (3, 'x', -4.0)"]:
        con.sql(stmt)
        lite.execute(stmt)
    assert _check(con, lite, q) is False
    assert con.sql(q).types == ["VARCHAR", "BIGINT", "DOUBLE"]
    con.sql("drop table t")
    with pytest.raises(raydb.BinderException):  # no stale plan of a dropped table
        con.sql(q)
    # an index or a view changes the catalog too
    con.sql("create table t (k integer, g varchar, v bigint)")
    lite.execute("drop table t")
    lite.execute("create table t (k integer, g text, v integer)")
    con.sql("insert into t values (5, 'a', 7)")
    lite.execute("insert into t values (5, 'a', 7)")
    _check(con, lite, q)
    con.sql("create index t_k on t (k)")
    assert _check(con, lite, q) is False
    con.sql("create view tv as select * from t where v > 0")
    assert _check(con, lite, q) is False


def test_registering_a_table_again_makes_cached_plans_stale():
    with raydb.connect(backend="cpu", threads=1) as con:
        con.register("r", pa.table({"x": [1, 2, 3]}))
        q = "select sum(x), count(*) from r"
        assert con.sql(q).fetchall() == [(6, 3)]
        assert con.sql(q).plan_cached
        con.register("r", pa.table({"x": [10, 20]}))
        r = con.sql(q)
        assert r.fetchall() == [(30, 2)] and not r.plan_cached
        con.unregister("r")
        with pytest.raises(raydb.BinderException, match="unknown table"):
            con.sql(q)


def test_table_functions_are_never_cached(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n3,4\n")
    q = f"select sum(a), sum(b) from read_csv_auto('{path}')"
    with raydb.connect(backend="cpu", threads=1) as con:
        assert con.sql(q).fetchall() == [(4, 6)]
        path.write_text("a,b\n1,2\n3,4\n5,6\n")  # the file changes behind the catalog
        r = con.sql(q)
        assert r.fetchall() == [(9, 12)] and not r.plan_cached


def test_plan_cache_off(pair):
    con, lite = pair
    con.sql("set plan_cache = off")
    for _ in range(2):
        assert _check(con, lite, QUERIES[0]) is False
    con.sql("reset plan_cache")
    _check(con, lite, QUERIES[0])
    assert _check(con, lite, QUERIES[0]) is True
    with pytest.raises(raydb.InvalidInputException, match="plan_cache"):
        con.sql("set plan_cache = maybe")


def test_cursors_share_the_database_and_its_plan_cache(pair):
    con, lite = pair
    cur = con.cursor()
    assert _check(con, lite, QUERIES[1]) is False
    assert _check(cur, lite, QUERIES[1]) is True  # planned by the other session
    cur.sql("insert into t values (2000, 'b', 77)")  # a change through the cursor ...
    lite.execute("insert into t values (2000, 'b', 77)")
    assert _check(con, lite, QUERIES[1]) is False  # ... is seen by the first session
    cur.sql("set threads = 2")  # settings are per session
    assert con.sql("show threads").fetchall() == [("1",)] and cur.sql("show threads").fetchall() == [("2",)]
    con.close()
    with pytest.raises(raydb.ConnectionException, match="closed"):  # closing a connection closes its cursors
        cur.sql(QUERIES[1])


def test_cursors_run_at_once_and_answer_as_serial(pair):
    con, lite = pair
    want = {q: [tuple(x) for x in lite.execute(q).fetchall()] for q in QUERIES}
    serial = {q: con.sql(q).fetchall() for q in QUERIES}
    assert serial == want
    cursors = [con.cursor() for _ in range(4)]
    failures = []

    def client(i, cur):
        for k in range(40):
            q = QUERIES[(i + k) % len(QUERIES)]
            got = cur.sql(q).fetchall()
            if got != want[q]:
                failures.append((q, got))

    threads = [threading.Thread(target=client, args=(i, c)) for i, c in enumerate(cursors)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures and not any(t.is_alive() for t in threads)


def test_a_writer_between_cached_reads_is_seen_by_every_reader(pair):
    con, lite = pair
    q = "select count(*), sum(v) from t"
    readers = [con.cursor() for _ in range(3)]
    seen = []
    stop = threading.Event()

    def read(cur):
        while not stop.is_set():
            seen.append(cur.sql(q).fetchone())

    threads = [threading.Thread(target=read, args=(c,)) for c in readers]
    for t in threads:
        t.start()
    states = [tuple(lite.execute(q).fetchone())]
    writer = con.cursor()
    for i in range(5):
        stmt = f"insert into t values ({3000 + i}, 'a', {i + 1})"
        writer.sql(stmt)
        lite.execute(stmt)
        states.append(tuple(lite.execute(q).fetchone()))
    stop.set()
    for t in threads:
        t.join(120)
    assert set(seen) <= set(states)  # every answer is the table at some commit, none mixed
    for c in readers:  # and after the last write, the last state
        assert c.sql(q).fetchone() == states[-1]


def test_statements_that_materialize_many_rows_while_binding_are_not_kept():
    """A derived table or subquery is run while binding; the cache keeps such a plan only
    when what it materialized is small (it would hold the rows)."""
    n = 1_100_000  # over the 2^20 cells a kept plan may hold
    with raydb.connect(backend="cpu", threads=1) as con:
        con.register("big", pa.table({"x": pa.array(range(n), pa.int64())}))
        con.register("small", pa.table({"x": pa.array(range(1000), pa.int64())}))
        for sql, want, kept in [("select count(*) from (select x from big group by x) s", n, False),
                                ("select count(*) from (select x from small group by x) s", 1000, True),
                                ("select count(*) from big where x in (select x from small where x > 10)", 989, True)]:
            assert con.sql(sql).fetchall() == [(want,)]
            r = con.sql(sql)
            assert r.fetchall() == [(want,)] and r.plan_cached is kept, sql
