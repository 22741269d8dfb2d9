#!/usr/bin/env python3
"""Plots `raydb bench index --json FILE` output: lookup time and build time per method.

    python3 scripts/plot_bench_index.py bench_index.jsonl --out plots/

One PNG per workload (key bits, point/range hits, hit rate, duplicates, sorted probes)
with lookup throughput against log2(keys), plus build time and memory. GPU-resident
methods (name ending in -gpu) are plotted by their device time (launch + probe sort),
the others end to end; bucketed methods are labelled with their bucket size. A sweep
with a single key count is drawn as bars instead of lines.
"""
import argparse
import collections
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="+")
    ap.add_argument("--out", default="plots")
    args = ap.parse_args()
    rows = []
    for path in args.json:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    rows = [r for r in rows if r.get("suite") == "index"]
    if not rows:
        raise SystemExit("no index benchmark lines")
    os.makedirs(args.out, exist_ok=True)
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
