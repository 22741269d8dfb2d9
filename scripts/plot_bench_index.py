#!/usr/bin/env python3
"""Plots `raydb bench index --json FILE` output: lookup time and build time per method.

    python3 scripts/plot_bench_index.py bench_index.jsonl --out plots/

One PNG per workload (key bits, point/range hits, hit rate, duplicates, sorted probes)
with lookup throughput against log2(keys), plus build time and memory. GPU-resident
methods (name ending in -gpu) are plotted by their device time (launch + probe sort),
the others end to end; bucketed methods are labelled with their bucket size. A sweep
with a single key count is drawn as bars instead of lines. The cost model's picks
(`index-auto` lines) go into index_auto_picks.png: per workload, the measured time of
the picked method+mode over the fastest measured (1.0 = the pick was the fastest), and
into a table printed on stdout.
"""
import argparse
import collections
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_autos(autos, out):
    """The model's picks against the fastest measured, one bar per workload and probe order."""
    names, ratios, colors = [], [], []
    print("| key bits | log2 keys | log2 lookups | hit rate | range hits | log2 dups | probes | model picks | measured ms | fastest | ms | gap |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in autos:
        ratio = r["planner_measured_ms"] / r["fastest_ms"]
        work = "pt" if r["range_hits"] == 0 else f"r{r['range_hits']}"
        names.append(f"k{r['key_bits']} 2^{r['log_keys']}/2^{r['log_lookups']} {work} hr{r['hit_rate']} d{r['log_dups']} {r['probes']}")
        ratios.append(ratio)
        colors.append("tab:green" if r["match"] else "tab:orange" if ratio <= 1.03 else "tab:red")
        same = "" if r["match"] else f"{(ratio - 1) * 100:.1f}%"
        print(f"| {r['key_bits']} | {r['log_keys']} | {r['log_lookups']} | {r['hit_rate']} | {r['range_hits']} | "
              f"{r['log_dups']} | {r['probes']} | {r['planner_method']} {r['planner_probes']} | "
              f"{r['planner_measured_ms']:.3f} | {r['fastest_method']} {r['fastest_probes']} | {r['fastest_ms']:.3f} | {same} |")
    fig, ax = plt.subplots(figsize=(10, max(4, 0.18 * len(names))))
    ax.barh(range(len(names)), ratios, color=colors)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=6)
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("measured time of the model's pick / fastest measured (green: the fastest; orange: within 3%)")
    ax.set_title(f"cost model picks ({autos[0]['machine']['cpu']})")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "index_auto_picks.png"), dpi=100)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="+")
    ap.add_argument("--out", default="plots")
    args = ap.parse_args()
    rows = []
    for path in args.json:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    autos = [r for r in rows if r.get("suite") == "index-auto" and "planner_probes" in r]
    rows = [r for r in rows if r.get("suite") == "index"]
    if not rows:
        raise SystemExit("no index benchmark lines")
    os.makedirs(args.out, exist_ok=True)
    if autos:
        plot_autos(autos, args.out)
    groups = collections.defaultdict(list)
    for r in rows:
        probes = r.get("probes", "index-sorts" if r["sorted_probes"] else "unsorted")
        key = (r["key_bits"], r["range_hits"], r["hit_rate"], r["log_dups"], probes, r["log_lookups"])
        groups[key].append(r)
    def label(r):
        return r["method"] + (f"/{r['bucket']}" if r.get("bucket") else "")

    def ms(r):
        if r["method"].endswith("-gpu"):
            return r["launch_median_ms"] + r.get("sort_median_ms", 0)
        return r["lookup_median_ms"]

    for key, rs in sorted(groups.items()):
        bits, hits, hit_rate, dups, sp, ll = key
        fig, axes = plt.subplots(1, 3, figsize=(15, 4))
        single = len({r["log_keys"] for r in rs}) == 1
        if single:
            names = [label(r) for r in rs]
            axes[0].barh(names, [ms(r) for r in rs])
            axes[1].barh(names, [r["build_ms"] for r in rs])
            axes[2].barh(names, [r["memory_bytes"] / 2 ** 20 for r in rs])
            titles = [f"lookup ms (2^{rs[0]['log_keys']} keys)", "build (ms)", "resident memory (MiB)"]
        else:
            for method in sorted({label(r) for r in rs}):
                m = sorted((r for r in rs if label(r) == method), key=lambda r: r["log_keys"])
                xs = [r["log_keys"] for r in m]
                axes[0].plot(xs, [2 ** r["log_lookups"] / ms(r) / 1e3 for r in m], marker="o", label=method)
                axes[1].plot(xs, [r["build_ms"] for r in m], marker="o", label=method)
                axes[2].plot(xs, [r["memory_bytes"] / 2 ** 20 for r in m], marker="o", label=method)
            titles = ["lookups (M/s)", "build (ms)", "resident memory (MiB)"]
        for ax, t in zip(axes, titles):
            if not single:
                ax.set_xlabel("log2(keys)")
            ax.set_title(t)
            ax.grid(True, alpha=0.3)
        if not single:
            axes[1].set_yscale("log")
            axes[0].legend()
        work = "point" if hits == 0 else f"range{hits}"
        fig.suptitle(f"{bits}-bit keys, {work}, hit rate {hit_rate}, 2^{dups} copies, "
                     f"{sp} probes, 2^{ll} lookups ({rs[0]['machine']['cpu']})")
        fig.tight_layout()
        name = f"index_k{bits}_{work}_hr{hit_rate}_d{dups}_{sp}_l{ll}.png"
        fig.savefig(os.path.join(args.out, name), dpi=100)
        plt.close(fig)
        print(os.path.join(args.out, name))


if __name__ == "__main__":
    main()
