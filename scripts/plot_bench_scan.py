#!/usr/bin/env python3
"""Plots `raydb bench scan --json FILE` output like RTScan's figures 15-27.

    python3 scripts/plot_bench_scan.py scan.jsonl [more.jsonl ...] --out plots/ [--baseline summary.csv]

One PNG per dataset and predicate count: time per query against the per-column
selectivity, one line per method, the device-resident result (solid) beside the result
copied to the host (dashed). `--baseline` adds the RTScan kit's summary.csv (its own
RTScan and BinDex-CUDA rows, `scan ms` solid and `+xfer ms` dashed) to the 3-predicate
plots of the datasets it names. A table of every point goes to stdout.
"""
import argparse
import collections
import csv
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def short(name):
    """uniform_100000000_3.dat -> uniform (the kit's file names)."""
    return name.split("_")[0]


def sel_value(s):
    """'0.9/authors-0.9' -> 0.9; 'authors-0.9' -> 0.9."""
    for part in str(s).replace(",", "/").split("/"):
        try:
            return float(part.replace("authors-", ""))
        except ValueError:
            continue
    return float("nan")


def load(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            for line in f:
                j = json.loads(line)
                if j.get("suite") == "scan":
                    rows.append(j)
    return rows


def load_baseline(path):
    out = collections.defaultdict(list)  # dataset -> [(method, sel, scan, xfer)]
    with open(path) as f:
        for r in csv.DictReader(f):
            try:
                out[r["dataset"]].append((r["method"], sel_value(r["sel_asked"]), float(r["scan_ms"]), float(r["total_ms"])))
            except (KeyError, ValueError):
                continue
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jsonl", nargs="+")
    ap.add_argument("--out", default="plots")
    ap.add_argument("--baseline", help="the RTScan kit's summary.csv")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = load(a.jsonl)
    base = load_baseline(a.baseline) if a.baseline else {}
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(short(r["dataset"]), r["predicates"])].append(r)
    print("| dataset | rows | predicates | sel/col | method | result rows | device ms | host ms | rays | refined | correct |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (ds, p), rs in sorted(groups.items()):
        fig, ax = plt.subplots(figsize=(6, 4))
        by_method = collections.defaultdict(list)
        for r in rs:
            by_method[r["method"]].append(r)
            print(f"| {ds} | {r['rows']} | {p} | {r['selectivity']} | {r['method']} | {r['result_rows']} | "
                  f"{r['device_ms']:.3f} | {r['host_ms']:.3f} | {r['rays']} | {r['rows_refined']} | "
                  f"{'yes' if r['correct'] else 'NO'} |")
        for m, pts in sorted(by_method.items()):
            pts.sort(key=lambda r: sel_value(r["selectivity"]))
            xs = [sel_value(r["selectivity"]) for r in pts]
            line, = ax.plot(xs, [r["device_ms"] for r in pts], marker="o", label=f"raydb {m}")
            ax.plot(xs, [r["host_ms"] for r in pts], ls="--", color=line.get_color(), alpha=0.6)
        if p == 3:
            for method in sorted({m for m, *_ in base.get(ds, [])}):
                pts = sorted((s, sc, x) for m, s, sc, x in base[ds] if m == method)
                line, = ax.plot([s for s, _, _ in pts], [sc for _, sc, _ in pts], marker="s", label=f"artifact {method}")
                ax.plot([s for s, _, _ in pts], [x for _, _, x in pts], ls="--", color=line.get_color(), alpha=0.6)
        ax.set_xlabel("selectivity per column")
        ax.set_ylabel("ms per query (solid: result on device; dashed: on host)")
        ax.set_yscale("log")
        ax.set_title(f"{ds}, {rs[0]['rows']} rows, {p} predicate(s)" + (f" ({rs[0].get('device')})" if rs[0].get("device") else ""))
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(a.out, f"scan_{ds}_p{p}.png"), dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main()
