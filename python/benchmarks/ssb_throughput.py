"""Throughput of the 13 SSB queries through raydb.distributed with several queries in
flight: one phase per layout (1 shard = the whole database on one worker, n shards on n
workers), both through the same coordinator, every answer checked equal across phases.

distributed_ssb.py --concurrency N calls run_throughput(); this module holds the phase
logic so that script stays small.
"""
import statistics
import threading
import time


def _client(dist, queries, rounds, offset, batch, latencies, errors):
    """One client: `rounds` passes over the queries, each pass starting elsewhere so the
    clients do not run the same query at the same moment."""
    names = sorted(queries)
    try:
        for r in range(rounds):
            k = (offset + r) % len(names)
            order = names[k:] + names[:k]
            if batch:
                start = time.perf_counter()
                dist.sql_many([queries[n] for n in order])
                per = (time.perf_counter() - start) * 1e3 / len(order)
                for n in order:
                    latencies[n].append(per)
                continue
            for n in order:
                start = time.perf_counter()
                dist.sql(queries[n])
                latencies[n].append((time.perf_counter() - start) * 1e3)
    except BaseException as e:  # reported by the phase, which fails the run
        errors.append(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")


def run_phase(dist, queries, *, concurrency, rounds, batch):
    """Queries/second with `concurrency` clients of `rounds` passes each, after one warm-up
    pass; returns the numbers and the warm-up answers (rows per query)."""
    answers = {}
    first_ms = {}
    for name in sorted(queries):  # warm-up: columns uploaded, plans cached
        start = time.perf_counter()
        answers[name] = dist.sql(queries[name]).fetchall()
        first_ms[name] = round((time.perf_counter() - start) * 1e3, 3)
    dist.worker_stats(reset=True)
    latencies = {n: [] for n in queries}
    errors = []
    clients = [threading.Thread(target=_client, args=(dist, queries, rounds, i, batch, latencies, errors))
               for i in range(concurrency)]
    start = time.perf_counter()
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    wall = time.perf_counter() - start
    stats = dist.worker_stats()
    done = sum(len(v) for v in latencies.values())
    out = {"concurrency": concurrency, "rounds": rounds, "batch": batch, "queries_run": done,
           "seconds": round(wall, 3), "queries_per_second": round(done / wall, 2) if wall > 0 else None,
           "errors": errors, "first_ms": first_ms,
           "median_ms": {n: round(statistics.median(v), 3) for n, v in sorted(latencies.items()) if v},
           # engine_share: the part of the wall time each worker's engine ran statements (near 1
           # with one connection per worker: the worker is the bottleneck; well below: the
           # coordinator or the transport is). With several connections the statements overlap
           # and the share may exceed 1. run_ms adds up concurrent calls, waits included.
           "workers": [dict(s, engine_share=round(s["engine_ms"] / (wall * 1e3), 3) if wall > 0 else None,
                            engine_ms_per_statement=round(s["engine_ms"] / s["statements"], 3)
                            if s["statements"] else None) for s in stats]}
    return out, answers


def run_throughput(connect, layouts, queries, *, concurrency, rounds, batch, reference=None, log=print):
    """Runs one phase per (label, shards) in `layouts` (connect(shards) opens the
    DistributedConnection, closed after its phase) and compares every phase's answers
    with the first phase's and with `reference` (rows per query) where given."""
    phases = []
    first = None
    for label, shards in layouts:
        dist = connect(shards)
        try:
            numbers, answers = run_phase(dist, queries, concurrency=concurrency, rounds=rounds, batch=batch)
            numbers["workers_info"] = dist.workers()
        finally:
            dist.close()
        first = first or answers
        numbers["label"] = label
        numbers["equal_to_first_phase"] = answers == first
        if reference is not None:
            numbers["equal_to_reference"] = all(answers[n] == reference[n] for n in queries)
        shares = ", ".join(str(w["engine_share"]) for w in numbers["workers"])
        log(f"{label}: {numbers['queries_per_second']} queries/s ({numbers['queries_run']} in "
            f"{numbers['seconds']} s, {concurrency} clients{', batched' if batch else ''}; workers' engine share "
            f"{shares}), answers "
            f"{'equal' if numbers['equal_to_first_phase'] else 'DIFFERENT'}"
            + ("" if reference is None else f", {'equal to' if numbers['equal_to_reference'] else 'DIFFERENT from'}"
               " the reference") + (f", errors: {numbers['errors'][:3]}" if numbers["errors"] else ""))
        phases.append(numbers)
    base = phases[0]["queries_per_second"]
    for p in phases:
        p["speedup_vs_first"] = round(p["queries_per_second"] / base, 3) if base else None
    return phases
