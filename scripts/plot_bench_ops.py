#!/usr/bin/env python3
"""Plots `raydb bench ops --suite predicates` JSON lines: per query, the CUDA device
time beside the read-bandwidth floor of the bytes it scans, the same query from host
memory (upload included) and the CPU backend's time, log scale.

    python3 scripts/plot_bench_ops.py ops.json out.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_bench_ops.py OPS_JSON OUT_PNG")
    rows = {}
    order = []
    gpu_name = ""
    for line in open(sys.argv[1]):
        j = json.loads(line)
        if j.get("suite") != "query":
            continue
        q = j["query"]
        if q not in rows:
            rows[q] = {}
            order.append(q)
        r = rows[q]
        if j["backend"] == "cuda":
            r["gpu"] = j.get("gpu_median_ms")
            r["floor"] = j.get("floor_ms")
            r["cold"] = j.get("cold_host_ms")
            gpu_name = j.get("device", gpu_name) or gpu_name
        else:
            r["cpu"] = j["host_median_ms"]
    series = [("gpu", "CUDA, GPU-resident (device ms)"), ("floor", "read-bandwidth floor"),
              ("cold", "CUDA from host memory (upload included)"), ("cpu", "CPU backend")]
    fig, ax = plt.subplots(figsize=(max(8, 0.55 * len(order)), 5))
    width = 0.2
    for k, (key, label) in enumerate(series):
        xs = [i + (k - 1.5) * width for i in range(len(order))]
        ys = [rows[q].get(key) or 0 for q in order]
        ax.bar(xs, ys, width, label=label)
    ax.set_yscale("log")
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(order, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("ms (log)")
    ax.set_title("raydb bench ops --suite predicates" + (f" ({gpu_name})" if gpu_name else ""))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
