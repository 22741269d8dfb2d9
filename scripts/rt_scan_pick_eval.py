#!/usr/bin/env python3
"""Offline check of the RT scan cost model's pick against a `raydb bench scan` sweep.

Reads the sweep's JSON lines (every method's measured device time per query), costs
each method with the GPU formula of plan/physical/cost_model.cpp (rt_scan_cost_ms)
under a calibration, and counts the queries where the cheapest-modelled method runs
the fastest method's kernels (as `scan-pick` lines count them: rt with nothing left to
refine runs the sieve's kernels; a filter folded to a constant is one fill).

The work per query comes from each line's "estimate" object (written by `raydb bench
scan` since it has one). Older sweeps lack it; then it is rebuilt from what they hold:
exact residual rows per job (sieve_rows of the 1..4 predicate queries: the thresholds
are per column, so 4 predicates = job (c0, c1, c2) + job (c3)), and every column
taken to pass the 1-predicate query's fraction (same distribution per column).

"Fastest" is judged two ways, both printed: strictly (the pick runs the kernels of the
method with the lowest median over the repetitions; --time min: the lowest minimum) and
within run-to-run noise (the pick's time is at most the larger of the two methods'
noise above the fastest's, a method's noise being its median minus its minimum over the
sweep's repetitions). The sweep's own refined picks (scan-pick lines) are counted the
same way. The cost formula is the engine's (rt_scan_cost_ms), checked against the
sweep's own model_ms when it ran under the same calibration.

Constants: --calibration FILE (raydb's calibration JSON, member rt_scan_gpu), or
--fit DATASETS, a non-negative least-squares fit on relative error (as `raydb
calibrate` does) to the sweep's own rows of those datasets (in-sample for them: say so
when quoting it). --model old drops the terms added with the sieve pass and refine
sector counts, which reproduces the formula of before.

Usage:
  scripts/rt_scan_pick_eval.py SWEEP.jsonl [--calibration FILE | --fit uniform [--fit-from OTHER.jsonl]]
                               [--model old|new] [--verbose]
"""
import argparse
import itertools
import json
import re
import sys
from collections import defaultdict


METHODS = ("rt-gpu", "gpu-scan", "gpu-sieve")
TIME = "device_ms"  # the median of the repetitions; --time min: device_ms_min


def load(path):
    scans, picks = {}, {}
    try:
        f = open(path)
    except OSError as e:
        sys.exit(f"error: {path}: {e.strerror}")
    with f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                j = json.loads(line)
            except json.JSONDecodeError:
                sys.exit(f"error: {path}:{n}: not JSON")
            key = (j.get("dataset"), j.get("predicates"), j.get("selectivity"))
            if j.get("suite") == "scan" and j.get("method") in METHODS:
                scans[key + (j["method"],)] = j
            elif j.get("suite") == "scan-pick":
                picks[key] = j
    if not scans:
        sys.exit(f"error: {path}: no 'scan' lines of {', '.join(METHODS)}")
    return scans, picks


