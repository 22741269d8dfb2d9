"""raydb.distributed: a sharded database queried through Ray actors (CPU backend, one
local Ray cluster for the module) gives the answers of one raydb process over the whole
database, and DuckDB's, for the 13 SSB queries and ad-hoc queries; queries it cannot
split are one-line errors; a worker that dies mid-query gives a retried correct answer
or a clear error."""
import datetime
import decimal
import math
import os
import random
import shutil
import subprocess
import threading
import time

import pytest

import raydb

ray = pytest.importorskip("ray")
pytest.importorskip("sqlglot")
pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")

import raydb.distributed as rd  # noqa: E402  (needs ray and sqlglot)

HERE = os.path.dirname(os.path.abspath(__file__))
SSB_QUERIES = os.path.join(HERE, "..", "..", "ssb", "queries")


# -- comparing answers ------------------------------------------------------------------

def _same_value(a, b, rel):
    if a is None or b is None:
        return a is b
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-9)
    return a == b


def _same_rows(got, want, rel=1e-12, ordered=True):
    if not ordered:
        key = lambda row: tuple((v is None, str(v)) for v in row)  # noqa: E731
        got, want = sorted(got, key=key), sorted(want, key=key)
    return len(got) == len(want) and all(
        len(g) == len(w) and all(_same_value(x, y, rel) for x, y in zip(g, w)) for g, w in zip(got, want))


def _merged_types(con, sql, types):
    """The one-process types, except that where shards compute whole rows ("rows" and
    "key-local" plans) a 128-bit column comes back 64-bit (BIGINT, DECIMAL(18,s)): SQL has
    no cast to the engine's HUGEINT or DECIMAL(38,s)."""
    kind = con.explain(sql).splitlines()[0].split()[1]
    if kind not in ("rows", "key-local"):
        return types
    return ["BIGINT" if t == "HUGEINT" else t.replace("DECIMAL(38,", "DECIMAL(18,") for t in types]


def _ordered(sql):
    return " order by " in sql.lower()


# -- data -------------------------------------------------------------------------------

def _cli():
    cli = os.environ.get("RAYDB_CLI") or shutil.which("raydb")
    for candidate in [cli, os.path.join(HERE, "..", "..", "build", "raydb")]:
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def _adhoc_tables(rows=3000, seed=11):
    """Fact f (NULLs in qty, price, ratio, s; dkey 0..24 of which d holds 0..19) and dimension d."""
    rng = random.Random(seed)
    maybe = lambda v: None if rng.random() < 0.1 else v  # noqa: E731
    start = datetime.date(1995, 1, 1)
    f = pa.table({
        "id": pa.array(range(rows), pa.int32()),
        "k": pa.array([rng.randint(0, 40) for _ in range(rows)], pa.int32()),
        "dkey": pa.array([rng.randint(0, 24) for _ in range(rows)], pa.int32()),
        "qty": pa.array([maybe(rng.randint(-50, 10**9)) for _ in range(rows)], pa.int64()),
        "price": pa.array([maybe(decimal.Decimal(rng.randint(-10**6, 10**7)) / 100) for _ in range(rows)],
                          pa.decimal128(10, 2)),
        "ratio": pa.array([maybe(rng.uniform(-100, 100)) for _ in range(rows)], pa.float64()),
        "day": pa.array([start + datetime.timedelta(days=rng.randint(0, 1500)) for _ in range(rows)], pa.date32()),
        "s": pa.array([maybe(rng.choice(["ant", "bee", "cat", "dog", "eel", "fox", "Zürich"])) for _ in range(rows)]),
        "flag": pa.array([maybe(rng.random() < 0.3) for _ in range(rows)], pa.bool_()),
        "ts": pa.array([maybe(datetime.datetime(2020, 1, 1) + datetime.timedelta(microseconds=rng.randint(0, 10**13)))
                        for _ in range(rows)], pa.timestamp("us")),
    })
    d = pa.table({"dkey": pa.array(range(20), pa.int32()),
                  "name": [f"name{i % 7}" for i in range(20)],
                  "region": [["EU", "ASIA", "AMERICA"][i % 3] for i in range(20)]})
    return f, d


@pytest.fixture(scope="module")
def cluster():
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    yield
    if started:
        ray.shutdown()


