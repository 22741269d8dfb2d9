"""Times Arrow export, row fetches and register() of the raydb package, with DuckDB's
Arrow export of the same query beside it:

    PYTHONPATH=build-pysite python3 python/benchmarks/arrow_export.py [rows]
"""
import sys
import time

import numpy as np
import pyarrow as pa

import raydb


def best_ms(f, reps=5):
    times = []
    for _ in range(reps):
        s = time.perf_counter()
        f()
        times.append(time.perf_counter() - s)
    return min(times) * 1e3


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    t = pa.table({"k": pa.array(np.arange(n, dtype=np.int64)), "v": pa.array(np.random.default_rng(1).random(n)),
                  "i": pa.array((np.arange(n) % 1000).astype(np.int32))})
    con = raydb.connect(backend="cpu")
    s = time.perf_counter()
    con.register("t", t)
    print(f"register {n} rows x 3 columns: {(time.perf_counter() - s) * 1e3:.0f} ms")
    for cols in ["k, v", "i"]:
        r = con.sql(f"select {cols} from t")
        print(f"select {cols} ({n} rows): query {best_ms(lambda: con.sql(f'select {cols} from t')):.1f} ms, "
              f".arrow() {best_ms(r.arrow):.2f} ms, "
              f"device array (CPU) imported {best_ms(lambda: pa.record_batch(r)):.2f} ms")
        if not raydb._core.arrow_device_unavailable("cuda"):  # the copy into CUDA memory
            g = con.sql(f"select {cols} from t", device="cuda")
            print(f"  device array (CUDA) {best_ms(g.__arrow_c_device_array__):.2f} ms")
    m = min(n, 1_000_000)
    r = con.sql(f"select k, v from t where k < {m}")
    print(f"fetchall of {m} rows x 2: {best_ms(lambda: r.fetchmany(m) if not r._pos else None, 1):.0f} ms")
    try:
        import duckdb
    except ImportError:
        return
    d = duckdb.connect()
    d.register("t", t)

    def duck():
        out = d.sql("select k, v from t").arrow()
        return out.read_all() if hasattr(out, "read_all") else out

    print(f"duckdb select k, v + .arrow(): {best_ms(duck):.1f} ms")


if __name__ == "__main__":
    main()