def rebuilt_work(scans, ds, p, sel):
    """The estimate of a sweep written before lines carried one (see the docstring)."""
    first = scans.get((ds, 1, sel, "gpu-scan")) or scans.get((ds, 1, sel, "gpu-sieve"))
    if first is None:
        return None
    rows = first["rows"]
    f = first["result_rows"] / rows
    if f == 1.0:  # the whole domain: the filter folds to true (no term left)
        return {"rows": rows, "predicates": 0, "jobs": 0, "sieve_vectors": 0, "match_fraction": 1.0, "residual_rows": 0,
                "slab_rows": 0.0, "refine_jobs": 0, "sieve_passes": 0.0, "refine_sectors": 0.0, "scan_columns": 0.0}
    resid = {q: scans[(ds, q, sel, "gpu-sieve")]["sieve_rows"] for q in range(1, p + 1) if (ds, q, sel, "gpu-sieve") in scans}
    if len(resid) != p:
        return None
    jobs = [list(range(min(p, 3)))] + ([[3]] if p == 4 else [])
    per_dim = [resid[q] - resid.get(q - 1, 0) for q in range(1, p + 1)]
    w = {"rows": rows, "predicates": p, "jobs": len(jobs), "sieve_vectors": 2 * p, "match_fraction": f**p,
         "residual_rows": resid[p], "slab_rows": 0.0, "refine_jobs": 0, "sieve_passes": 0.0, "refine_sectors": 0.0, "scan_columns": 0.0}
    q = 1.0
    for _ in range(p):  # every column passes f: the order does not matter
        w["scan_columns"] += 1 - (1 - q) ** 32
        q *= f
    for cols in jobs:
        r_job = sum(per_dim[c] for c in cols)
        w["refine_jobs"] += r_job > 0
        q = 1.0
        for _ in cols:
            w["sieve_passes"] += 1 - (1 - q) ** 32
            q *= f
        w["refine_sectors"] += len(cols) * rows / 8 * (1 - (1 - r_job / rows) ** 8)
        w["slab_rows"] += sum(per_dim[c] for c in cols) * f ** (len(cols) - 1)  # each slab: the others' ranges
    return w


def work_of(scans, ds, p, sel):
    for m in METHODS:
        j = scans.get((ds, p, sel, m))
        if j and "estimate" in j:
            return dict(j["estimate"], rows=j["rows"])
    return rebuilt_work(scans, ds, p, sel)


# Terms of each method (the columns of the fit); names are the calibration's members.
def terms(w, method, model):
    rows = float(w["rows"])
    if method == "gpu-scan":
        return {"scan_ns_per_row_predicate": rows * (w["scan_columns"] or max(1, w["predicates"]))}
    if model == "old":
        sieve = {"sieve_ns_per_row_vector": rows * max(1, w["sieve_vectors"])}
    else:
        # Its own fixed part in place of the scan's (different launches and allocations).
        sieve = {"sieve_fixed_ns": 1.0, "sieve_pass_ns_per_row": rows * w["sieve_passes"], "sieve_job_ns": float(w["jobs"])}
    if method == "gpu-sieve":
        refine = {"sieve_refine_job_ns": float(w["refine_jobs"])}
        if model == "old":
            refine["sieve_refine_ns_per_row"] = float(w["residual_rows"])
        else:
            refine["sieve_refine_ns_per_sector"] = float(w["refine_sectors"])
        return {**sieve, **refine}
    rt = {"rt_ns_per_job": float(w["refine_jobs"])}
    if model == "old":
        rt["rt_refine_ns_per_row"] = float(w["residual_rows"])
    else:  # rays cross the residual slabs: the rows inside them, not the residual rows alone
        rt["rt_refine_ns_per_row"] = float(w["residual_rows"])
        rt["rt_slab_ns_per_row"] = float(w["slab_rows"])
    return {**sieve, **rt}


# The engine's formula (rt_scan_cost_ms on the GPU): with a calibration of the memory
# model (sieve_pass_ns_per_row > 0) the sieve methods pay their own fixed part, not the
# scan's, even where the fit made it 0; every method pays the bit vector's turning into
# row ids. That part is the same for every method, so it never moves the pick, but it
# does move the margin test of the measured refinement, so it is counted here as the
# engine counts it. `with_rows=False` leaves it out (the sweep's device times exclude it).
def to_rows_ns(w):
    return float(w["rows"]) * 0.0002 + w["match_fraction"] * float(w["rows"]) * 0.004


def cost_ns(w, method, model, c, with_rows=True):
    rows = to_rows_ns(w) if with_rows else 0.0
    if w["predicates"] == 0:
        return c["fixed_ns"] + rows
    if method != "gpu-scan" and model == "new" and not c.get("sieve_pass_ns_per_row", 0) > 0:
        model = "old"  # the engine's per-vector form, as for a calibration of before
    own = method != "gpu-scan" and model == "new"
    t = terms(w, method, model)
    if own:
        if "sieve_job_ns" in t:
            t["sieve_job_ns"] = float(max(1, w["jobs"]))
        if "sieve_pass_ns_per_row" in t and not w["sieve_passes"]:
            t["sieve_pass_ns_per_row"] = float(w["rows"]) * max(1, w["predicates"])
    return (0.0 if own else c["fixed_ns"]) + sum(c.get(k, 0.0) * x for k, x in t.items()) + rows