@pytest.fixture(scope="module")
def adhoc(tmp_path_factory, cluster):
    """The ad-hoc database whole (one process, DuckDB) and as 3 row-range shards and 2 key shards."""
    root = tmp_path_factory.mktemp("adhoc")
    f, d = _adhoc_tables()
    whole = str(root / "whole")
    with raydb.connect(whole) as con:
        con.create_table("f", f)
        con.create_table("d", d)
    rd.shard_database(whole, str(root / "rows3"), 3, fact="f", by="rows")
    rd.shard_database(whole, str(root / "key2"), 2, fact="f", by="k")
    duck = duckdb.connect()
    duck.register("f_arrow", f)
    duck.register("d_arrow", d)
    duck.execute("create table f as select * from f_arrow")
    duck.execute("create table d as select * from d_arrow")
    single = raydb.connect(whole, backend="cpu")
    rows3 = rd.connect(str(root / "rows3"), backend="cpu", threads=1)
    key2 = rd.connect(str(root / "key2"), backend="cpu", threads=1)
    yield {"root": root, "whole": whole, "single": single, "rows3": rows3, "key2": key2, "duck": duck}
    rows3.close()
    key2.close()
    single.close()


@pytest.fixture(scope="module")
def ssb(tmp_path_factory, cluster):
    root = tmp_path_factory.mktemp("ssb")
    whole = str(root / "whole")
    raydb.generate_ssb(whole, 0.01, threads=2)
    rd.shard_database(whole, str(root / "rows3"), 3, fact="lineorder", by="rows")
    rd.shard_database(whole, str(root / "key2"), 2, fact="lineorder", by="lo_orderkey")
    single = raydb.connect(whole, backend="cpu")
    duck = duckdb.connect()
    for t in single.tables():
        duck.register(f"{t}_arrow", single.sql(f"select * from {t}").arrow())
        duck.execute(f'create table "{t}" as select * from "{t}_arrow"')
    conns = {"rows3": rd.connect(str(root / "rows3"), backend="cpu", threads=1),
             "key2": rd.connect(str(root / "key2"), backend="cpu", threads=1)}
    yield {"root": root, "whole": whole, "single": single, "duck": duck, **conns}
    for c in conns.values():
        c.close()
    single.close()


# -- the 13 SSB queries -----------------------------------------------------------------

SSB_NAMES = sorted(f[:-4] for f in os.listdir(SSB_QUERIES) if f.endswith(".sql"))


@pytest.mark.parametrize("layout", ["rows3", "key2"])
def test_ssb_matches_one_process_and_duckdb(ssb, layout):
    assert len(SSB_NAMES) == 13
    answered = 0
    for name in SSB_NAMES:
        sql = open(os.path.join(SSB_QUERIES, name + ".sql")).read()
        want = ssb["single"].sql(sql)
        got = ssb[layout].sql(sql)
        assert got.columns == want.columns and got.types == _merged_types(ssb[layout], sql, want.types), name
        want_rows, got_rows = want.fetchall(), got.fetchall()
        assert got_rows == want_rows, name
        assert _same_rows(got_rows, ssb["duck"].sql(sql).fetchall(), 1e-9, _ordered(sql)), name
        answered += bool(got_rows)
    assert answered >= 9  # at SF 0.01 the four most selective queries find no rows


# -- ad-hoc queries ----------------------------------------------------------------------

