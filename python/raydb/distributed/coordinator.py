"""DistributedConnection: `.sql(q)` over a sharded database, one Ray actor per shard.

Ray places the workers (a GPU each with num_gpus_per_worker=1), moves their Arrow
results and restarts a worker that dies (`retries` times: its queries are read-only, so
Ray re-runs them on the restarted worker). The coordinator plans each statement
(Planner), asks the engine in-process what the result looks like (Merger's empty
twins), gathers the partials and merges them with the same engine.
"""
import os
import queue
import re
import threading

from raydb import _core
from raydb.distributed.errors import WorkerError, not_distributable
from raydb.distributed.layout import LAYOUT_FILE, ShardLayout
from raydb.distributed.merger import Merger
from raydb.distributed.planner import Planner
from raydb.distributed.worker import ShardWorker


def _first_line(error):
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _castable(type_text):
    if type_text == "HUGEINT":
        return False
    if type_text.startswith("DECIMAL("):
        return int(type_text[len("DECIMAL("):].split(",")[0]) <= 18
    return True


def _ray():
    try:
        import ray
    except ImportError:
        raise _core.ConnectionException("raydb.distributed needs Ray (pip install ray)") from None
    return ray


def _layout(shards, fact, by):
    if isinstance(shards, (str, os.PathLike)):
        if os.path.isfile(os.path.join(shards, LAYOUT_FILE)) or fact is None:
            return ShardLayout.read(os.fspath(shards))
        shards = [shards]
    if fact is None:
        raise _core.InvalidInputException("give fact= (the sharded table) with a list of shard directories")
    return ShardLayout.from_paths(list(shards), fact, by)


