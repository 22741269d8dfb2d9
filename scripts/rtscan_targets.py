#!/usr/bin/env python3
"""Sets issue 16's (RT scan) GPU measurements beside their targets, from one device call:
the RTScan kit's summary (the artifact), `raydb bench scan` on the kit's data files, and
the 120-query sweep with the planner's pick. Writes a Markdown table; exit 1 when an
answer of raydb was wrong or an input is missing.

    python3 scripts/rtscan_targets.py --kit-summary summary.csv --kit-bench scan_kit.jsonl \
        --sweep scan_pick_sweep.jsonl [--calibrate calibrate.txt] [--out targets.md]

Targets (the issue's, on the GPU machine, same workloads, compared within one call):
- RT scan (rt-gpu) at most 0.5x RTScan's scan time at every selectivity of the kit's
  datasets, and right on every dataset (every bench line equal to brute force and, on
  the kit's files, to numpy's expected count);
- index build at most 1/10 of the artifact's time, GPU memory at most half of its;
- the plain CUDA scan (gpu-scan) within 1.5x of the read-bandwidth floor (the bytes of
  the columns it reads, `scan_columns` of the estimate x rows x 4, at the calibrated read
  bandwidth), on the sweep's uniform queries below selectivity 1; the kernel time is
  judged, the whole call (host synchronisation included) is shown beside it;
- sieving + CUDA refine (gpu-sieve) right everywhere;
- the planner's pick (with the measured refinement) the fastest method in every row of
  the sweep: strict (it runs the fastest method's kernels) and within run-to-run noise
  (scripts/rt_scan_pick_eval.py's measure: the larger of the two methods' median minus
  minimum over their repetitions).
The CPU target (the best CPU method beats the plain vectorized scan on selective
3-predicate queries) is not measured here.
"""
import argparse
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_scan_pick_eval as pick_eval  # noqa: E402  (the noise measure, shared)

DEFAULT_GBS = 3100.0  # the H100's measured read bandwidth when no calibrate output is given


def lines(path):
    out = []
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    sys.exit(f"error: {path}:{n}: not JSON")
    except OSError as e:
        sys.exit(f"error: {path}: {e.strerror}")
    return out


def read_bandwidth(path):
    """GB/s from `raydb calibrate`'s 'read bandwidth: X GB/s' line, else None."""
    if not path or not os.path.exists(path):
        return None
    for line in open(path):
        if "read bandwidth:" in line:
            try:
                return float(line.split("read bandwidth:")[1].split()[0])
            except (IndexError, ValueError):
                return None
    return None


def kit_rows(path):
    """The artifact's RTScan rows per (dataset, threshold): scan ms, correct, build s, GPU MB."""
    out = {}
    try:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["dataset"] == "smoke" or not r["method"].startswith("RTScan") or not r.get("scan_ms"):
                    continue
                out[(r["dataset"], int(float(r["threshold"])))] = r
    except OSError as e:
        sys.exit(f"error: {path}: {e.strerror}")
    return out


def dataset_of(name):
    """The kit's dataset name of a bench line's file name (uniform_100000000_3.dat)."""
    return os.path.basename(name).split("_")[0]


def ratio_cell(x, limit):
    return f"**{x:.2f}**" if x <= limit else f"{x:.2f} (over {limit:g})"