# (raydb SQL, DuckDB SQL or None for the same text, or False for no DuckDB equivalent)
ADHOC = [
    ("select k, count(*), sum(qty), min(price), max(price), avg(qty), count(s) from f group by k order by k", None),
    ("select region, count(distinct s), median(qty), quantile_disc(price, 0.25), min(day), max(s) "
     "from f join d on f.dkey = d.dkey group by region order by region", None),
    ("select name, sum(price) as total, count(*) as n from f, d where f.dkey = d.dkey group by name "
     "having count(*) > 100 order by total desc limit 5", None),
    ("select id, qty from f where qty is not null order by qty desc, id limit 7 offset 3", None),
    ("select min(qty), max(qty), min(s), max(s), min(price), count(qty), count(*) from f where qty is null", None),
    ("select min(qty), max(s), sum(price), avg(ratio) from f where id < 0", None),
    ("select k, sum(qty) from f where id < 0 group by k", None),
    ("select count(*), sum(qty), avg(price), median(qty), count(distinct s), quantile_cont(ratio, 0.5) "
     "from f where id < 0", None),
    ("select distinct k % 5 as m, dkey % 2 as p from f order by 1, 2", None),
    ("select avg(price), avg(ratio), avg(k), sum(ratio) from f", None),
    ("select count(distinct s), count(distinct k), count(distinct dkey) from f", None),
    ("select k % 3 as g, quantile_cont(ratio, 0.9), median(price), quantile_disc(day, 0.5) from f group by 1 order by 1",
     None),
    ("select k from f group by k order by sum(qty) desc, k limit 4", None),
    ("select d.name, count(*), sum(f.qty) from f left join d on f.dkey = d.dkey group by d.name order by 1",
     None),
    ("select count(*), sum(qty) from f where dkey in (select dkey from d where region = 'EU')", None),
    ("select region, count(*) from d group by region order by region", None),
    ("select extract(year from day) as y, count(*), sum(distinct k), avg(distinct dkey) from f group by y order by y",
     None),
    ("select id, k, s from f where id % 97 = 0 order by ratio * -1, id limit 5", None),
    ("select * from f where id % 401 = 7 order by id", None),
    ("select s, percentile_disc(0.5) within group (order by qty), count(*) from f group by s order by s",
     None),
    ("select k, kth_smallest(qty, 2), kth_largest(distinct dkey, 1), kth_smallest(ratio, count(*) / 2) from f "
     "group by k order by k", False),
    ("select s, count(*) from f group by s having sum(qty) > 0 and max(k) > 30 order by count(*) desc, s", None),
    ("select k, count(*) as n from f where k < 5 group by k order by n desc, k", None),
    ("select count(*) from f", None),
    ("select flag, count(*), min(ts), max(ts), count(distinct ts) from f group by flag order by flag", None),
    ("select distinct k % 5 as m, s is null as nul, flag from f where k < 20 order by 1, 2, 3", None),
    ("select id, ts from f where ts > timestamp '2020-03-01 00:00:00' and flag order by ts, id limit 6", None),
    ("select distinct s from f order by s desc", "select distinct s from f order by s desc nulls first"),
    ("select k, d.region, sum(price) from f, d where f.dkey = d.dkey and k between 3 and 6 "
     "group by k, d.region order by 3 desc limit 3", None),
    # NULLS FIRST|LAST: the shards' ORDER BY and the merge's keep the placement written
    ("select id, qty, s from f where k < 10 order by s nulls first, qty desc nulls last, id limit 12", None),
    ("select id, ratio from f where id % 13 = 0 order by ratio desc nulls last, id limit 8 offset 2", None),
    ("select distinct s from f order by s nulls first", None),
    ("select s, count(*), sum(qty) as t from f group by s order by s desc nulls last", None),
    ("select k, max(qty) as m from f where id % 50 = 0 group by k order by m nulls first, k", None),
]


@pytest.mark.parametrize("layout", ["rows3", "key2"])
@pytest.mark.parametrize("sql,duck_sql", ADHOC, ids=[f"q{i}" for i in range(len(ADHOC))])
def test_adhoc_matches_one_process_and_duckdb(adhoc, layout, sql, duck_sql):
    want = adhoc["single"].sql(sql)
    got = adhoc[layout].sql(sql)
    assert got.columns == want.columns and got.types == _merged_types(adhoc[layout], sql, want.types)
    got_rows, want_rows = got.fetchall(), want.fetchall()
    assert _same_rows(got_rows, want_rows, 1e-12, _ordered(sql))
    if duck_sql is not False:
        assert _same_rows(got_rows, adhoc["duck"].sql(duck_sql or sql).fetchall(), 1e-9, _ordered(sql))


def test_plans_take_the_expected_shape(adhoc):
    def kind(con, sql):
        return con.explain(sql).splitlines()[0].split()[1]

    assert kind(adhoc["rows3"], "select count(*) from d") == "one"
    assert kind(adhoc["rows3"], "select id from f order by id limit 3") == "rows"
    assert kind(adhoc["rows3"], "select k, median(qty) from f group by k") == "aggregate"
    assert kind(adhoc["key2"], "select k, median(qty) from f group by k") == "key-local"
    plan = adhoc["rows3"].explain("select k, avg(qty), median(ratio) from f group by k")
    assert "SUM(qty)" in plan and "COUNT(qty)" in plan and "__v0" in plan  # AVG as SUM+COUNT, values gathered


