#!/usr/bin/env python3
"""Per-query table of raydb against DuckDB on TPC-H, and issue 12's CPU targets.

  python3 scripts/tpch_ratio.py RAYDB.jsonl DUCKDB.jsonl [--before RAYDB_BEFORE.jsonl]

RAYDB.jsonl comes from `raydb bench tpch ... --json`, DUCKDB.jsonl from
`python3 tools/duckdb_tpch.py TBL_DIR --json` (same data, same threads). Prints a
Markdown table (raydb ms, DuckDB ms, ratio; with --before also the earlier raydb ms)
and whether the targets hold: the sum of the medians at most 0.7x DuckDB's, and no
query slower than 1.5x DuckDB's. Each argument may name several files of repeated
runs, comma-separated: each query then takes its lowest median among them (on a
loaded machine, runs of the two engines interleaved and the least disturbed kept).
"""
import argparse, json, re


def medians(paths):
    """Per query, the median of one file; of several (comma-separated), the lowest median."""
    out = {}
    for path in paths.split(","):
        for line in open(path):
            line = line.strip()
            if line:
                r = json.loads(line)
                if r.get("status", "ok") == "ok":
                    q = r["query"]
                    out[q] = min(out.get(q, r["median_ms"]), r["median_ms"])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raydb")
    ap.add_argument("duckdb")
    ap.add_argument("--before")
    a = ap.parse_args()
    ray, duck = medians(a.raydb), medians(a.duckdb)
    before = medians(a.before) if a.before else None
    queries = sorted(set(ray) & set(duck), key=lambda q: int(re.sub(r"\D", "", q)))
    head = "| query |" + (" raydb before ms |" if before else "") + " raydb ms | DuckDB ms | ratio |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    worst = 0.0
    for q in queries:
        ratio = ray[q] / duck[q]
        worst = max(worst, ratio)
        b = f" {before[q]:.1f} |" if before and q in before else (" - |" if before else "")
        print(f"| {q} |{b} {ray[q]:.1f} | {duck[q]:.1f} | {ratio:.2f} |")
    rs, ds = sum(ray[q] for q in queries), sum(duck[q] for q in queries)
    bs = f" {sum(before.get(q, 0) for q in queries):.1f} |" if before else ""
    print(f"| sum |{bs} {rs:.1f} | {ds:.1f} | {rs / ds:.2f} |")
    print()
    print(f"sum of medians {rs / ds:.2f}x DuckDB's (target <= 0.70): {'met' if rs / ds <= 0.7 else 'not met'}")
    slow = [q for q in queries if ray[q] / duck[q] > 1.5]
    print(f"worst query {worst:.2f}x (target <= 1.50): {'met' if not slow else 'not met'}; "
          f"{len(slow)} of {len(queries)} queries above 1.5x")


if __name__ == "__main__":
    main()
