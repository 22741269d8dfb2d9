#!/usr/bin/env python3
"""Bar chart of `raydb bench ssb --backend cuda --json FILE`: raydb vs Crystal vs the
bandwidth floor, per SSB query (log scale).

  python3 scripts/plot_ssb_gpu.py bench.json --out docs/benchmarks/ssb-sf20-cuda-h200.png
"""
import argparse
import json

# Crystal (SIGMOD 2020) on the project's H200, SF 20, GPU-resident (DESIGN.md anchors).
CRYSTAL = {"q1.1": 0.58, "q1.2": 0.58, "q1.3": 0.59, "q2.1": 1.56, "q2.2": 1.62, "q2.3": 1.63, "q3.1": 2.07,
           "q3.2": 1.62, "q3.3": 1.56, "q3.4": 1.56, "q4.1": 12.62, "q4.2": 1.66, "q4.3": 1.79}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="SSB SF 20 on the H200: raydb CUDA backend vs Crystal vs floor")
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = [json.loads(l) for l in open(a.json) if l.strip()]
    q = [r["query"] for r in rows]
    x = range(len(q))
    w = 0.28
    fig, ax = plt.subplots(figsize=(12, 4.8))
    ax.bar([i - w for i in x], [r["gpu_median_ms"] for r in rows], w, label="raydb CUDA (median of %d)" % rows[0]["reps"])
    ax.bar(list(x), [CRYSTAL[n] for n in q], w, label="Crystal (anchor)")
    ax.bar([i + w for i in x], [r["floor_ms"] for r in rows], w, label="bandwidth floor (fact bytes / measured read BW)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(q)
    ax.set_yscale("log")
    ax.set_ylabel("ms, GPU-resident")
    total = sum(r["gpu_median_ms"] for r in rows)
    ax.set_title("%s (sum %.2f ms vs %.1f)" % (a.title, total, sum(CRYSTAL[n] for n in q)))
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.out, dpi=100)


if __name__ == "__main__":
    main()