def solve(a, b):
    """Gaussian elimination with partial pivoting; None when singular."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        if abs(m[p][i]) < 1e-300:
            return None
        m[i], m[p] = m[p], m[i]
        for r in range(i + 1, n):
            f = m[r][i] / m[i][i]
            for k in range(i, n + 1):
                m[r][k] -= f * m[i][k]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (m[i][n] - sum(m[i][k] * x[k] for k in range(i + 1, n))) / m[i][i]
    return x


def nonnegative_fit(xs, ys):
    """min sum ((x.c - y) / y)^2 over c >= 0: the normal equations of every subset of
    the few unknowns, the best non-negative one kept (as plan/physical/nonnegative_fit)."""
    a = [[x / y for x in row] for row, y in zip(xs, ys)]
    k = len(xs[0])
    best, best_c = float("inf"), [0.0] * k
    for m in range(1, k + 1):
        for sub in itertools.combinations(range(k), m):
            ata = [[sum(r[i] * r[j] for r in a) for j in sub] for i in sub]
            atb = [sum(r[i] for r in a) for i in sub]
            # Columns of very different scales (rows x passes against launches): scale them.
            scale = [max(1e-300, ata[i][i]) ** 0.5 for i in range(m)]
            c = solve([[ata[i][j] / (scale[i] * scale[j]) for j in range(m)] for i in range(m)],
                      [atb[i] / scale[i] for i in range(m)])
            if c is None or any(v < 0 for v in c):
                continue
            full = [0.0] * k
            for i, j in enumerate(sub):
                full[j] = c[i] / scale[i]
            e = sum((sum(r[i] * full[i] for i in range(k)) - 1) ** 2 for r in a)
            if e < best:
                best, best_c = e, full
    return best_c


def fit(scans, keys, model):
    """Like `raydb calibrate`: the scan gives the fixed part and per-column read; the
    sieve's and rt's terms fit their time above that fixed part."""
    c = {}
    pts = [(key, work_of(scans, *key)) for key in keys]
    pts = [(k, w) for k, w in pts if w and w["predicates"] > 0]
    ys = [scans[k + ("gpu-scan",)][TIME] * 1e6 for k, _ in pts]
    xs = [[1.0, terms(w, "gpu-scan", model)["scan_ns_per_row_predicate"]] for _, w in pts]
    c["fixed_ns"], c["scan_ns_per_row_predicate"] = nonnegative_fit(xs, ys)
    for method, skip in (("gpu-sieve", lambda w: False), ("rt-gpu", lambda w: w["refine_jobs"] == 0)):
        names, xs, ys = None, [], []
        for k, w in pts:
            if k + (method,) not in scans or skip(w):
                continue
            t = terms(w, method, model)
            if method == "rt-gpu":  # the sieve part comes from gpu-sieve's fit
                sieve_part = sum(c[n] * x for n, x in t.items() if n in c)
                t = {n: x for n, x in t.items() if n not in c}
            else:
                sieve_part = 0.0
            names = list(t)
            y = scans[k + (method,)][TIME] * 1e6
            xs.append(list(t.values()))
            own = "sieve_fixed_ns" in t or "sieve_fixed_ns" in c
            ys.append(max(0.05 * y, y - (0.0 if own else c["fixed_ns"]) - sieve_part))
        if names:
            c.update(zip(names, nonnegative_fit(xs, ys)))
    if model == "new":  # as raydb calibrate keeps it, so the engine takes the memory form
        c["sieve_pass_ns_per_row"] = max(1e-7, c.get("sieve_pass_ns_per_row", 0.0))
    return c


# The line `raydb calibrate` prints (older runs kept only their printed output).
PRINTED = re.compile(r"gpu rt scan, .*?: fixed ([\d.e+-]+) us, gpu-scan ([\d.e+-]+) ns/row/column.*?"
                     r"sieve ([\d.e+-]+) ns/row/vector \+ ([\d.e+-]+) us/refine launch \+ ([\d.e+-]+) ns/refined row.*?"
                     r"rt ([\d.e+-]+) us/launch \+ ([\d.e+-]+) ns/refined row")


def load_calibration(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        sys.exit(f"error: {path}: {e}")
    try:
        j = json.loads(text)
    except json.JSONDecodeError:
        m = PRINTED.search(text)
        if not m:
            sys.exit(f"error: {path}: neither a calibration JSON nor raydb calibrate's printed 'gpu rt scan' line")
        v = [float(x) for x in m.groups()]
        return {"fixed_ns": v[0] * 1e3, "scan_ns_per_row_predicate": v[1], "sieve_ns_per_row_vector": v[2],
                "sieve_refine_job_ns": v[3] * 1e3, "sieve_refine_ns_per_row": v[4], "rt_ns_per_job": v[5] * 1e3,
                "rt_refine_ns_per_row": v[6]}
    if "rt_scan_gpu" not in j:
        sys.exit(f"error: {path}: no rt_scan_gpu member (run raydb calibrate --devices gpu)")
    return j["rt_scan_gpu"]


# Run-to-run noise of one method on one query: its median minus its minimum over the
# sweep's repetitions (every sweep line has both). Two methods are within noise of each
# other when their times differ by no more than the larger of their two noises: which
# of them is "the fastest" is then not settled by the sweep itself (on the H100 the
# winner of such pairs flipped between two calls of the same sweep).
def noise_ms(j):
    return max(0.0, j["device_ms"] - j["device_ms_min"])


def within_noise(ms, pick, fastest):
    gap = ms[pick][TIME] - ms[fastest][TIME]
    return gap <= max(noise_ms(ms[pick]), noise_ms(ms[fastest])), gap


def kernels_of(w):
    """The kernels a method runs (as scan-pick lines count them): rt with nothing left
    to refine runs the sieve's; a filter folded to a constant is one fill for all."""
    def kernels(m):
        if w["predicates"] == 0:
            return "constant"
        if m == "rt-gpu" and w["residual_rows"] == 0:
            return "gpu-sieve"
        return m
    return kernels


