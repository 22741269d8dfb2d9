"""BOOLEAN and TIMESTAMP against DuckDB (pip duckdb) as the oracle: one table with NULLs,
1970-01-01, leap days, year 1 and 9999, timestamps before 1970 and sub-second parts, the
same rows in both engines, every query's rows compared value by value; the CSV, JSON
lines and Parquet round trips; and the one-line errors of bad input."""
import datetime
import decimal
import json
import os
import subprocess

import duckdb
import pytest

RAYDB = os.environ.get("RAYDB_BINARY", "raydb")

ROWS = [  # id, flag, ts, d
    (1, "true", "1970-01-01 00:00:00", "1970-01-01"),
    (2, "false", "2024-02-29 12:34:56.789", "2024-02-29"),
    (3, "NULL", "1969-12-31 23:59:59.999999", "1969-12-31"),
    (4, "true", "NULL", "2000-02-29"),
    (5, "false", "9999-12-31 23:59:59.999999", "9999-12-31"),
    (6, "true", "0001-01-01 00:00:00", "0001-01-01"),
    (7, "NULL", "1900-03-01 06:07:08.5", "NULL"),
    (8, "false", "2024-02-29 12:34:56.789", "2024-03-01"),
    (9, "true", "1999-12-31 23:00:00.000001", "1999-12-31"),
    (10, "false", "1954-06-15 00:00:00.25", "1954-06-15"),
]


def sql_rows():
    def lit(kind, v):
        return "NULL" if v == "NULL" else f"{kind} '{v}'"
    return ", ".join(f"({i}, {f}, {lit('TIMESTAMP', t)}, {lit('DATE', d)})" for i, f, t, d in ROWS)


CREATE = "CREATE TABLE t (id INTEGER NOT NULL, flag BOOLEAN, ts TIMESTAMP, d DATE)"
NORMAL = "id NOT IN (5, 6)"  # rows whose arithmetic stays within years 1..9999

