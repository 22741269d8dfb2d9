# DuckDB median(x) over the int32 values bench_median.cpp wrote, with N threads (best of 5).
import duckdb, numpy as np, time, sys
threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
a = np.fromfile('/tmp/median_input.i32', dtype=np.int32)
c = duckdb.connect(config={'threads': threads})
d = {'x': a}
c.execute("create table t as select * from d")
print('rows', c.sql("select count(*) from t").fetchall(), 'threads', c.sql("select current_setting('threads')").fetchall())
best = 1e30
for r in range(5):
    t0 = time.perf_counter(); m = c.sql("select median(x) from t").fetchall(); ms = (time.perf_counter() - t0) * 1000
    best = min(best, ms); print(f"duckdb rep {r}: {ms:.1f} ms median={m[0][0]}")
print(f"duckdb median(x) n={len(a)} threads={threads} best {best:.1f} ms")