def refine_pick(ms, ranked, model_ms, margin):
    """The measured refinement on the medians: every method (one per kernels) whose
    estimate is within the margin of the pick's is tried, the fastest measured kept
    (the trials' own cost not counted). Returns the pick and whether it was a near-tie."""
    near = [m for m in ranked if model_ms[m] <= model_ms[ranked[0]] * (1 + margin)] if margin > 0 else ranked[:1]
    return min(near, key=lambda m: (ms[m][TIME], ranked.index(m))), len(near) > 1


def evaluate(scans, picks, c, model, verbose, margin=0.0):
    by_query = defaultdict(dict)
    for (ds, p, sel, m) in scans:
        by_query[(ds, p, sel)][m] = scans[(ds, p, sel, m)]
    total = same = near = agree_old = adaptive = tied = 0
    # Sweeps since the engine's measured refinement carry both picks: "model_pick*" the
    # cost model's alone, "pick*" with the refinement (pick_source model / explore /
    # measured); older sweeps only the model's, as "pick*".
    engine_adaptive = engine_measured = engine_tied = engine_total = 0
    has_adaptive = any("pick_source" in j for j in picks.values())
    misses, engine_misses, noises, deviation = [], [], [], 0.0
    for key in sorted(by_query, key=lambda k: (k[0], k[1], float(k[2]) if k[2].replace(".", "").isdigit() else 0)):
        ms = by_query[key]
        if len(ms) < 2:
            continue
        w = work_of(scans, *key)
        if w is None:
            continue
        total += 1
        model_ms = {m: cost_ns(w, m, model, c) * 1e-6 for m in ms}
        for m in ms:  # how far this formula is from the engine's own estimate in the sweep
            if ms[m].get("model_ms"):
                deviation = max(deviation, abs(model_ms[m] / ms[m]["model_ms"] - 1))
        kernels = kernels_of(w)
        # As the planner breaks ties: not the RT method.
        ranked = sorted(ms, key=lambda m: (model_ms[m], m == "rt-gpu"))
        ranked = [m for i, m in enumerate(ranked) if kernels(m) not in map(kernels, ranked[:i])]  # one per kernels
        pick, was_near = refine_pick(ms, ranked, model_ms, margin)
        adaptive += was_near
        fastest = min(ms, key=lambda m: ms[m][TIME])
        noises.append(max(noise_ms(ms[m]) / ms[m][TIME] for m in ms))

        ok = kernels(pick) == kernels(fastest)
        t_pick, t_fast = ms[pick][TIME], ms[fastest][TIME]
        same += ok
        near += ok or t_pick <= t_fast * 1.05 + 0.005
        in_noise, gap = within_noise(ms, pick, fastest)
        tied += ok or in_noise
        if key in picks:
            pj = picks[key]
            agree_old += pj.get("model_pick_same_work" if "pick_source" in pj else "pick_same_work", False)
            if "pick_source" in pj and pj["pick"] in ms:
                engine_total += 1
                e_ok = pj.get("pick_same_work", False)
                e_noise, e_gap = within_noise(ms, pj["pick"], fastest)
                engine_adaptive += e_ok
                engine_tied += e_ok or e_noise
                engine_measured += pj["pick_source"] == "measured"
                if not e_ok:
                    engine_misses.append((key, pj["pick"], ms[pj["pick"]][TIME], fastest, t_fast, e_gap,
                                          max(noise_ms(ms[pj["pick"]]), noise_ms(ms[fastest])), e_noise))
        if not ok:
            misses.append((key, pick, t_pick, model_ms[pick], fastest, t_fast, model_ms[fastest], gap,
                           max(noise_ms(ms[pick]), noise_ms(ms[fastest])), in_noise))
    noises.sort()
    stat = "median" if TIME == "device_ms" else "minimum"
    print(f"model {model}: the pick runs the fastest method's kernels in {same} of {total} queries, "
          f"within 5% (+5 us) in {near}" + (f" (the sweep's own scan-pick lines: {agree_old})" if picks else "") +
          (f"; {adaptive} near-ties within {100 * margin:.0f}% settled by the measured times" if margin > 0 else ""))
    print(f"  fastest judged by each method's {stat} over the repetitions: strict {same} of {total} (the pick runs "
          f"the fastest method's kernels), within noise {tied} of {total} (its time at most the larger of the two "
          f"methods' noise above the fastest's; noise = median - minimum of a method's repetitions, over the sweep "
          f"median {100 * noises[len(noises) // 2]:.1f}%, worst {100 * noises[-1]:.1f}% of the time)")
    if deviation > 0:
        print(f"  this formula against the sweep's own model_ms: worst deviation {100 * deviation:.1f}%"
              + (" (the sweep ran under this calibration)" if deviation < 0.005 else " (another calibration)"))
    if has_adaptive:
        margins = sorted({j.get("adaptive_margin", 0) for j in picks.values()})
        print(f"the sweep's own picks with the measured refinement (margin {', '.join(f'{100 * m:.0f}%' for m in margins)}): "
              f"the fastest method's kernels in {engine_adaptive}, {engine_measured} settled by measurement; "
              f"strict {engine_adaptive} of {engine_total}, within noise {engine_tied} of {engine_total}")
        for (ds, p, sel), pick, tp, fast, tf, gap, noise, in_noise in engine_misses:
            print(f"  engine miss {ds} {p} predicates at {sel}: picked {pick} {tp:.3f} ms, fastest {fast} {tf:.3f} ms: "
                  f"{1e3 * gap:.1f} us apart, noise {1e3 * noise:.1f} us ({'within' if in_noise else 'beyond'} noise)")
    for (ds, p, sel), pick, tp, mp, fast, tf, mf, gap, noise, in_noise in misses:
        print(f"  miss {ds} {p} predicates at {sel}: picked {pick} {tp:.3f} ms (model {mp:.3f}), "
              f"fastest {fast} {tf:.3f} ms (model {mf:.3f}): {1e3 * gap:.1f} us apart, noise {1e3 * noise:.1f} us "
              f"({'within' if in_noise else 'beyond'} noise)")
    if verbose:
        for key in sorted(by_query):
            w = work_of(scans, *key)
            if not w:
                continue
            cells = " ".join(f"{m} {by_query[key][m]['device_ms']:.3f}/{cost_ns(w, m, model, c, with_rows=False) * 1e-6:.3f}"
                             for m in METHODS if m in by_query[key])
            print(f"  {key[0]} {key[1]} {key[2]}: measured/model {cells}")
    return same, total


