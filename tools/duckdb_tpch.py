#!/usr/bin/env python3
"""Time DuckDB on TPC-H: load dbgen-style .tbl files, run the 22 queries, print medians.

  pip install duckdb
  python3 tools/duckdb_tpch.py TBL_DIR [QUERY_DIR] [--reps N] [--threads T] [--json FILE]

TBL_DIR holds the eight <table>.tbl files (or <table>.tbl.1, .2, ...), as
`raydb gen tpch --tbl DIR` or dbgen write them. QUERY_DIR defaults to tpch/queries of
this repository. The schema is raydb's (DECIMAL(15,2) money, DATE, VARCHAR, INTEGER
keys), so both engines compute on the same types. One change to the query text:
DuckDB does not accept the interval precision of the specification's Q1
(`interval '90' day (3)`), so ` (3)` is dropped after `day`; the value is the same.
Use it to compare raydb's CPU backend (`raydb bench tpch --threads T`) with DuckDB
on the same machine, data and thread count.
"""
import argparse, glob, json, os, re, statistics, sys, time

I, V, D, M = "INTEGER", "VARCHAR", "DATE", "DECIMAL(15,2)"
SCHEMA = {
    "lineitem": [("l_orderkey", I), ("l_partkey", I), ("l_suppkey", I), ("l_linenumber", I), ("l_quantity", M),
                 ("l_extendedprice", M), ("l_discount", M), ("l_tax", M), ("l_returnflag", V), ("l_linestatus", V),
                 ("l_shipdate", D), ("l_commitdate", D), ("l_receiptdate", D), ("l_shipinstruct", V),
                 ("l_shipmode", V), ("l_comment", V)],
    "orders": [("o_orderkey", I), ("o_custkey", I), ("o_orderstatus", V), ("o_totalprice", M), ("o_orderdate", D),
               ("o_orderpriority", V), ("o_clerk", V), ("o_shippriority", I), ("o_comment", V)],
    "customer": [("c_custkey", I), ("c_name", V), ("c_address", V), ("c_nationkey", I), ("c_phone", V),
                 ("c_acctbal", M), ("c_mktsegment", V), ("c_comment", V)],
    "part": [("p_partkey", I), ("p_name", V), ("p_mfgr", V), ("p_brand", V), ("p_type", V), ("p_size", I),
             ("p_container", V), ("p_retailprice", M), ("p_comment", V)],
    "partsupp": [("ps_partkey", I), ("ps_suppkey", I), ("ps_availqty", I), ("ps_supplycost", M), ("ps_comment", V)],
    "supplier": [("s_suppkey", I), ("s_name", V), ("s_address", V), ("s_nationkey", I), ("s_phone", V),
                 ("s_acctbal", M), ("s_comment", V)],
    "nation": [("n_nationkey", I), ("n_name", V), ("n_regionkey", I), ("n_comment", V)],
    "region": [("r_regionkey", I), ("r_name", V), ("r_comment", V)],
}


def duckdb_text(sql):
    """The query text DuckDB runs (see the module docstring)."""
    return re.sub(r"(interval\s+'[0-9]+'\s+day)\s*\(\s*3\s*\)", r"\1", sql, flags=re.IGNORECASE)


def load(con, tbl_dir):
    for table, cols in SCHEMA.items():
        files = sorted(glob.glob(os.path.join(tbl_dir, f"{table}.tbl")) +
                       glob.glob(os.path.join(tbl_dir, f"{table}.tbl.[0-9]*")))
        if not files:
            sys.exit(f"no {table}.tbl in {tbl_dir}")
        decl = ", ".join(f"{n} {t}" for n, t in cols)
        spec = "{" + ",".join(f"'{n}':'{t}'" for n, t in cols) + ",'trailing':'VARCHAR'}"
        names = ",".join(n for n, _ in cols)
        con.execute(f'CREATE TABLE "{table}" ({decl})')
        con.execute(f'INSERT INTO "{table}" SELECT {names} FROM read_csv({files!r}, delim=\'|\', header=false, '
                    f"quote='', escape='', columns={spec})")


def natural_key(path):
    return int(re.sub(r"\D", "", os.path.basename(path)) or 0)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("tbl_dir")
    ap.add_argument("query_dir", nargs="?", default=os.path.join(here, "..", "tpch", "queries"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--queries", help="comma-separated subset, e.g. q1,q6")
    ap.add_argument("--json")
    a = ap.parse_args()
    import duckdb
    con = duckdb.connect(":memory:")
    if a.threads:
        con.execute(f"SET threads={a.threads}")
    t0 = time.time()
    load(con, a.tbl_dir)
    threads = con.execute("select current_setting('threads')").fetchone()[0]
    print(f"load {time.time() - t0:.1f} s, duckdb {duckdb.__version__}, threads {threads}", file=sys.stderr)
    only = set(a.queries.split(",")) if a.queries else None
    out = []
    for path in sorted(glob.glob(os.path.join(a.query_dir, "q*.sql")), key=natural_key):
        name = os.path.basename(path)[:-4]
        if only and name not in only:
            continue
        sql = duckdb_text(open(path).read())
        con.execute(sql).fetchall()  # warm-up
        times, rows = [], None
        for _ in range(a.reps):
            s = time.perf_counter()
            rows = con.execute(sql).fetchall()
            times.append((time.perf_counter() - s) * 1e3)
        out.append({"suite": "tpch", "engine": "duckdb", "query": name, "median_ms": statistics.median(times),
                    "min_ms": min(times), "max_ms": max(times), "rows": len(rows), "threads": threads,
                    "first": [str(v) for v in rows[0]] if rows else []})
        print(f"{name}\t{statistics.median(times):8.1f} ms\trows={len(rows)}")
    print(f"total\t{sum(r['median_ms'] for r in out):8.1f} ms")
    if a.json:
        with open(a.json, "w") as f:
            for r in out:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