NOT_SPLIT = [
    ("select count(*) from f a, f b where a.id = b.id", "read 2 times"),
    ("select count(*) from f where k in (select k from f where id < 3)", "read 2 times"),
    ("select count(*) from (select * from f) x", "inside a subquery"),
    ("select id, sum(qty) over (partition by k) from f", "window functions"),
    ("select d.name, count(f.id) from d left join f on f.dkey = d.dkey group by d.name", "LEFT JOIN keeps unmatched"),
    ("select k % 3, median(name) from f, d where f.dkey = d.dkey group by 1", "order statistic .* of VARCHAR"),
]


@pytest.mark.parametrize("sql,reason", NOT_SPLIT)
def test_queries_that_cannot_be_split_are_clear_errors(adhoc, sql, reason):
    adhoc["single"].sql(sql)  # a valid query for one process
    with pytest.raises(rd.NotDistributableError, match=reason) as info:
        adhoc["rows3"].sql(sql)
    assert "\n" not in str(info.value) and str(info.value).startswith("cannot run this query across shards")
    assert isinstance(info.value, raydb.NotImplementedException)


def test_only_queries_run(adhoc):
    for sql in ["create table z (a int)", "insert into f select * from f", "drop table d", "set threads = 1"]:
        with pytest.raises(rd.NotDistributableError, match="only SELECT statements"):
            adhoc["rows3"].sql(sql)
    assert adhoc["rows3"].sql("select count(*) from d").fetchall() == [(20,)]


def test_engine_errors_are_the_engines(adhoc):
    for sql in ["select nope from f", "select k, sum(qty) from f", "selec 1"]:
        with pytest.raises(raydb.Error) as single:
            adhoc["single"].sql(sql)
        with pytest.raises(raydb.Error) as dist:
            adhoc["rows3"].sql(sql)
        assert type(dist.value) is type(single.value) and str(dist.value) == str(single.value)


def test_results_convert_like_raydb_results(adhoc):
    sql = "select k, sum(qty) as s, median(ratio) as m from f group by k order by k"
    got, want = adhoc["rows3"].sql(sql), adhoc["single"].sql(sql)
    assert got.arrow().equals(want.arrow())
    assert got.df().equals(want.df())


# -- sharding ------------------------------------------------------------------------------

def test_shard_database_splits_and_replicates(adhoc):
    root, whole = adhoc["root"], adhoc["whole"]
    layout = rd.ShardLayout.read(str(root / "rows3"))
    assert layout.fact == "f" and layout.by == "rows" and sum(layout.fact_rows) == 3000
    ids = []
    for path in layout.shard_paths():
        with raydb.connect(path) as con:
            ids += [r[0] for r in con.sql("select id from f").fetchall()]
            assert con.sql("select * from d order by dkey").arrow().equals(
                adhoc["single"].sql("select * from d order by dkey").arrow())
    assert ids == list(range(3000))  # contiguous ranges in the source's order
    keys = []
    for path in rd.ShardLayout.read(str(root / "key2")).shard_paths():
        with raydb.connect(path) as con:
            keys.append({r[0] for r in con.sql("select distinct k from f").fetchall()})
    assert keys[0] and keys[1] and not keys[0] & keys[1]  # every key in one shard


def test_shard_database_keeps_not_null(ssb):
    import json

    def columns(path):
        with open(os.path.join(path, "manifest.json")) as fh:
            return {t["name"]: [(c["name"], c["type"], c.get("nullable", False)) for c in t["columns"]]
                    for t in json.load(fh)["tables"]}

    source = columns(ssb["whole"])
    for path in rd.ShardLayout.read(str(ssb["root"] / "rows3")).shard_paths():
        assert columns(path) == source


def test_shard_database_bad_input_leaves_nothing(adhoc, tmp_path):
    whole = adhoc["whole"]
    before = sorted(os.listdir(adhoc["root"]))
    with pytest.raises(raydb.IOException, match="already exists"):
        rd.shard_database(whole, str(adhoc["root"] / "rows3"), 2, fact="f")
    with pytest.raises(raydb.CatalogException, match="fact table nope not found"):
        rd.shard_database(whole, str(tmp_path / "out"), 2, fact="nope")
    with pytest.raises(raydb.BinderException, match="column nope not found"):
        rd.shard_database(whole, str(tmp_path / "out"), 2, fact="f", by="nope")
    with pytest.raises(raydb.InvalidInputException, match="at least 1"):
        rd.shard_database(whole, str(tmp_path / "out"), 0, fact="f")
    with pytest.raises(raydb.IOException, match="not a raydb database"):
        rd.shard_database(str(tmp_path), str(tmp_path / "out"), 2, fact="f")
    assert sorted(os.listdir(adhoc["root"])) == before and os.listdir(tmp_path) == []
    with pytest.raises(raydb.IOException, match="not a sharded raydb database"):
        rd.connect(str(tmp_path))