def worst_errors(scans, c, model, datasets=None):
    out = {}
    for m in METHODS:
        errs = []
        for (ds, p, sel, mm), j in scans.items():
            if mm != m or (datasets and ds not in datasets):
                continue
            w = work_of(scans, ds, p, sel)
            if not w or w["predicates"] == 0:
                continue
            errs.append(abs(cost_ns(w, m, model, c, with_rows=False) * 1e-6 / j[TIME] - 1))
        if errs:
            out[m] = max(errs)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sweep", help="JSON lines of raydb bench scan with rt-gpu, gpu-scan and gpu-sieve")
    ap.add_argument("--calibration", help="raydb calibration JSON (its rt_scan_gpu member)")
    ap.add_argument("--fit", help="comma-separated datasets of the sweep to fit the constants on")
    ap.add_argument("--fit-from", help="another sweep to fit on (default: the one evaluated): out of sample")
    ap.add_argument("--model", choices=("old", "new"), default="new")
    ap.add_argument("--verbose", action="store_true", help="every query's measured and modelled times")
    ap.add_argument("--time", choices=("median", "min"), default="median",
                    help="each method's time: the median of the repetitions or their minimum (less noise)")
    ap.add_argument("--adaptive-margin", type=float, default=0.0,
                    help="where the runner-up's estimate is within this share of the pick's, keep the faster measured")
    a = ap.parse_args()
    if bool(a.calibration) == bool(a.fit):
        sys.exit("error: give exactly one of --calibration FILE and --fit DATASETS")
    global TIME
    TIME = "device_ms_min" if a.time == "min" else "device_ms"
    scans, picks = load(a.sweep)
    if a.calibration:
        c = load_calibration(a.calibration)
        source = a.calibration
    else:
        fit_sets = set(a.fit.split(","))
        train = load(a.fit_from)[0] if a.fit_from else scans
        keys = sorted({k[:3] for k in train if k[0] in fit_sets and k[2] != "1"})
        if not keys:
            sys.exit(f"error: no queries of {a.fit} in {a.fit_from or a.sweep}")
        c = fit(train, keys, a.model)
        source = f"fit to {a.fit} ({len(keys)} queries of {a.fit_from or 'the sweep'})"
    print(f"constants ({source}): " + ", ".join(f"{k} {v:.6g}" for k, v in sorted(c.items()) if isinstance(v, float)))
    errs = worst_errors(scans, c, a.model)
    print("worst relative error over the sweep: " + ", ".join(f"{m} {100 * e:.0f}%" for m, e in errs.items()))
    if a.adaptive_margin < 0:
        sys.exit("error: --adaptive-margin must be >= 0")
    evaluate(scans, picks, c, a.model, a.verbose, a.adaptive_margin)


if __name__ == "__main__":
    main()
