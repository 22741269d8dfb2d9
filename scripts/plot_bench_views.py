#!/usr/bin/env python3
"""Plots `raydb bench views --json FILE` output.

    python3 scripts/plot_bench_views.py views_sf1.jsonl [more.jsonl ...] --out plots/

One PNG per file (a scale factor): per SSB query the median host time of the star path
and of the query through its RT view (log scale), with the ratio written above each
pair; a second panel shows the rays launched and the hits. A table of every query and
of every view (build times, bytes per row) goes to stdout.
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    views, queries = [], []
    with open(path) as f:
        for line in f:
            j = json.loads(line)
            if j.get("suite") != "views":
                continue
            (views if j.get("record") == "view" else queries).append(j)
    return views, queries


def table(views, queries):
    for v in views:
        print(f"view {v['view']:<12} {v['rows']:>10} rows {v['groups']:>8} groups  create {v['create_ms']:9.0f} ms"
              f"  encode {v['encode_ms']:8.0f} ms  BVH {v['bvh_ms']:8.0f} ms  {v['bytes_per_row']:6.1f} B/row"
              f" ({v['tracer']})")
    for q in queries:
        print(f"{q['query']:<6} {q['view'] or '(star)':<12} star {q['star_ms']:10.3f} ms  view {q['view_ms']:10.3f} ms"
              f"  {q['ratio']:7.1f}x  rays {q['rays']:>10}  groups {q['groups_traced']:>7}  hits {q['hits']:>9}"
              f"  flushes {q['accumulator_flushes']:>8}  {'ok' if q['verified'] else 'DIFFERS'}")


def plot(queries, title, out):
    names = [q["query"] for q in queries]
    x = range(len(names))
    fig, (a, b) = plt.subplots(2, 1, figsize=(11, 7), sharex=True)
    w = 0.4
    a.bar([i - w / 2 for i in x], [q["star_ms"] for q in queries], w, label=f"star path ({queries[0]['star_backend']})")
    a.bar([i + w / 2 for i in x], [q["view_ms"] for q in queries], w, label="through the RT view")
    for i, q in zip(x, queries):
        a.text(i, max(q["star_ms"], q["view_ms"]) * 1.15, f"{q['ratio']:.1f}x", ha="center", fontsize=8)
    a.set_yscale("log")
    a.set_ylabel("median host ms")
    a.set_title(title)
    a.legend()
    b.bar([i - w / 2 for i in x], [max(q["rays"], 1) for q in queries], w, label="rays")
    b.bar([i + w / 2 for i in x], [max(q["hits"], 1) for q in queries], w, label="hits")
    b.set_yscale("log")
    b.set_xticks(list(x))
    b.set_xticklabels(names)
    b.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("files", nargs="+")
    p.add_argument("--out", default="plots")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for path in a.files:
        views, queries = load(path)
        print(f"== {path}")
        table(views, queries)
        if queries:
            base = os.path.splitext(os.path.basename(path))[0]
            device = queries[0].get("device") or queries[0].get("machine", {}).get("cpu", "")
            plot(queries, f"SSB through RT views: {base} {device}", os.path.join(a.out, base + ".png"))


if __name__ == "__main__":
    main()