def test_generate_ssb_is_the_clis(tmp_path):
    cli = _cli()
    if cli is None:
        pytest.skip("no raydb CLI binary (build/raydb) to compare with")
    subprocess.run([cli, "gen", "ssb", "--db", str(tmp_path / "cli"), "--sf", "0.01", "--threads", "2"],
                   check=True, capture_output=True)
    rows = raydb.generate_ssb(tmp_path / "py", 0.01, threads=1)  # the data does not depend on threads
    with raydb.connect(str(tmp_path / "cli")) as a, raydb.connect(str(tmp_path / "py")) as b:
        assert sorted(a.tables()) == sorted(b.tables()) == ["customer", "date", "lineorder", "part", "supplier"]
        assert rows == sum(b.sql(f'select count(*) from "{t}"').fetchall()[0][0] for t in b.tables())
        for t in a.tables():
            assert a.sql(f'select * from "{t}"').arrow().equals(b.sql(f'select * from "{t}"').arrow()), t


def test_generate_ssb_bad_input_is_one_line(tmp_path):
    for bad, kind in [(0, raydb.InvalidInputException), (-1, raydb.InvalidInputException)]:
        with pytest.raises(kind) as info:
            raydb.generate_ssb(tmp_path / "x", bad)
        assert "\n" not in str(info.value)
    with pytest.raises(raydb.InvalidInputException, match="threads"):
        raydb.generate_ssb(tmp_path / "x", 0.01, threads=-2)
    (tmp_path / "file").write_text("not a database")
    with pytest.raises(raydb.Error):
        raydb.generate_ssb(tmp_path / "file", 0.01)
    assert sorted(os.listdir(tmp_path)) == ["file"]  # nothing half-written


# -- concurrency and batches ------------------------------------------------------------------

