"""The 13 SSB queries in this process (no Ray): per query the median wall time of
con.sql from Python and the engine's own elapsed time, on each database given. Run on
the whole database and on one shard, it bounds what a row split can gain per query:
the whole's time over the shard's is the most two shards can speed a query up.

    PYTHONPATH=build-pysite python3 python/benchmarks/ssb_inprocess.py --backend cuda \\
        --reps 20 --json inproc.json data/ssb-sf40 data/ssb-sf40-2/shard_0
"""
import argparse
import json
import os
import statistics
import sys
import time

import raydb

QUERIES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ssb", "queries")


def measure(path, backend, threads, reps, plan_cache="on", settings=None):
    out = {}
    with raydb.connect(path, backend=backend, threads=threads, plan_cache=plan_cache, **(settings or {})) as con:
        for name in sorted(f[:-4] for f in os.listdir(QUERIES) if f.endswith(".sql")):
            sql = open(os.path.join(QUERIES, name + ".sql")).read()
            start = time.perf_counter()
            con.sql(sql).arrow()  # warm-up: columns verified and, on a GPU, made resident
            first = (time.perf_counter() - start) * 1e3
            walls, engine = [], []
            for _ in range(reps):
                start = time.perf_counter()
                r = con.sql(sql)
                r.arrow()
                walls.append((time.perf_counter() - start) * 1e3)
                engine.append(r.elapsed_ms)
            out[name] = {"first_ms": round(first, 3), "wall_ms": round(statistics.median(walls), 3),
                         "engine_ms": round(statistics.median(engine), 3), "backend": r.backend}
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dbs", nargs="+")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--plan-cache", choices=["on", "off"], default="on",
                   help="setting plan_cache (off: every run parses, binds and plans, as before session 15)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a further setting (repeatable), e.g. cuda_dimension_cache=off")
    p.add_argument("--json")
    args = p.parse_args()
    settings = {}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep or not name:
            p.error(f"--set takes NAME=VALUE, not {item!r}")
        settings[name] = value
    results = {}
    for db in args.dbs:
        results[db] = measure(db, args.backend, args.threads, args.reps, args.plan_cache, settings)
        wall = sum(q["wall_ms"] for q in results[db].values())
        engine = sum(q["engine_ms"] for q in results[db].values())
        print(f"{db}: 13 queries {wall:.2f} ms wall from Python, {engine:.2f} ms in the engine "
              f"(medians of {args.reps}, plan cache {args.plan_cache}{''.join(', ' + i for i in args.set)})",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"backend": args.backend, "threads": args.threads, "reps": args.reps,
                       "plan_cache": args.plan_cache, "settings": settings, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
