"""ShardWorker: the Ray actor that holds the raydb connections over one shard.

The coordinator makes it remote (ray.remote(ShardWorker).options(num_gpus=...)), so Ray
places it (with num_gpus=1 Ray also sets CUDA_VISIBLE_DEVICES, and the worker's CUDA
backend sees its own GPU as device 0). Engine errors come back as values, not as
raised exceptions, so the coordinator re-raises the engine's own class and message.

`connections` sessions share one open database (Connection.cursor): calls that Ray
runs at once (the actor's max_concurrency) each take an idle one, so one statement's
host work (parse, plan, result, Arrow, Ray's transfer) overlaps another's run. The
engine still runs GPU work one statement at a time.
"""
import os
import queue
import threading
import time


class ShardWorker:
    def __init__(self, path, backend="cpu", threads=0, settings=None, connections=1):
        import raydb

        if not os.path.isfile(os.path.join(path, "manifest.json")):  # connect() would create one
            raise raydb.IOException(f"shard {path} is not a raydb database (no manifest.json)")
        self._path = path
        self._con = raydb.connect(path, backend=backend, threads=threads, **(settings or {}))
        self._connections = max(1, int(connections))
        self._idle = queue.SimpleQueue()  # connections no call is using
        self._idle.put(self._con)
        for _ in range(self._connections - 1):
            self._idle.put(self._con.cursor())
        self._fault, self._stall_seconds = None, 0.0
        self._stats_lock = threading.Lock()  # run() may be called from several threads (max_concurrency)
        self._stats = {"statements": 0, "engine_ms": 0.0, "run_ms": 0.0}

    def run(self, queries):
        """Runs each SQL text; returns [("ok", pyarrow.Table) | ("error", class name, message)]."""
        import raydb

        if self._fault == "stall":
            self._fault = None
            time.sleep(self._stall_seconds)
        start, engine_ms = time.perf_counter(), 0.0
        out = []
        con = self._idle.get()
        try:
            for q in queries:
                try:
                    r = con.sql(q)
                    engine_ms += r.elapsed_ms
                    out.append(("ok", r.arrow()))
                except raydb.Error as e:
                    out.append(("error", type(e).__name__, str(e)))
        finally:
            self._idle.put(con)
        with self._stats_lock:
            self._stats["statements"] += len(queries)
            self._stats["engine_ms"] += engine_ms
            self._stats["run_ms"] += (time.perf_counter() - start) * 1e3
        if self._fault == "exit":
            os._exit(1)  # as a crash would: no reply, the process gone
        return out

    def stats(self, reset=False):
        """Statements run, the engine's own time in them and the time inside run() (ms; summed
        over concurrent calls: with several connections the engine time may exceed the wall
        time, and with one it includes the calls' waits)."""
        with self._stats_lock:
            out = dict(self._stats)
            if reset:
                self._stats = {"statements": 0, "engine_ms": 0.0, "run_ms": 0.0}
        return out

    def schemas(self):
        """{table: pyarrow.Schema} of every stored table (an empty read of each). Read through
        a CPU connection of its own: the CUDA backend refuses LIMIT without ORDER BY, and
        the schema is the stored one whichever backend reads it."""
        import raydb

        con = raydb.connect(self._path, backend="cpu", threads=1)
        try:
            return {t: con.sql(f'SELECT * FROM "{t}" LIMIT 0').arrow().schema for t in con.tables()}
        finally:
            con.close()

    def info(self):
        """Where this worker runs: its process, host, the GPUs Ray gave it, its shard and its
        engine connections."""
        import socket

        try:
            import ray
            gpus = list(ray.get_gpu_ids())
        except Exception:  # outside Ray (a worker used in-process)
            gpus = []
        return {"pid": os.getpid(), "host": socket.gethostname(), "gpus": gpus, "path": self._path,
                "connections": self._connections,
                "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")}

    def inject_fault(self, kind, seconds=0.0):
        """For failure tests: "exit" ends this process (os._exit) inside the next run()
        after its queries ran and before it replies; "stall" makes the next run() wait
        `seconds` first, so the actor can be killed while a query is in flight."""
        if kind not in ("exit", "stall"):
            raise ValueError(f"unknown fault {kind}")
        self._fault, self._stall_seconds = kind, float(seconds)
        return True