def artifact_section(kit, bench, out, failures):
    rt = {}
    builds = {}
    for j in bench:
        if j.get("suite") == "scan" and j.get("method") == "rt-gpu" and j.get("thresholds"):
            rt[(dataset_of(j["dataset"]), int(j["thresholds"][0]))] = j
        elif j.get("suite") == "scan-build":
            builds[(dataset_of(j["dataset"]), j["method"])] = j
    out.append("## RT scan against the RTScan artifact (same data files, same call)\n")
    out.append("| dataset | selectivity | rows | RTScan ms | RTScan correct | raydb rt-gpu ms | raydb correct | "
               "rt-gpu / RTScan (target <= 0.5) |")
    out.append("|---|---|---|---|---|---|---|---|")
    worst, met_all, n = 0.0, True, 0
    for key in sorted(kit):
        a = kit[key]
        j = rt.get(key)
        if j is None:
            out.append(f"| {key[0]} | {a['sel_asked']} | {a['rows']} | {float(a['scan_ms']):.3f} | {a['correct']} | "
                       f"missing | | |")
            failures.append(f"no raydb rt-gpu line for {key[0]} threshold {key[1]}")
            met_all = False
            continue
        ratio = j["device_ms"] / float(a["scan_ms"])
        worst, n = max(worst, ratio), n + 1
        met_all &= ratio <= 0.5 and j["correct"]
        if not j["correct"]:
            failures.append(f"raydb rt-gpu wrong on {key[0]} threshold {key[1]}")
        out.append(f"| {key[0]} | {a['sel_asked']} | {j['result_rows']} | {float(a['scan_ms']):.3f} | {a['correct']} | "
                   f"{j['device_ms']:.3f} | {'yes' if j['correct'] else 'NO'} | {ratio_cell(ratio, 0.5)} |")
    out.append("")
    out.append("| dataset | raydb rt-gpu build ms | RTScan build ms | build ratio (target <= 0.1) | raydb index MB | "
               "RTScan GPU MB | memory ratio (target <= 0.5) | raydb peak MB (whole GPU, build) | RTScan peak MB |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    build_met = mem_met = bool(kit)
    worst_b = worst_m = 0.0
    for ds in sorted({k[0] for k in kit}):
        a = next(kit[k] for k in sorted(kit) if k[0] == ds)
        b = builds.get((ds, "rt-gpu"))
        if b is None:
            out.append(f"| {ds} | missing | | | | | | | |")
            build_met = mem_met = False
            failures.append(f"no raydb rt-gpu build line for {ds}")
            continue
        art_ms, art_mb = float(a["build_s"]) * 1e3, float(a["gpu_mb"])
        rb, rm = b["build_ms"] / art_ms, b["device_bytes"] / 1e6 / art_mb
        worst_b, worst_m = max(worst_b, rb), max(worst_m, rm)
        build_met &= rb <= 0.1
        mem_met &= rm <= 0.5
        peak = b.get("device_peak_bytes", 0) / 1e6
        out.append(f"| {ds} | {b['build_ms']:.0f} | {art_ms:.0f} | {ratio_cell(rb, 0.1)} | {b['device_bytes'] / 1e6:.0f} | "
                   f"{art_mb:.0f} | {ratio_cell(rm, 0.5)} | {peak:.0f} | {float(a['peak_gpu_mb']):.0f} |")
    out.append("")
    return {"rt": (met_all and n > 0, f"worst {worst:.2f}x over {n} queries" if n else "not measured"),
            "build": (build_met, f"worst {worst_b:.3f}x" if kit else "not measured"),
            "memory": (mem_met, f"worst {worst_m:.2f}x" if kit else "not measured")}


def floor_section(sweep, gbs, out):
    out.append(f"## gpu-scan against the read floor (sweep, uniform, read bandwidth {gbs:.0f} GB/s)\n")
    out.append("| predicates | selectivity | columns read | floor ms | kernel ms | kernel / floor | call ms | call / floor |")
    out.append("|---|---|---|---|---|---|---|---|")
    worst_k = worst_c = 0.0
    n = 0
    for j in sorted((j for j in sweep if j.get("suite") == "scan" and j.get("method") == "gpu-scan"
                     and j.get("dataset") == "uniform" and j.get("selectivity") != "1" and j.get("estimate")),
                    key=lambda j: (j["predicates"], float(j["selectivity"]))):
        cols = j["estimate"]["scan_columns"] or j["predicates"]
        floor = j["rows"] * 4 * cols / (gbs * 1e9) * 1e3
        k, c = j.get("kernel_ms", 0) / floor, j["device_ms"] / floor
        worst_k, worst_c, n = max(worst_k, k), max(worst_c, c), n + 1
        out.append(f"| {j['predicates']} | {j['selectivity']} | {cols:.2f} | {floor:.3f} | {j.get('kernel_ms', 0):.3f} | "
                   f"{ratio_cell(k, 1.5)} | {j['device_ms']:.3f} | {c:.2f} |")
    out.append("")
    return (n > 0 and worst_k <= 1.5,
            f"kernel worst {worst_k:.2f}x, whole call worst {worst_c:.2f}x ({n} queries)" if n else "not measured")


def pick_section(sweep, out):
    scans, picks = {}, {}
    for j in sweep:
        key = (j.get("dataset"), j.get("predicates"), j.get("selectivity"))
        if j.get("suite") == "scan":
            scans.setdefault(key, {})[j["method"]] = j
        elif j.get("suite") == "scan-pick" and "pick_source" in j:
            picks[key] = j
    strict = noise = unsettled = 0
    misses = []
    for key, p in sorted(picks.items(), key=lambda kv: str(kv[0])):
        ms = scans.get(key, {})
        if p["pick"] not in ms or p["fastest"] not in ms:
            continue
        ok = p["pick_same_work"]
        in_noise, gap = pick_eval.within_noise(ms, p["pick"], p["fastest"])
        strict += ok
        noise += ok or in_noise
        unsettled += not p.get("pick_settled", True)
        if not ok:
            misses.append((key, p, gap, max(pick_eval.noise_ms(ms[p["pick"]]), pick_eval.noise_ms(ms[p["fastest"]])),
                           in_noise))
    total = len(picks)
    margins = sorted({p.get("adaptive_margin", 0) for p in picks.values()})
    out.append("## The planner's pick over the sweep (measured refinement replayed on the repetitions)\n")
    out.append(f"- margin {', '.join(f'{m:g}' for m in margins)}; strict: the pick runs the fastest method's kernels in "
               f"**{strict} of {total}**; within run-to-run noise (the larger of the two methods' median - minimum "
               f"over their repetitions): **{noise} of {total}**; {unsettled} still exploring after the repetitions.")
    for (ds, p_, sel), p, gap, nz, in_noise in misses:
        out.append(f"- miss {ds} {p_} predicates at {sel}: picked {p['pick']}, fastest {p['fastest']} "
                   f"{p['fastest_ms']:.3f} ms: {1e3 * gap:.1f} us apart, noise {1e3 * nz:.1f} us "
                   f"({'within' if in_noise else 'beyond'} noise)")
    out.append("")
    return (total > 0 and strict == total, f"strict {strict} of {total}, within noise {noise} of {total}"
            if total else "not measured")


def correctness(kit_bench, sweep, method):
    rows = [j for j in kit_bench + sweep if j.get("suite") == "scan" and j.get("method") == method]
    wrong = [j for j in rows if not j.get("correct")]
    return rows, wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kit-summary", help="the RTScan kit's summary.csv")
    ap.add_argument("--kit-bench", help="raydb bench scan JSON lines on the kit's data files")
    ap.add_argument("--sweep", help="raydb bench scan JSON lines of the 120-query sweep")
    ap.add_argument("--calibrate", help="raydb calibrate's output (its read bandwidth line)")
    ap.add_argument("--out", help="write the Markdown here too")
    a = ap.parse_args()
    if not (a.kit_summary or a.kit_bench or a.sweep):
        sys.exit("error: nothing to summarize (give --kit-summary/--kit-bench and/or --sweep)")
    failures = []
    kit = kit_rows(a.kit_summary) if a.kit_summary and os.path.exists(a.kit_summary) else {}
    kit_bench = lines(a.kit_bench) if a.kit_bench and os.path.exists(a.kit_bench) else []
    sweep = lines(a.sweep) if a.sweep and os.path.exists(a.sweep) else []
    if not any(j.get("suite") == "scan" for j in kit_bench + sweep):
        failures.append("no raydb bench scan measurement in the inputs")
    gpu = next((j.get("device") for j in kit_bench + sweep if j.get("device")), "unknown GPU")
    gbs = read_bandwidth(a.calibrate)
    out = [f"# Issue 16 targets on {gpu}\n"]
    res = artifact_section(kit, kit_bench, out, failures) if kit or kit_bench else {}
    floor = floor_section(sweep, gbs or DEFAULT_GBS, out) if sweep else (False, "not measured")
    if sweep and not gbs:
        out.append(f"(no calibrate output: the floor uses {DEFAULT_GBS:.0f} GB/s)\n")
    pick = pick_section(sweep, out) if sweep else (False, "not measured")
    right = {}
    for m in ("rt-gpu", "gpu-scan", "gpu-sieve"):
        rows, wrong = correctness(kit_bench, sweep, m)
        right[m] = (bool(rows) and not wrong, f"{len(rows) - len(wrong)} of {len(rows)} answers equal brute force")
        failures += [f"{m} wrong on {j['dataset']} {j['predicates']} predicates at {j['selectivity']}" for j in wrong]
    table = [
        ("RT scan at most 0.5x RTScan at every selectivity", res.get("rt", (False, "artifact not run"))),
        ("RT scan right on every dataset (kit files and sweep)", right["rt-gpu"]),
        ("index build at most 1/10 of the artifact's", res.get("build", (False, "artifact not run"))),
        ("GPU memory at most half of the artifact's", res.get("memory", (False, "artifact not run"))),
        ("plain CUDA scan within 1.5x of the read floor", floor),
        ("sieving + CUDA refine right everywhere", right["gpu-sieve"]),
        ("the planner's pick the fastest in every row", pick),
        ("CPU: best CPU method beats the plain scan (selective, 3 predicates)", (None, "not measured by this call")),
    ]
    out.insert(1, "| target | measured | met |\n|---|---|---|\n" + "\n".join(
        f"| {t} | {m} | {'-' if ok is None else ('**yes**' if ok else 'no')} |" for t, (ok, m) in table) + "\n")
    text = "\n".join(out)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    for f_ in failures:
        print(f"error: {f_}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