QUERIES = [
    "SELECT id, flag, ts, d FROM t ORDER BY id",
    "SELECT id FROM t WHERE flag ORDER BY id",
    "SELECT id FROM t WHERE NOT flag ORDER BY id",
    "SELECT id FROM t WHERE flag IS NULL ORDER BY id",
    "SELECT id FROM t WHERE flag = true ORDER BY id",
    "SELECT id FROM t WHERE flag <> true ORDER BY id",
    "SELECT id FROM t WHERE flag OR id > 8 ORDER BY id",
    "SELECT id, flag AND id > 5 AS a, flag OR id > 5 AS o, NOT flag AS n FROM t ORDER BY id",
    "SELECT flag, count(*) AS n, min(ts) AS lo, max(ts) AS hi FROM t GROUP BY flag ORDER BY flag",
    "SELECT flag, count(*) AS n FROM t GROUP BY flag ORDER BY flag DESC",
    "SELECT min(flag) AS mn, max(flag) AS mx, count(flag) AS c, bool_and(flag) AS ba, bool_or(flag) AS bo FROM t",
    "SELECT bool_and(flag) AS ba, bool_or(flag) AS bo FROM t WHERE id IN (1, 4, 6)",
    "SELECT DISTINCT flag FROM t ORDER BY flag",
    "SELECT id, ts FROM t ORDER BY ts, id",
    "SELECT id, ts FROM t ORDER BY ts DESC, id",
    "SELECT id FROM t WHERE ts < TIMESTAMP '1970-01-01 00:00:00' ORDER BY id",
    "SELECT id FROM t WHERE ts >= '2000-01-01' ORDER BY id",
    "SELECT id FROM t WHERE ts BETWEEN TIMESTAMP '1954-06-15 00:00:00.25' AND TIMESTAMP '2024-02-29 12:34:56.789' ORDER BY id",
    "SELECT id FROM t WHERE ts = TIMESTAMP '2024-02-29 12:34:56.789' ORDER BY id",
    "SELECT id FROM t WHERE ts > d ORDER BY id",
    "SELECT ts, count(*) AS n FROM t GROUP BY ts ORDER BY ts",
    "SELECT min(ts) AS lo, max(ts) AS hi, count(ts) AS n FROM t",
    "SELECT id, extract(year FROM ts) AS y, extract(month FROM ts) AS m, extract(day FROM ts) AS dd, "
    "extract(hour FROM ts) AS h, extract(minute FROM ts) AS mi, extract(second FROM ts) AS s FROM t ORDER BY id",
    "SELECT id, extract(quarter FROM ts) AS q, extract(dow FROM ts) AS w, extract(doy FROM ts) AS dy FROM t ORDER BY id",
    "SELECT id, date_trunc('year', ts) AS y, date_trunc('quarter', ts) AS q, date_trunc('month', ts) AS m, "
    "date_trunc('day', ts) AS dd FROM t ORDER BY id",
    "SELECT id, date_trunc('hour', ts) AS h, date_trunc('minute', ts) AS mi, date_trunc('second', ts) AS s "
    "FROM t ORDER BY id",
    f"SELECT id, ts + INTERVAL '1' HOUR AS a, ts - INTERVAL '90' MINUTE AS b, ts + INTERVAL '30' SECOND AS c, "
    f"ts + INTERVAL '3' DAY AS e FROM t WHERE {NORMAL} ORDER BY id",
    f"SELECT id, ts + INTERVAL '1' MONTH AS a, ts - INTERVAL '1' YEAR AS b, ts + INTERVAL '13' MONTH AS c "
    f"FROM t WHERE {NORMAL} ORDER BY id",
    f"SELECT id, d + INTERVAL '5' HOUR AS a FROM t WHERE {NORMAL} ORDER BY id",
    "SELECT id, CAST(ts AS DATE) AS a, CAST(d AS TIMESTAMP) AS b, CAST(ts AS VARCHAR) AS c FROM t ORDER BY id",
    "SELECT id, CAST(flag AS VARCHAR) AS a, CAST(flag AS INTEGER) AS b, CAST(id % 2 AS BOOLEAN) AS c FROM t ORDER BY id",
    "SELECT CAST('2024-01-02 03:04:05.123456' AS TIMESTAMP) AS a, CAST('true' AS BOOLEAN) AS b, "
    "CAST('F' AS BOOLEAN) AS c, TIMESTAMP '2024-01-02 03:04:05' AS e",
    "SELECT count(*) AS n FROM t a JOIN t b ON a.ts = b.ts",
    "SELECT a.id AS x, b.id AS y FROM t a JOIN t b ON a.ts = b.ts WHERE a.id < b.id ORDER BY 1, 2",
    "SELECT id, CASE WHEN flag THEN 'yes' WHEN NOT flag THEN 'no' ELSE 'unknown' END AS c FROM t ORDER BY id",
    "SELECT id, coalesce(flag, false) AS f, coalesce(ts, TIMESTAMP '2000-01-01') AS s FROM t ORDER BY id",
    "WITH w AS (SELECT id, flag, ts FROM t WHERE id > 2) SELECT flag, max(ts) AS m FROM w GROUP BY flag ORDER BY flag",
]


def run_raydb(*args, check=True, stdin=None):
    p = subprocess.run([RAYDB, *args], capture_output=True, text=True, timeout=120, input=stdin)
    if check and p.returncode != 0:
        raise AssertionError(f"raydb {' '.join(args)} failed ({p.returncode}): {p.stderr}")
    return p


def json_results(text):
    """Each statement's rows (lists of JSON values) from concatenated JSON arrays."""
    dec, pos, out = json.JSONDecoder(parse_float=decimal.Decimal), 0, []  # decimals exact
    text = text.strip()
    while pos < len(text):
        rows, pos = dec.raw_decode(text, pos)
        out.append([list(r.values()) for r in rows])
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


def timestamp_text(t):
    s = "%04d-%02d-%02d %02d:%02d:%02d" % (t.year, t.month, t.day, t.hour, t.minute, t.second)
    if t.microsecond:
        s += (".%06d" % t.microsecond).rstrip("0")
    return s


def duck_value(v):
    if isinstance(v, datetime.datetime):
        return timestamp_text(v)
    if isinstance(v, datetime.date):
        return "%04d-%02d-%02d" % (v.year, v.month, v.day)
    return v


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("types") / "db")
    run_raydb("query", "--create", "--db", path, f"{CREATE}; INSERT INTO t VALUES {sql_rows()}")
    return path


@pytest.fixture(scope="module")
def duck():
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.execute("SET default_null_order = 'nulls_last_on_asc_first_on_desc'")  # PostgreSQL's, as raydb
    con.execute(CREATE)
    con.execute(f"INSERT INTO t VALUES {sql_rows()}")
    return con


