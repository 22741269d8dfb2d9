#!/usr/bin/env python3
"""Names the stacks RAYDB_SAMPLE wrote (src/common/wall_sampler.h) and prints where the
sampled thread spent its wall time: functions by self and by inclusive share, and the
heaviest call paths, each frame named from the binary's symbol table (nm).

  scripts/sample_report.py FILE --binary build/raydb [--module raydb] [--top 40] [--folded OUT]

--folded writes one "frame;frame;... count" line per distinct stack (flame-graph input).
Frames in other modules (libcuda, libc, libgomp) are named by their module."""
import argparse
import bisect
import collections
import os
import subprocess
import sys


def symbols(binary):
    out = subprocess.run(["nm", "-C", "--defined-only", "-n", binary], capture_output=True, text=True, check=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) < 3 or parts[1] not in "tTwW":
            continue
        addrs.append(int(parts[0], 16))
        names.append(parts[2])
    return addrs, names


def short(name, width=110):
    # Drop argument lists' template noise so paths stay readable.
    return name if len(name) <= width else name[: width - 3] + "..."


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--binary", required=True)
    ap.add_argument("--module", help="the binary's file name where it ran (default: --binary's)")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--folded")
    ap.add_argument("--under", action="append", default=[],
                    help="also: what the samples inside functions matching this text spend their time in, "
                         "by the frame right below it and by self (repeatable)")
    a = ap.parse_args()
    addrs, names = symbols(a.binary)
    base = a.module or os.path.basename(a.binary)
    modules, stacks = {}, []
    with open(a.file) as f:
        for line in f:
            if line.startswith("M "):
                _, idx, path = line.rstrip("\n").split(" ", 2)
                modules[idx] = path
            elif line.startswith("S"):
                stacks.append(line.split()[1:])
    cache = {}

    def name(frame):
        if frame in cache:
            return cache[frame]
        idx, off = frame.split(":")
        mod = modules.get(idx, "?")
        if os.path.basename(mod) == base:
            i = bisect.bisect_right(addrs, int(off, 16)) - 1
            n = names[i] if i >= 0 else "?"
        else:
            n = "[" + os.path.basename(mod) + "]"
        cache[frame] = n
        return n

    total = len(stacks)
    if not total:
        sys.exit("no samples")
    self_c, incl_c, paths = collections.Counter(), collections.Counter(), collections.Counter()
    for st in stacks:
        named = [name(fr) for fr in st]
        # Collapse consecutive frames of one external module ([libcuda.so.1] x 12).
        col = [n for i, n in enumerate(named) if i == 0 or n != named[i - 1]]
        if col:
            self_c[col[0]] += 1
        for n in set(col):
            incl_c[n] += 1
        paths[";".join(reversed(col))] += 1
    print(f"{total} samples")
    print("\n== self ==")
    for n, c in self_c.most_common(a.top):
        print(f"{100.0 * c / total:6.2f}%  {short(n)}")
    print("\n== inclusive ==")
    for n, c in incl_c.most_common(a.top):
        print(f"{100.0 * c / total:6.2f}%  {short(n)}")
    for pat in a.under:
        below, leaf, hits = collections.Counter(), collections.Counter(), 0
        for p, c in paths.items():
            fr = p.split(";")
            idx = [i for i, n in enumerate(fr) if pat in n]
            if not idx:
                continue
            i = idx[-1]  # the innermost match
            hits += c
            below[fr[i + 1] if i + 1 < len(fr) else "(self)"] += c
            leaf[fr[-1]] += c
        print(f"\n== under '{pat}': {100.0 * hits / total:.2f}% of samples; by callee ==")
        for n, c in below.most_common(a.top):
            print(f"{100.0 * c / total:6.2f}%  {short(n)}")
        print(f"-- by leaf --")
        for n, c in leaf.most_common(12):
            print(f"{100.0 * c / total:6.2f}%  {short(n)}")
    if a.folded:
        with open(a.folded, "w") as f:
            for p, c in paths.most_common():
                f.write(f"{p} {c}\n")


if __name__ == "__main__":
    main()
