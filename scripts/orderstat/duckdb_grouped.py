#!/usr/bin/env python3
"""DuckDB's time for grouped order statistics over SSB data, to set beside raydb's.

  raydb gen ssb --sf 1 --db DB --tbl TBL
  python3 scripts/orderstat/duckdb_grouped.py TBL --threads 2 --reps 5 \
      -q "few=select d_year, median(lo_revenue) from lineorder, date where lo_orderdate = d_datekey group by d_year order by d_year"

Loads lineorder and date from the .tbl files raydb wrote (only the columns the
queries of docs/benchmarks/order-statistics.md read), runs each query once to warm
up, then prints the median, min and max of --reps runs, and the first row.
"""
import argparse
import os
import statistics
import time

# The .tbl column order of the two tables; only `keep` is loaded.
LINEORDER = ("lo_orderkey lo_linenumber lo_custkey lo_partkey lo_suppkey lo_orderdate lo_orderpriority "
             "lo_shippriority lo_quantity lo_extendedprice lo_ordtotalprice lo_discount lo_revenue lo_supplycost "
             "lo_tax lo_commitdate lo_shipmode").split()
DATE = ("d_datekey d_date d_dayofweek d_month d_year d_yearmonthnum d_yearmonth d_daynuminweek d_daynuminmonth "
        "d_daynuminyear d_monthnuminyear d_weeknuminyear d_sellingseason d_lastdayinweekfl d_lastdayinmonthfl "
        "d_holidayfl d_weekdayfl").split()
KEEP = {"lineorder": ["lo_custkey", "lo_partkey", "lo_suppkey", "lo_orderdate", "lo_quantity", "lo_discount",
                      "lo_revenue", "lo_supplycost"],
        "date": ["d_datekey", "d_year", "d_yearmonthnum"]}


def load(con, tbl_dir, table, names):
    spec = "{" + ",".join(f"'{n}':'{'INT' if n in KEEP[table] else 'VARCHAR'}'" for n in names) + ",'trailing':'VARCHAR'}"
    path = os.path.join(tbl_dir, f"{table}.tbl")
    con.execute(f'CREATE TABLE "{table}" AS SELECT {", ".join(KEEP[table])} FROM '
                f"read_csv('{path}', delim='|', header=false, columns={spec})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tbl_dir")
    ap.add_argument("-q", "--query", action="append", required=True, help="NAME=SQL")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    import duckdb
    con = duckdb.connect(":memory:")
    con.execute(f"SET threads={a.threads}")
    t0 = time.time()
    load(con, a.tbl_dir, "lineorder", LINEORDER)
    load(con, a.tbl_dir, "date", DATE)
    print(f"duckdb {duckdb.__version__}, {a.threads} threads, load {time.time() - t0:.1f} s")
    for q in a.query:
        name, sql = q.split("=", 1)
        rows = con.execute(sql).fetchall()  # warm-up
        times = []
        for _ in range(a.reps):
            s = time.perf_counter()
            rows = con.execute(sql).fetchall()
            times.append((time.perf_counter() - s) * 1e3)
        print(f"{name:10s} median {statistics.median(times):9.2f} ms  min {min(times):9.2f}  max {max(times):9.2f}  "
              f"rows {len(rows)}  first {rows[0] if rows else None}")


if __name__ == "__main__":
    main()