def test_queries_agree_with_duckdb(db, duck):
    out = run_raydb("query", "--db", db, "--format", "json", "; ".join(QUERIES)).stdout
    ours = json_results(out)
    assert len(ours) == len(QUERIES)
    for q, got in zip(QUERIES, ours):
        want = [[duck_value(v) for v in r] for r in duck.execute(q).fetchall()]
        assert got == want, q


def test_stored_types_and_create_table_as(db, duck):
    out = run_raydb("query", "--db", db, "--format", "json",
                    "CREATE TABLE t2 AS SELECT id, flag, ts, ts > TIMESTAMP '1970-01-01 00:00:00' AS late FROM t; "
                    "SELECT id, flag, ts, late FROM t2 ORDER BY id; "
                    "INSERT INTO t2 VALUES (11, 't', '2030-05-06 07:08:09.010203', NULL); "
                    "UPDATE t2 SET ts = ts + INTERVAL '1' DAY, flag = NOT flag WHERE id = 2; "
                    "SELECT id, flag, ts, late FROM t2 WHERE id IN (2, 11) ORDER BY id").stdout
    res = json_results(out)
    q = "SELECT id, flag, ts, ts > TIMESTAMP '1970-01-01 00:00:00' AS late FROM t ORDER BY id"
    assert res[1] == [[duck_value(v) for v in r] for r in duck.execute(q).fetchall()]
    assert res[-1] == [[2, True, "2024-03-01 12:34:56.789", True], [11, True, "2030-05-06 07:08:09.010203", None]]
    described = run_raydb("describe", "--db", db, "--table", "t2").stdout
    assert "BOOLEAN" in described and "TIMESTAMP" in described and "9999-12-31 23:59:59.999999" in described, described


def test_csv_and_jsonl_round_trip(db, duck, tmp_path):
    csv = str(tmp_path / "out.csv")
    run_raydb("query", "--db", db, f"COPY (SELECT id, flag, ts FROM t ORDER BY id) TO '{csv}' (HEADER)")
    # DuckDB sniffs the same types from raydb's file and reads the same values
    cols = duckdb.sql(f"DESCRIBE SELECT * FROM read_csv_auto('{csv}')").fetchall()
    assert [c[1] for c in cols] == ["BIGINT", "BOOLEAN", "TIMESTAMP"]
    theirs = duck.execute("SELECT id, flag, ts FROM t ORDER BY id").fetchall()
    assert duckdb.sql(f"SELECT * FROM read_csv_auto('{csv}')").fetchall() == theirs
    # raydb's sniffer reads it back as BOOLEAN and TIMESTAMP
    db2 = str(tmp_path / "db2")
    out = run_raydb("load", "csv", "--db", db2, "--table", "back", csv).stdout
    assert "flag BOOLEAN" in out and "ts TIMESTAMP" in out, out
    back = json_results(run_raydb("query", "--db", db2, "--format", "json", "SELECT * FROM back ORDER BY id").stdout)[0]
    assert back == [[duck_value(v) for v in r] for r in theirs]
    # JSON lines with booleans and timestamps
    jl = tmp_path / "in.jsonl"
    jl.write_text("\n".join(json.dumps({"id": i, "flag": None if f == "NULL" else f == "true",
                                        "ts": None if t == "NULL" else t}) for i, f, t, _ in ROWS) + "\n")
    out = run_raydb("load", "jsonl", "--db", db2, "--table", "j", str(jl)).stdout
    assert "flag BOOLEAN" in out and "ts TIMESTAMP" in out, out
    got = json_results(run_raydb("query", "--db", db2, "--format", "json", "SELECT * FROM j ORDER BY id").stdout)[0]
    want = duck.execute("SELECT id, flag, ts FROM t ORDER BY id").fetchall()
    assert got == [[duck_value(v) for v in r] for r in want]


def parquet_built():
    p = subprocess.run([RAYDB, "load", "parquet", "--db", "/nonexistent/x", "--table", "t", "/nonexistent.parquet"],
                       capture_output=True, text=True)
    return "Parquet support was not built" not in p.stderr


