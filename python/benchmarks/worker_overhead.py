"""Where a shard query's fixed host time goes, per SSB query (medians, ms), from the
engine's parse to the coordinator's merged answer. Run it on a small scale factor, where
the engine's work on the rows is small and the fixed costs show:

    raydb gen ssb --db /tmp/ssb-sf01 --sf 0.1     (or raydb.generate_ssb)
    PYTHONPATH=build-pysite python3 python/benchmarks/worker_overhead.py --db /tmp/ssb-sf01 \\
        [--backend cpu] [--threads 1] [--reps 50] [--json out.json]

Columns, each measured by itself in this process unless said otherwise:
  prepare   EXPLAIN's engine time: parse, bind, plan, the backend's admission (no run)
  engine    con.sql's engine time (Result.elapsed_ms): the above, the run, the result copy
  sql       con.sql's wall time from Python (engine plus the binding's call)
  arrow     Result.arrow(): the result as a pyarrow Table (Arrow C Data Interface)
  pickle    the Table pickled and unpickled as Ray moves it (protocol 5, buffers out of band)
  worker    a round trip to one Ray actor (ShardWorker over the whole database) for the query
  ping      a round trip to that actor that runs nothing (Ray's own cost per call)
  merge     the coordinator's merge of two shards' partials (register, merge SQL, Result)
  dist      DistributedConnection.sql over 2 shards, one query at a time (the whole path)
With --plan-cache both, `prepare`, `engine` and `sql` are also measured with the plan
cache off (setting plan_cache=off), as engine_nocache etc.
"""
import argparse
import json
import os
import pickle
import statistics
import sys
import tempfile
import time

import raydb

QUERIES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ssb", "queries")


def median_ms(f, reps):
    f()  # warm-up
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def median_of(values):
    return statistics.median(values) if values else None


def engine_ms(con, sql, reps):
    con.sql(sql)
    return median_of([con.sql(sql).elapsed_ms for _ in range(reps)])


def pickle_round_trip(table):
    buffers = []
    data = pickle.dumps(table, protocol=5, buffer_callback=buffers.append)
    return pickle.loads(data, buffers=buffers)


def in_process(db, queries, backend, threads, reps, cache):
    """prepare/engine/sql/arrow/pickle per query on one connection (plan_cache on or off)."""
    out = {}
    settings = {} if cache == "on" else {"plan_cache": "off"}  # on is the default
    with raydb.connect(db, backend=backend, threads=threads, **settings) as con:
        for name, sql in queries.items():
            r = con.sql(sql)
            table = r.arrow()
            out[name] = {"prepare": engine_ms(con, "explain " + sql, reps), "engine": engine_ms(con, sql, reps),
                         "sql": median_ms(lambda: con.sql(sql), reps), "arrow": median_ms(r.arrow, reps),
                         "pickle": median_ms(lambda: pickle_round_trip(table), reps), "rows": len(r)}
    return out


def through_ray(db, shard_dir, queries, backend, threads, reps):
    """worker/ping round trips to one actor over the whole database; merge and dist over the shards."""
    import ray
    import raydb.distributed as rd
    from raydb.distributed.worker import ShardWorker

    if not ray.is_initialized():
        ray.init(include_dashboard=False, logging_level="ERROR")
    actor = ray.remote(ShardWorker).options(num_cpus=0).remote(db, backend, threads, None)
    out = {n: {} for n in queries}
    try:
        for name, sql in queries.items():
            out[name]["worker"] = median_ms(lambda: ray.get(actor.run.remote([sql])), reps)
            out[name]["ping"] = median_ms(lambda: ray.get(actor.stats.remote()), reps)
    finally:
        ray.kill(actor)
    with rd.connect(shard_dir, backend=backend, threads=threads) as dist:
        for name, sql in queries.items():
            out[name]["dist"] = median_ms(lambda: dist.sql(sql), reps)
            plan, merge_sql = dist._prepare(sql)
            partials = dist._gather([plan], dist._targets(plan))[0]
            out[name]["merge"] = median_ms(lambda: dist._merger.run(merge_sql, partials), reps)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", required=True, help="an SSB database (small: the fixed costs show)")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--shard-dir", help="2 shards of --db (written when missing; default: a temporary directory)")
    p.add_argument("--plan-cache", choices=["on", "both"], default="both")
    p.add_argument("--no-ray", action="store_true", help="only the in-process columns")
    p.add_argument("--json")
    args = p.parse_args()
    queries = {n: open(os.path.join(QUERIES, n + ".sql")).read()
               for n in sorted(f[:-4] for f in os.listdir(QUERIES) if f.endswith(".sql"))}
    rows = in_process(args.db, queries, args.backend, args.threads, args.reps, "on")
    if args.plan_cache == "both":
        off = in_process(args.db, queries, args.backend, args.threads, args.reps, "off")
        for n in queries:
            for k in ("prepare", "engine", "sql"):
                rows[n][k + "_nocache"] = off[n][k]
    if not args.no_ray:
        tmp = None
        shard_dir = args.shard_dir
        if shard_dir is None:
            tmp = tempfile.TemporaryDirectory(prefix="raydb-overhead-")
            shard_dir = os.path.join(tmp.name, "shards")
        if not os.path.exists(shard_dir):
            import raydb.distributed as rd
            rd.shard_database(args.db, shard_dir, 2, fact="lineorder", by="rows")
        for n, v in through_ray(args.db, shard_dir, queries, args.backend, args.threads, args.reps).items():
            rows[n].update(v)
    columns = [c for c in ["prepare_nocache", "prepare", "engine_nocache", "engine", "sql_nocache", "sql", "arrow",
                           "pickle", "worker", "ping", "merge", "dist"] if c in rows[next(iter(rows))]]
    print("query  " + " ".join(f"{c:>15}" for c in columns))
    for n, v in rows.items():
        print(f"{n:6} " + " ".join(f"{v[c]:15.3f}" for c in columns))
    sums = {c: round(sum(v[c] for v in rows.values()), 3) for c in columns}
    print("sum    " + " ".join(f"{sums[c]:15.3f}" for c in columns))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"db": os.path.abspath(args.db), "backend": args.backend, "threads": args.threads,
                       "reps": args.reps, "cpus": os.cpu_count(), "load_average": os.getloadavg(),
                       "queries": rows, "sums": sums}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