class DistributedConnection:
    def __init__(self, shards, *, fact=None, by="rows", backend="cpu", threads=0, num_gpus_per_worker=None,
                 num_cpus_per_worker=None, retries=1, timeout_s=None, ray_init=None, worker_concurrency=4,
                 worker_connections=None, merge_threads=1, merge_connections=4, **settings):
        self.layout = _layout(shards, fact, by)
        for path in self.layout.shard_paths():
            if not os.path.isfile(os.path.join(path, "manifest.json")):
                raise _core.IOException(f"shard {path} is not a raydb database (no manifest.json)")
        self._ray = _ray()
        if not self._ray.is_initialized():
            self._ray.init(**{"include_dashboard": False, "logging_level": "ERROR", **(ray_init or {})})
        gpus = num_gpus_per_worker if num_gpus_per_worker is not None else (1 if backend in ("cuda", "rt") else 0)
        # CPUs are not reserved by default (a worker's threads are its own setting; reserving
        # one each would leave a third worker unplaced on a 2-core machine); SPREAD puts
        # the workers on different machines where a cluster has several.
        # max_concurrency > 1: a worker takes the next call while Ray still ships the last
        # answer; with as many engine connections (worker_connections, default the same
        # on GPU workers) their statements also run at once (GPU work still one at a
        # time), so one's host work hides behind another's run.
        options = {"num_gpus": gpus, "num_cpus": num_cpus_per_worker or 0, "scheduling_strategy": "SPREAD",
                   "max_restarts": int(retries), "max_task_retries": int(retries),
                   "max_concurrency": max(1, int(worker_concurrency))}
        actor = self._ray.remote(ShardWorker).options(**options)
        self._timeout = timeout_s
        self._lock = threading.Lock()
        self._plans = {}
        self._next = 0
        self._merger = None
        self._mergers = []  # merges run at once on separate in-process connections
        self._idle_mergers = queue.SimpleQueue()
        # Several statements at once pay where device work is serialized and host work can
        # overlap it; a CPU statement already uses the worker's threads, so one at a time there.
        if worker_connections is None:
            worker_connections = options["max_concurrency"] if gpus else 1
        self._actors = [actor.remote(p, backend, threads, settings, max(1, int(worker_connections)))
                        for p in self.layout.shard_paths()]
        try:
            self.schemas = self._shard_schemas()
            self._merger = Merger(self.schemas, threads=merge_threads)  # planning, under the lock
            for _ in range(max(1, int(merge_connections))):
                self._mergers.append(Merger(self.schemas, threads=merge_threads))
                self._idle_mergers.put(self._mergers[-1])
            self._planner = Planner(self.layout, self.schemas)
        except BaseException:
            self.close()
            raise

    # -- the shards ------------------------------------------------------------------------

    def _call(self, actors, method, *args):
        """Calls `method` on each actor; a dead or silent worker becomes a WorkerError naming its shard."""
        refs = [getattr(a, method).remote(*args) for a in actors]
        out = []
        for ref, a in zip(refs, actors):
            i = self._actors.index(a)
            try:
                out.append(self._ray.get(ref, timeout=self._timeout))
            except self._ray.exceptions.GetTimeoutError:
                raise WorkerError(f"shard {i} did not answer within {self._timeout} s") from None
            except self._ray.exceptions.RayError as e:
                raise WorkerError(f"shard {i} ({self.layout.shard_paths()[i]}): worker failed: "
                                  f"{_first_line(e)}") from None
        return out

    def _shard_schemas(self):
        schemas = self._call(self._actors, "schemas")
        for i, s in enumerate(schemas[1:], start=1):
            if {t: str(v) for t, v in s.items()} != {t: str(v) for t, v in schemas[0].items()}:
                raise _core.InvalidInputException(f"shard {i} has other tables or columns than shard 0")
        if not any(t.lower() == self.layout.fact.lower() for t in schemas[0]):
            raise _core.CatalogException(f"fact table {self.layout.fact} not found in the shards")
        return schemas[0]

    def _targets(self, plan):
        """The actors a plan's shard queries go to (call with the lock held)."""
        if plan.one_shard:  # replicated tables only: any shard holds the whole answer
            actor = self._actors[self._next % len(self._actors)]
            self._next += 1
            return [actor]
        return list(self._actors)

    def _gather(self, plans, actors):
        """Each plan's shard query results as one pyarrow Table of partials. All plans'
        shard queries travel in one call per worker (a batch pays one Ray round trip)."""
        import pyarrow as pa

        texts = [q.sql for plan in plans for q in plan.shard_queries]
        per_plan = [[] for _ in plans]
        for i, answers in zip((self._actors.index(a) for a in actors), self._call(actors, "run", texts)):
            answers = iter(answers)
            for tables, plan in zip(per_plan, plans):
                for q in plan.shard_queries:
                    answer = next(answers)
                    if answer[0] == "error":
                        raise getattr(_core, answer[1], _core.Error)(f"shard {i}: {answer[2]}")
                    tables.append(answer[1].rename_columns(q.columns))
        return [pa.concat_tables(tables, promote_options="default") for tables in per_plan]

    # -- statements ------------------------------------------------------------------------

    def _prepare(self, query):
        """(plan, merge SQL) of `query`, planned once per text."""
        if query not in self._plans:
            # Only queries: a statement that writes would run on the coordinator's twins.
            if re.match(r"\s*(create|insert|update|delete|drop|copy|set|reset|show|explain|alter|load)\b", query,
                        re.IGNORECASE):
                raise not_distributable("only SELECT statements run on a sharded database (load and change "
                                        "the shards, or the source before shard_database)")
            names, types, _ = self._merger.describe(query)  # the engine's own errors for bad statements
            plan = self._planner.plan(query, len(names))
            partials = self._merger.partial_schema(plan)
            self._check_gathered_types(plan, partials)
            merged = self._merger.merge_types(plan, names, partials)
            # Where the merge types a column otherwise (a SUM over BIGINT partial sums of
            # INTEGER is HUGEINT, the whole query's BIGINT), cast it back. SQL cannot name
            # the 128-bit types (HUGEINT, DECIMAL(38,s)): a SUM merged from partial sums is
            # 128-bit again, but a 128-bit column that shards computed whole ("rows",
            # "key-local" plans) comes back 64-bit (values that do not fit are an error).
            casts = [t if m != t and _castable(t) else None for t, m in zip(types, merged)]
            self._plans[query] = (plan, plan.merge_sql(names, casts))
        return self._plans[query]

    @staticmethod
    def _check_gathered_types(plan, partials):
        import pyarrow.types as pt

        for name in sorted(plan.order_stat_values):
            t = partials.field(name).type
            if pt.is_string(t) or pt.is_large_string(t):
                # The engine selects strings by their stored dictionary codes; gathered
                # strings (with the NULLs of the other partial rows) it cannot order yet.
                raise not_distributable("an order statistic (median, quantile, kth) of VARCHAR values gathered "
                                        "from the shards")

    def sql(self, query):
        """Runs one SELECT across the shards; returns a raydb Result (fetchall, arrow, df, pl).
        Threads may call it at once: planning takes turns (a statement is planned once),
        the shards' work, the transfers and up to merge_connections merges overlap."""
        return self.sql_many([query])[0]

    def sql_many(self, queries):
        """Runs several SELECTs; returns their Results in order. Their shard queries go to
        each worker in one call, so the batch pays the Ray round trip once."""
        queries = [str(q) for q in queries]
        with self._lock:  # the plan cache and the merger's connection are shared
            prepared = [self._prepare(q) for q in queries]
            groups = {}  # plans by the actors they go to: one call per worker and group
            for k, (plan, _) in enumerate(prepared):
                actors = self._targets(plan)
                groups.setdefault(tuple(id(a) for a in actors), (actors, []))[1].append(k)
        partials = [None] * len(queries)
        for actors, ks in groups.values():
            for k, table in zip(ks, self._gather([prepared[k][0] for k in ks], actors)):
                partials[k] = table
        merger = self._idle_mergers.get()
        try:
            return [merger.run(merge_sql, table) for (_, merge_sql), table in zip(prepared, partials)]
        finally:
            self._idle_mergers.put(merger)

    query = sql

    def explain(self, query):
        """How `query` is split: its plan kind, the per-shard SQL and the merge SQL."""
        with self._lock:
            plan, merge_sql = self._prepare(str(query))
        lines = [f"plan: {plan.kind} over {len(self._actors)} shards (fact table {self.layout.fact}, "
                 f"by {self.layout.by})"]
        lines += [f"shard query: {q.sql}" for q in plan.shard_queries]
        lines.append(f"merge: {merge_sql}")
        return "\n".join(lines)

    def workers(self):
        """Per shard: the worker's process id, host, GPUs and shard path."""
        return self._call(self._actors, "info")

    def worker_stats(self, reset=False):
        """Per shard: statements run, the engine's time in them and the time inside run()
        (ms), since the start or the last reset."""
        return self._call(self._actors, "stats", bool(reset))

    @property
    def actors(self):
        return list(self._actors)

    def close(self):
        for a in getattr(self, "_actors", []):
            try:
                self._ray.kill(a)
            except Exception:
                pass
        self._actors = []
        if self._merger is not None:
            self._merger.close()
            self._merger = None
        for m in getattr(self, "_mergers", []):
            m.close()
        self._mergers = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def connect(shards, **options):
    """A DistributedConnection over `shards`: a directory written by shard_database (with
    shards.json), or a list of shard database directories with fact= (and by=).

    backend ("cpu", "cuda", ...), threads and further settings apply to every worker;
    num_gpus_per_worker (default 1 for cuda/rt, else 0), num_cpus_per_worker (CPUs Ray
    reserves per worker, default 0), worker_concurrency (calls a worker accepts at once,
    default 4: transfers overlap the next statement), worker_connections (statements a
    worker runs at once on one open shard; default worker_concurrency for GPU workers,
    1 for CPU ones), merge_threads (threads per coordinator merge, default 1),
    merge_connections (merges the coordinator runs at once, default 4), retries
    (restarts of a dead worker, its queries re-run; 0 = fail at once), timeout_s (per
    shard answer), ray_init (keyword arguments for ray.init when Ray is not running).
    """
    return DistributedConnection(shards, **options)
