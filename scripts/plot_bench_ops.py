#!/usr/bin/env python3
"""Plots `raydb bench ops` and `raydb bench query` JSON lines, log scale.

    python3 scripts/plot_bench_ops.py ops.json out.png                # --suite query (default)
    python3 scripts/plot_bench_ops.py ops.json out.png --suite ops    # order statistics

--suite query: rows of `raydb bench ops --suite predicates` or `raydb bench query`; per
query the CUDA device time, the read-bandwidth floor of the bytes it scans, the same
query from host memory (upload included) and the CPU backend's time. Series without
any value in the file (no floor in `bench query` rows) are left out.

--suite ops: rows of `raydb bench ops` (order statistics); one bar per configuration
(rows, key bits, WHERE mask, groups, what is selected, algorithm, device), its median
time labelled beside it.
"""
import argparse
import json
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path, suite):
    rows = []
    for line in open(path):
        line = line.strip()
        if line:
            j = json.loads(line)
            if j.get("suite") == suite:
                rows.append(j)
    if not rows:
        raise SystemExit(f"{path}: no rows of suite '{suite}'")
    return rows


def plot_queries(rows, out):
    per_query, order, gpu_name = {}, [], ""
    for j in rows:
        q = j["query"]
        if q not in per_query:
            per_query[q] = {}
            order.append(q)
        r = per_query[q]
        if j["backend"] == "cuda":
            r["gpu"] = j.get("gpu_median_ms")
            r["floor"] = j.get("floor_ms")
            r["cold"] = j.get("cold_host_ms")
            gpu_name = j.get("device", gpu_name) or gpu_name
        else:
            r["cpu"] = j["host_median_ms"]
    series = [("gpu", "CUDA, GPU-resident (device ms)"), ("floor", "read-bandwidth floor"),
              ("cold", "CUDA from host memory (upload included)"), ("cpu", "CPU backend")]
    series = [s for s in series if any(per_query[q].get(s[0]) for q in order)]
    fig, ax = plt.subplots(figsize=(max(8, 0.55 * len(order)), 5))
    width = 0.8 / len(series)
    for k, (key, label) in enumerate(series):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(order))]
        ys = [per_query[q].get(key) or math.nan for q in order]
        ax.bar(xs, ys, width, label=label)
    ax.set_yscale("log")
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(order, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("ms (log)")
    ax.set_title("raydb " + ("bench ops --suite predicates" if any(per_query[q].get("floor") for q in order)
                             else "bench query") + (f" ({gpu_name})" if gpu_name else ""))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def n_label(n):
    e = round(math.log10(n)) if n > 0 else 0
    return f"10^{e}" if 10 ** e == n else str(n)


def plot_order_stats(rows, out):
    labels, ms, colors, gpu_name = [], [], [], ""
    palette = {"radix": "tab:blue", "radix-general": "tab:cyan", "sort": "tab:orange", "bitwise": "tab:red"}
    for j in rows:
        mask = "" if j["selectivity"] >= 1 else f", {j['selectivity'] * 100:g}% kept"
        groups = "" if j["groups"] <= 1 else f", {j['groups']} groups"
        labels.append(f"{n_label(j['n'])} int{j['key_bits']} {j['op']}{mask}{groups}: {j['algorithm']} ({j['backend']})")
        ms.append(j["median_ms"])
        colors.append(palette.get(j["algorithm"], "tab:gray") if j["backend"] == "cuda" else "tab:green")
        if j["backend"] == "cuda":
            gpu_name = j.get("device", gpu_name) or gpu_name
    fig, ax = plt.subplots(figsize=(10, max(3, 0.4 * len(rows) + 1.2)))
    ys = range(len(rows))
    ax.barh(ys, ms, color=colors)
    for y, v in zip(ys, ms):
        ax.text(v, y, f" {v:.3g} ms", va="center", fontsize=8)
    ax.set_xscale("log")
    ax.set_yticks(list(ys))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("median ms (log); CUDA: GPU-resident, CPU: green")
    ax.set_title("raydb bench ops: order statistics" + (f" ({gpu_name})" if gpu_name else ""))
    ax.set_xlim(right=max(ms) * 4)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("png")
    ap.add_argument("--suite", choices=["query", "ops"], default="query")
    a = ap.parse_args()
    rows = read_rows(a.json, a.suite)
    if a.suite == "ops":
        plot_order_stats(rows, a.png)
    else:
        plot_queries(rows, a.png)


if __name__ == "__main__":
    main()
