"""Times the 13 SSB queries through n shards (raydb.distributed, one Ray actor per shard)
against one raydb process over the whole database; every answer is checked equal.

    raydb gen ssb --db data/ssb-sf1 --sf 1
    PYTHONPATH=build-pysite python3 python/benchmarks/distributed_ssb.py --db data/ssb-sf1 \
        --shards 2 [--by rows|lo_orderkey] [--backend cpu|cuda] [--threads 1] [--reps 5] [--json out.json]

Throughput (--concurrency N): N client threads each run --rounds passes over the 13
queries through the coordinator, first with 1 shard (the whole database on one worker,
so one GPU with --backend cuda), then with --shards workers; queries/second, per-query
latency medians and the workers' busy share per phase, every phase's answers checked
equal to the first's (and to one in-process CPU connection with --check-cpu). --serial
runs workers and merges one statement at a time without the plan cache, as in session
13; by default a worker runs up to 4 statements at once:

    PYTHONPATH=build-pysite python3 python/benchmarks/distributed_ssb.py --db data/ssb-sf1 \
        --shards 2 --backend cuda --concurrency 8 --rounds 20 [--batch] --json tput.json

With --backend cuda each worker asks Ray for one GPU (two shards on a 2-GPU machine use
different GPUs). Times are wall-clock milliseconds per query from Python (medians of
--reps runs after one warm-up), including, for the distributed side, planning (cached
after the first run), the Ray round trips, the Arrow transfer and the merge.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time

import raydb
import raydb.distributed as rd

QUERIES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ssb", "queries")


def median_ms(run, reps):
    run()  # warm-up: columns mapped and verified, plans cached
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), min(times), max(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", required=True, help="the whole SSB database (raydb gen ssb)")
    p.add_argument("--shards", type=int, default=2)
    p.add_argument("--by", default="rows", help="rows, or the fact column to shard by")
    p.add_argument("--shard-dir", help="where the shards are (written when missing; default: a temporary directory)")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--threads", type=int, default=0, help="threads per process (0: all cores)")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--json", help="write the results here (JSON)")
    p.add_argument("--concurrency", type=int, default=0, help="throughput mode: client threads (0: latency mode)")
    p.add_argument("--rounds", type=int, default=10, help="throughput mode: passes over the queries per client")
    p.add_argument("--batch", action="store_true", help="throughput mode: each pass as one sql_many batch")
    p.add_argument("--check-cpu", action="store_true", help="throughput mode: also compare with the CPU backend")
    p.add_argument("--gpus", type=int, help="GPUs Ray may use (default: what Ray detects)")
    p.add_argument("--worker-connections", type=int,
                   help="statements a worker runs at once (default: rd.connect's, 4; 1: one at a time)")
    p.add_argument("--worker-concurrency", type=int,
                   help="calls a worker accepts at once (default: rd.connect's, 4; GPU workers open as many "
                        "connections unless --worker-connections says otherwise)")
    p.add_argument("--merge-connections", type=int, help="merges the coordinator runs at once (default 4)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a setting for every worker's connections (repeatable), e.g. cuda_dimension_cache=off")
    p.add_argument("--plan-cache", choices=["on", "off"], help="the workers' setting plan_cache (default on)")
    p.add_argument("--serial", action="store_true",
                   help="session 13's workers and coordinator: one statement and one merge at a time, no plan "
                        "cache (--worker-connections 1 --merge-connections 1 --plan-cache off)")
    args = p.parse_args()
    if args.concurrency < 0 or args.rounds < 1 or args.shards < 1:
        p.error("--concurrency must be >= 0, --rounds and --shards >= 1")
    if args.serial:
        args.worker_connections, args.merge_connections, args.plan_cache = 1, 1, "off"

    tmp = None
    shard_dir = args.shard_dir
    if shard_dir is None:
        tmp = tempfile.TemporaryDirectory(prefix="raydb-shards-")
        shard_dir = os.path.join(tmp.name, "shards")
    start = time.perf_counter()
    if not os.path.exists(shard_dir):
        rd.shard_database(args.db, shard_dir, args.shards, fact="lineorder", by=args.by)
    shard_s = time.perf_counter() - start
    if args.concurrency:
        return throughput(args, shard_dir, shard_s, tmp)
    single = raydb.connect(args.db, backend=args.backend, threads=args.threads)
    dist = rd.connect(shard_dir, backend=args.backend, threads=args.threads)
    results = []
    for name in sorted(f[:-4] for f in os.listdir(QUERIES) if f.endswith(".sql")):
        sql = open(os.path.join(QUERIES, name + ".sql")).read()
        equal = dist.sql(sql).fetchall() == single.sql(sql).fetchall()
        one = median_ms(lambda: single.sql(sql), args.reps)
        many = median_ms(lambda: dist.sql(sql), args.reps)
        results.append({"query": name, "single_ms": round(one[0], 3), "distributed_ms": round(many[0], 3),
                        "single_min_ms": round(one[1], 3), "distributed_min_ms": round(many[1], 3),
                        "equal": equal})
        print(f"{name}: one process {one[0]:8.2f} ms   {args.shards} shards {many[0]:8.2f} ms   "
              f"{'equal' if equal else 'DIFFERENT'}", flush=True)
    out = {"db": os.path.abspath(args.db), "shards": args.shards, "by": args.by, "backend": args.backend,
           "threads": args.threads, "reps": args.reps, "shard_seconds": round(shard_s, 2),
           "fact_rows": rd.ShardLayout.read(shard_dir).fact_rows, "machine": platform.node(),
           "cpus": os.cpu_count(), "load_average": os.getloadavg(), "workers": dist.workers(), "queries": results,
           "single_total_ms": round(sum(r["single_ms"] for r in results), 3),
           "distributed_total_ms": round(sum(r["distributed_ms"] for r in results), 3)}
    print(f"total: one process {out['single_total_ms']:.1f} ms, {args.shards} shards "
          f"{out['distributed_total_ms']:.1f} ms (shard_database {shard_s:.1f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    dist.close()
    single.close()
    if tmp is not None:
        tmp.cleanup()
    return 0 if all(r["equal"] for r in results) else 1


def throughput(args, shard_dir, shard_s, tmp):
    from ssb_throughput import run_throughput

    queries = {name: open(os.path.join(QUERIES, name + ".sql")).read()
               for name in sorted(f[:-4] for f in os.listdir(QUERIES) if f.endswith(".sql"))}
    reference = None
    if args.check_cpu:
        start = time.perf_counter()
        with raydb.connect(args.db, backend="cpu", threads=args.threads) as cpu:
            reference = {n: cpu.sql(q).fetchall() for n, q in queries.items()}
        print(f"CPU reference: {time.perf_counter() - start:.1f} s", flush=True)
    ray_init = {"include_dashboard": False, "logging_level": "ERROR"}
    if args.gpus is not None:
        ray_init["num_gpus"] = args.gpus

    options = {k: v for k, v in [("worker_concurrency", args.worker_concurrency),
                                  ("worker_connections", args.worker_connections),
                                  ("merge_connections", args.merge_connections),
                                  ("plan_cache", args.plan_cache)] if v is not None}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep or not name:
            sys.exit(f"error: --set takes NAME=VALUE, not {item!r}")
        options[name] = value

    def connect(shards):
        return rd.connect(shards, fact="lineorder", backend=args.backend, threads=args.threads, ray_init=ray_init,
                          **options)

    layouts = [("1 shard", [os.path.abspath(args.db)]), (f"{args.shards} shards", shard_dir)]
    phases = run_throughput(connect, layouts, queries, concurrency=args.concurrency, rounds=args.rounds,
                            batch=args.batch, reference=reference, log=lambda m: print(m, flush=True))
    out = {"db": os.path.abspath(args.db), "shards": args.shards, "by": args.by, "backend": args.backend,
           "threads": args.threads, "shard_seconds": round(shard_s, 2),
           "fact_rows": rd.ShardLayout.read(shard_dir).fact_rows, "machine": platform.node(),
           "cpus": os.cpu_count(), "load_average": os.getloadavg(), "options": options, "phases": phases,
           "speedup": phases[-1]["speedup_vs_first"]}
    print(f"throughput {args.shards} shards / 1 shard: {out['speedup']}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    if tmp is not None:
        tmp.cleanup()
    ok = all(p["equal_to_first_phase"] and p.get("equal_to_reference", True) and not p["errors"] for p in phases)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