def test_concurrent_clients_get_their_own_answers(adhoc):
    queries = [sql for sql, _ in ADHOC[:12]] + ["select region, count(*) from d group by region order by region"]
    want = [adhoc["single"].sql(q).fetchall() for q in queries]
    con = adhoc["rows3"]
    failures = []

    def client(offset):
        for k in range(len(queries)):
            i = (offset + k) % len(queries)
            got = con.sql(queries[i]).fetchall()
            if not _same_rows(got, want[i], 1e-12, _ordered(queries[i])):
                failures.append(queries[i])

    threads = [threading.Thread(target=client, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures and not any(t.is_alive() for t in threads)


def test_worker_connections_answer_as_one_at_a_time(adhoc):
    """Several engine connections per worker (statements at once on one open shard) give
    the answers of one connection and of the one-process database."""
    queries = [sql for sql, _ in ADHOC[:12]]
    want = [adhoc["single"].sql(q).fetchall() for q in queries]
    for n in (1, 3):
        with rd.connect(str(adhoc["root"] / "rows3"), backend="cpu", threads=1, worker_connections=n) as con:
            assert [w["connections"] for w in con.workers()] == [n] * 3
            failures = []

            def client(offset, batch):
                order = [(offset + k) % len(queries) for k in range(len(queries))]
                got = (con.sql_many([queries[i] for i in order]) if batch else [con.sql(queries[i]) for i in order])
                failures.extend(queries[i] for i, r in zip(order, got)
                                if not _same_rows(r.fetchall(), want[i], 1e-12, _ordered(queries[i])))

            threads = [threading.Thread(target=client, args=(i, i % 2 == 1)) for i in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            assert not failures and not any(t.is_alive() for t in threads), n


def test_shard_worker_connections_run_at_once_in_process(ssb):
    """The worker's own pool, without Ray: run() from several threads on 3 connections
    answers as the same statements run one at a time."""
    from raydb.distributed.worker import ShardWorker

    texts = [open(os.path.join(SSB_QUERIES, n + ".sql")).read() for n in SSB_NAMES]
    worker = ShardWorker(ssb["whole"], backend="cpu", threads=1, connections=3)
    want = [t.to_pylist() for _, t in worker.run(texts)]
    got = {}

    def call(i):
        got[i] = [t.to_pylist() for _, t in worker.run(texts[i:] + texts[:i])]

    threads = [threading.Thread(target=call, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert all(got[i] == want[i:] + want[:i] for i in range(6))
    assert worker.stats()["statements"] == 7 * len(texts) and worker.info()["connections"] == 3


def test_a_batch_answers_like_single_statements(adhoc):
    # one-shard (replicated tables only), rows, aggregate and order-statistic plans mixed
    queries = ["select region, count(*) from d group by region order by region", ADHOC[0][0], ADHOC[3][0],
               ADHOC[1][0], "select count(*) from f"]
    con = adhoc["rows3"]
    con.worker_stats(reset=True)
    got = [r.fetchall() for r in con.sql_many(queries)]
    stats = con.worker_stats()
    assert [len(x) for x in got] == [len(con.sql(q).fetchall()) for q in queries]
    for q, rows in zip(queries, got):
        assert _same_rows(rows, adhoc["single"].sql(q).fetchall(), 1e-12, _ordered(q)), q
    # each shard ran the four sharded statements' queries; one shard also the replicated one
    assert sum(s["statements"] for s in stats) >= 3 * 4 + 1 and all(s["run_ms"] >= s["engine_ms"] >= 0 for s in stats)
    con.worker_stats(reset=True)
    assert all(s["statements"] == 0 for s in con.worker_stats())
    with pytest.raises(raydb.BinderException, match="nope"):  # a bad statement fails the batch: the engine's error
        con.sql_many([queries[0], "select * from nope"])


# -- failures --------------------------------------------------------------------------------

SQL_FOR_FAILURES = "select k, count(*), median(qty) from f group by k order by k"


def test_worker_exiting_mid_query_is_retried(adhoc):
    want = adhoc["single"].sql(SQL_FOR_FAILURES).fetchall()
    with rd.connect(str(adhoc["root"] / "rows3"), backend="cpu", threads=1, retries=1) as con:
        pid = con.workers()[1]["pid"]
        ray.get(con.actors[1].inject_fault.remote("exit"))
        assert con.sql(SQL_FOR_FAILURES).fetchall() == want
        assert con.workers()[1]["pid"] != pid  # Ray restarted the worker and re-ran its query


def test_worker_exiting_without_retries_is_an_error(adhoc):
    with rd.connect(str(adhoc["root"] / "rows3"), backend="cpu", threads=1, retries=0) as con:
        ray.get(con.actors[2].inject_fault.remote("exit"))
        with pytest.raises(rd.WorkerError, match="shard 2 .*worker failed") as info:
            con.sql(SQL_FOR_FAILURES)
        assert "\n" not in str(info.value) and isinstance(info.value, raydb.Error)
        with pytest.raises(rd.WorkerError, match="shard 2"):  # a dead worker stays an error
            con.sql(SQL_FOR_FAILURES)


def test_worker_killed_while_a_query_runs(adhoc):
    want = adhoc["single"].sql(SQL_FOR_FAILURES).fetchall()
    with rd.connect(str(adhoc["root"] / "rows3"), backend="cpu", threads=1, retries=1) as con:
        victim = con.actors[0]
        ray.get(victim.inject_fault.remote("stall", 30))
        out = {}
        runner = threading.Thread(target=lambda: out.setdefault("rows", con.sql(SQL_FOR_FAILURES).fetchall()))
        start = time.monotonic()
        runner.start()
        time.sleep(1.0)  # the shard query is now waiting inside worker 0
        ray.kill(victim, no_restart=False)
        runner.join(60)
        assert out.get("rows") == want and time.monotonic() - start < 30


def test_connect_to_shard_directories_by_hand(adhoc):
    paths = rd.ShardLayout.read(str(adhoc["root"] / "rows3")).shard_paths()
    sql = "select dkey, count(*), avg(price) from f group by dkey order by dkey"
    with rd.connect(paths, fact="f", backend="cpu", threads=1, retries=0) as con:
        # AVG of a DECIMAL: the exact sum over the count, which may differ in the last bit
        assert _same_rows(con.sql(sql).fetchall(), adhoc["single"].sql(sql).fetchall(), 1e-15)
        workers = con.workers()
        assert [w["path"] for w in workers] == paths and len({w["pid"] for w in workers}) == 3
        assert all(w["gpus"] == [] for w in workers)  # the CPU backend asks Ray for no GPU
    with pytest.raises(raydb.InvalidInputException, match="give fact="):
        rd.connect(paths)
    with pytest.raises(raydb.IOException, match="is not a raydb database"):
        rd.connect([str(adhoc["root"])], fact="f")