@pytest.mark.skipif(not parquet_built(), reason="this raydb was built without Parquet support")
def test_parquet_units_and_export(db, duck, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    # raydb's Parquet is read by DuckDB as BOOLEAN and TIMESTAMP with the same values
    out = str(tmp_path / "out.parquet")
    run_raydb("query", "--db", db, f"COPY (SELECT id, flag, ts FROM t ORDER BY id) TO '{out}'")
    cols = duckdb.sql(f"DESCRIBE SELECT * FROM '{out}'").fetchall()
    assert [c[1] for c in cols] == ["INTEGER", "BOOLEAN", "TIMESTAMP"]
    assert duckdb.sql(f"SELECT * FROM '{out}'").fetchall() == duck.execute("SELECT id, flag, ts FROM t ORDER BY id").fetchall()
    # every unit maps exactly; below a microsecond and out of range are one-line errors
    table = pa.table({
        "s": pa.array([-86400, 0, None, 253402300799], pa.timestamp("s")),
        "ms": pa.array([-1, 1, None, 1709210096789], pa.timestamp("ms")),
        "us": pa.array([-1, 1, None, 253402300799999999], pa.timestamp("us")),
        "ns": pa.array([-1000, 1000, None, 1709210096789000000], pa.timestamp("ns")),
        "b": pa.array([True, False, None, True]),
    })
    path = str(tmp_path / "units.parquet")
    pq.write_table(table, path)
    db2 = str(tmp_path / "db2")
    out = run_raydb("load", "parquet", "--db", db2, "--table", "u", path).stdout
    assert "s TIMESTAMP, ms TIMESTAMP, us TIMESTAMP, ns TIMESTAMP, b BOOLEAN" in out, out
    got = json_results(run_raydb("query", "--db", db2, "--format", "json", "SELECT * FROM u").stdout)[0]
    want = duckdb.sql(f"SELECT s::TIMESTAMP, ms::TIMESTAMP, us::TIMESTAMP, ns::TIMESTAMP, b FROM '{path}'").fetchall()
    assert got == [[duck_value(v) for v in r] for r in want]
    bad = {"frac": pa.array([1], pa.timestamp("ns")), "big": pa.array([2**62], pa.timestamp("ms"))}
    for name, arr in bad.items():
        f = str(tmp_path / f"{name}.parquet")
        pq.write_table(pa.table({"x": arr}), f)
        p = run_raydb("load", "parquet", "--db", db2, "--table", "b", f, check=False)
        assert p.returncode != 0 and "column x" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


@pytest.mark.parametrize("sql,expect", [
    ("SELECT TIMESTAMP '2024-13-01 00:00:00'", "invalid TIMESTAMP literal"),
    ("SELECT TIMESTAMP '2024-02-30 00:00:00'", "invalid TIMESTAMP literal"),
    ("SELECT TIMESTAMP '2024-01-01 24:00:01'", "invalid TIMESTAMP literal"),
    ("SELECT CAST('maybe' AS BOOLEAN)", "maybe"),
    ("SELECT CAST('2024-01-01 x' AS TIMESTAMP)", "2024-01-01 x"),
    ("SELECT id FROM t WHERE ts < 'yesterday'", "invalid TIMESTAMP"),
    ("SELECT sum(ts) FROM t", "cannot apply sum to TIMESTAMP"),
    ("SELECT bool_and(id) FROM t", "bool_and needs a BOOLEAN argument"),
    ("SELECT ts + 1 FROM t", "cannot apply '+' to TIMESTAMP"),
    ("INSERT INTO t VALUES (20, 'perhaps', NULL, NULL)", "invalid input for column t.flag (BOOLEAN)"),
    ("INSERT INTO t VALUES (20, 1, NULL, NULL)", "column t.flag is of type BOOLEAN"),
])
def test_errors_are_one_line(db, sql, expect):
    p = run_raydb("query", "--db", db, sql, check=False)
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and expect in lines[0], p.stderr


def test_bad_literal_names_its_position(db):
    sql = "SELECT id FROM t WHERE ts > TIMESTAMP '2024-01-01 25:00:00'"
    p = run_raydb("query", "--db", db, sql, check=False)
    assert p.returncode != 0
    line = p.stderr.strip()
    where = f"at line 1, column {sql.index(chr(39)) + 1}"
    assert "\n" not in line and "invalid TIMESTAMP literal" in line and where in line, line


def test_read_csv_auto_as_a_table(db, duck, tmp_path):
    csv = str(tmp_path / "side.csv")
    with open(csv, "w") as f:
        f.write("id,name,flag,at,amount\n")
        for i in range(1, 12):
            flag = "" if i % 4 == 0 else ("true" if i % 2 else "false")
            f.write(f"{i},n{i % 3},{flag},2024-0{1 + i % 9}-1{i % 10} 0{i % 10}:30:00,{i * 1.25:.2f}\n")
    duck.execute(f"CREATE TABLE side AS SELECT * FROM read_csv_auto('{csv}')")
    queries = [
        f"SELECT * FROM read_csv_auto('{csv}') ORDER BY id",
        f"SELECT s.name, count(*) AS n, max(s.at) AS m FROM read_csv_auto('{csv}') s GROUP BY s.name ORDER BY 1",
        f"SELECT t.id, s.name FROM t JOIN read_csv_auto('{csv}') AS s ON t.id = s.id WHERE s.flag ORDER BY 1",
        f"SELECT id FROM t WHERE id IN (SELECT id FROM read_csv_auto('{csv}') WHERE amount > 5) ORDER BY id",
        f"SELECT x.id, y.b FROM read_csv_auto('{csv}') x LEFT JOIN (SELECT id AS i, flag AS b FROM t) y "
        f"ON x.id = y.i ORDER BY 1",
    ]
    out = run_raydb("query", "--db", db, "--format", "json", "; ".join(queries)).stdout
    for q, got in zip(queries, json_results(out)):
        want = duck.execute(q.replace(f"read_csv_auto('{csv}')", "side")).fetchall()
        assert got == [[duck_value(v) for v in r] for r in want], q


@pytest.mark.skipif(not parquet_built(), reason="this raydb was built without Parquet support")
def test_read_parquet_as_a_table(db, duck, tmp_path):
    pq_file = str(tmp_path / "f.parquet")
    duckdb.sql(f"""COPY (SELECT i AS id, i % 3 = 0 AS flag, TIMESTAMP '1969-12-31 23:00:00' + to_microseconds(i * 3600000001)
                        AS tm, (i * 2.5)::DECIMAL(9,2) AS amount, 'k' || (i % 4) AS k
                        FROM range(1, 40) r(i)) TO '{pq_file}' (FORMAT PARQUET)""")
    duck.execute(f"CREATE TABLE pf AS SELECT * FROM '{pq_file}'")
    queries = [
        f"SELECT * FROM read_parquet('{pq_file}') ORDER BY id",
        f"SELECT k, count(*) AS n, min(tm) AS lo, sum(amount) AS s FROM read_parquet('{pq_file}') GROUP BY k ORDER BY k",
        f"SELECT p.id, t.ts FROM read_parquet('{pq_file}') p JOIN t ON p.id = t.id WHERE p.flag OR t.flag ORDER BY 1",
        f"SELECT count(*) AS n FROM (SELECT id FROM read_parquet('{pq_file}') WHERE tm > TIMESTAMP '1970-01-02 00:00:00') q",
        f"WITH w AS (SELECT * FROM read_parquet('{pq_file}', '{pq_file}')) SELECT count(*) AS n, max(id) AS m FROM w",
    ]
    out = run_raydb("query", "--db", db, "--format", "json", "; ".join(queries)).stdout
    for q, got in zip(queries, json_results(out)):
        dq = q.replace(f"read_parquet('{pq_file}', '{pq_file}')", "(SELECT * FROM pf UNION ALL SELECT * FROM pf)")
        want = duck.execute(dq.replace(f"read_parquet('{pq_file}')", "pf")).fetchall()
        assert got == [[duck_value(v) for v in r] for r in want], q
    p = run_raydb("query", "--db", db, "SELECT * FROM read_parquet('/nonexistent/x.parquet')", check=False)
    assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1 and "cannot open" in p.stderr, p.stderr
    p = run_raydb("query", "--db", db, "SELECT * FROM read_json('x.json')", check=False)
    assert p.returncode != 0 and "unknown table function" in p.stderr, p.stderr


def test_indexes_refuse_boolean_and_timestamp_columns(tmp_path):
    db = str(tmp_path / "db")
    run_raydb("query", "--create", "--db", db,
              "CREATE TABLE u (ts TIMESTAMP NOT NULL, b BOOLEAN NOT NULL); "
              "INSERT INTO u VALUES ('2024-01-01 10:00:00', true), ('1960-05-05', false)")
    for col, typ in (("ts", "TIMESTAMP"), ("b", "BOOLEAN")):
        p = run_raydb("query", "--db", db, f"CREATE INDEX i_{col} ON u ({col})", check=False)
        assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1, p.stderr
        assert f"cannot index column u.{col} of type {typ}" in p.stderr, p.stderr
    rows = json_results(run_raydb("query", "--db", db, "--format", "json",
                                  "SELECT ts, b FROM u WHERE b OR ts < '1970-01-01' ORDER BY ts").stdout)[0]
    assert rows == [["1960-05-05 00:00:00", False], ["2024-01-01 10:00:00", True]]
