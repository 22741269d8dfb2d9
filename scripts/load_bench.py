#!/usr/bin/env python3
"""Load speed of raydb against DuckDB on the same files: CSV (raydb's schema guessed,
DuckDB's read_csv_auto) and Parquet, one generated table of N rows (integers, a
decimal, a date, a string), each load timed end to end from a fresh process (raydb) or
a fresh connection (DuckDB, into a persistent table), median of REPS. Checks that both
loaded the same row count and sums, and fails loudly otherwise.

    python3 scripts/load_bench.py [--raydb build/raydb] [--rows 5000000] [--reps 3] [--threads N]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import duckdb


def timed(fn, reps):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raydb", default="build/raydb")
    ap.add_argument("--rows", type=int, default=5_000_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="raydb_load_bench_")
    try:
        csv, pq = os.path.join(work, "t.csv"), os.path.join(work, "t.parquet")
        gen = duckdb.connect()
        gen.sql(f"""create table t as select i as id, (i * 7919) % 1000003 as qty, ((i % 100000) / 100)::decimal(8,2) as price,
                    date '1992-01-01' + (i % 2500)::integer as day, 'name_' || (i % 5000) as name from range({a.rows}) r(i)""")
        gen.sql(f"copy t to '{csv}' (header)")
        gen.sql(f"copy t to '{pq}' (format parquet)")
        expect = gen.sql("select count(*), sum(qty), sum(price) from t").fetchall()[0]
        print(f"rows {a.rows}, threads {a.threads}, csv {os.path.getsize(csv) / 1e6:.1f} MB, "
              f"parquet {os.path.getsize(pq) / 1e6:.1f} MB")
        env = dict(os.environ, OMP_NUM_THREADS=str(a.threads))
        results = []
        for kind, path in (("csv", csv), ("parquet", pq)):
            db = os.path.join(work, f"r_{kind}")

            def load_raydb():
                shutil.rmtree(db, ignore_errors=True)
                subprocess.run([a.raydb, "load", kind, "--db", db, "--table", "t", path], check=True,
                               capture_output=True, env=env)

            def load_duck():
                f = os.path.join(work, f"d_{kind}.duckdb")
                if os.path.exists(f):
                    os.remove(f)
                con = duckdb.connect(f, config={"threads": a.threads})
                src = f"read_csv_auto('{path}')" if kind == "csv" else f"read_parquet('{path}')"
                con.sql(f"create table t as select * from {src}")
                con.close()

            r_ms, d_ms = timed(load_raydb, a.reps) * 1e3, timed(load_duck, a.reps) * 1e3
            got = subprocess.run([a.raydb, "query", "--db", db, "--format", "csv",
                                  "select count(*), sum(qty), sum(price) from t"], check=True, capture_output=True,
                                 text=True).stdout.splitlines()[1].split(",")
            if [int(got[0]), int(got[1])] != [expect[0], expect[1]] or float(got[2]) != float(expect[2]):
                print(f"WRONG: raydb loaded {got} from {kind}, expected {expect}", file=sys.stderr)
                return 1
            results.append((kind, r_ms, d_ms))
        print("| input | raydb ms | DuckDB ms | raydb / DuckDB |")
        print("|---|---|---|---|")
        for kind, r_ms, d_ms in results:
            print(f"| {kind} | {r_ms:.0f} | {d_ms:.0f} | {r_ms / d_ms:.2f} |")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
