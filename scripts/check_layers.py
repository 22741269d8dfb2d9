#!/usr/bin/env python3
"""raydb's shape, checked: every #include under src/ points down the layers (the table
below is the one place the allowed directions are written), and no function in src/ is
longer than MAX_FUNCTION_LINES. Exit status 1 with one line per violation.

    python3 scripts/check_layers.py [--root DIR] [--max-lines N] [--list-longest K]
"""
import argparse
import os
import re
import sys

# Layer -> the layers its files may include (its own always allowed). A layer is the
# longest matching folder prefix under src/. "raydb" is the public headers
# (include/raydb/): types.h and value.h sit at the bottom with common/, the rest
# (raydb.h, system.h, admin.h, build_config.h) is the API, reachable from api/ and above.
PUBLIC_BOTTOM = {"raydb/types.h", "raydb/value.h", "raydb/build_config.h"}
LAYERS = {
    "common": [],
    "storage": ["common"],
    "gen": ["common", "storage"],
    "gpu": ["common"],
    "rt": ["common", "gpu"],
    "access": ["common", "storage", "gpu", "rt"],
    "plan": ["common", "storage"],
    "exec/core": ["common", "storage", "plan", "access", "rt"],
    "exec/index": ["common", "storage", "plan", "access", "rt", "gpu", "exec/core"],
    "exec/cpu": ["common", "storage", "plan", "access", "rt", "exec/core", "exec/index", "exec"],
    "exec/cuda": ["common", "storage", "plan", "access", "rt", "gpu", "exec/core", "exec/index", "exec"],
    "exec": ["common", "storage", "plan", "access", "rt", "exec/core", "exec/index"],
    "sql": ["common", "storage", "plan"],
    "api": ["common", "storage", "gen", "plan", "sql", "access", "rt", "gpu", "exec", "exec/core",
            "exec/index", "exec/cpu", "exec/cuda", "raydb"],
    "bench": ["common", "storage", "gen", "plan", "sql", "access", "rt", "gpu", "exec", "exec/core",
              "exec/index", "exec/cpu", "exec/cuda", "api", "raydb"],
    "server": ["common", "raydb"],
    "client": ["common", "raydb"],
    "cli": ["common", "bench", "server", "client", "raydb"],
}
# The Python bindings (python/src) sit on the public API alone: include/raydb/ and the
# two common/ headers raydb.h itself exposes.
PYTHON_ALLOWED = {"common/error.h", "common/settings.h"}
MAX_FUNCTION_LINES = 199
SOURCE = re.compile(r".*\.(h|hpp|cpp|cc|cu|cuh)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    """The layer of a path relative to src/ (or of an include target)."""
    best = None
    for name in LAYERS:
        if path == name or path.startswith(name + "/"):
            if best is None or len(name) > len(best):
                best = name
    return best


def check_includes(root, problems):
    src = os.path.join(root, "src")
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not SOURCE.match(f):
                continue
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, src)
            own = layer_of(rel)
            if own is None:
                problems.append(f"src/{rel}: in no layer (add its folder to scripts/check_layers.py)")
                continue
            with open(full, encoding="utf-8", errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if target in PUBLIC_BOTTOM:
                        continue
                    if target.startswith("raydb/"):
                        tl = "raydb"
                    elif "/" not in target:
                        continue  # a generated or same-folder file
                    else:
                        tl = layer_of(target)
                    if tl is None or tl == own or tl in LAYERS[own]:
                        continue
                    problems.append(f"src/{rel}:{n}: {own}/ may not include {target} ({tl}/ is not below it)")


def check_python_includes(root, problems):
    src = os.path.join(root, "python", "src")
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not SOURCE.match(f):
                continue
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, root)
            with open(full, encoding="utf-8", errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if not m or "/" not in m.group(1) or m.group(1).startswith("raydb/"):
                        continue
                    if m.group(1) not in PYTHON_ALLOWED:
                        problems.append(f"{rel}:{n}: the Python bindings may include only the public API, not {m.group(1)}")


CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|else|do|try|return|namespace|class|struct|union|enum|"
                     r"extern|template\s*<[^>]*>\s*(class|struct))\b")
SIGNATURE = re.compile(r"[\w:~>\]]\s*\([^;]*\)\s*[\w\s:&<>,*\->]*$", re.S)


def strip_code(text):
    """Source text with comments, string and character literals blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function_lengths(path):
    """(first line, lines, head) of each function body: a '{' whose head (the text since
    the previous ';', '{' or '}') reads as a signature; bodies nested in a function
    (lambdas, local classes) count towards it."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        code = strip_code(fh.read())
    out = []
    stack = []  # per open brace: True when it opened a function body
    head_start = 0
    line = 1
    in_function = 0
    start_line = 0
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            head = code[head_start:i].strip()
            is_fn = (in_function == 0 and bool(SIGNATURE.search(head)) and not CONTROL.match(head)
                     and not head.rstrip().endswith("=") and "=" not in head.split("(")[0])
            if is_fn:
                in_function = len(stack) + 1
                start_line = line - head.count("\n")
                fn_head = " ".join(head.split())[:80]
            stack.append(is_fn)
            head_start = i + 1
        elif c == "}":
            if stack:
                opened_fn = stack.pop()
                if opened_fn:
                    out.append((start_line, line - start_line + 1, fn_head))
                    in_function = 0
            head_start = i + 1
        elif c == ";":
            head_start = i + 1
    return out


def check_functions(root, limit, problems, longest):
    walked = [w for d in ("src", os.path.join("python", "src")) for w in os.walk(os.path.join(root, d))]
    for dirpath, _, files in walked:
        for f in files:
            if not SOURCE.match(f):
                continue
            full = os.path.join(dirpath, f)
            for line, length, text in function_lengths(full):
                rel = os.path.relpath(full, root)
                longest.append((length, f"{rel}:{line}", text))
                if length > limit:
                    problems.append(f"{rel}:{line}: function of {length} lines (limit {limit}): {text}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--max-lines", type=int, default=MAX_FUNCTION_LINES)
    ap.add_argument("--list-longest", type=int, default=0)
    a = ap.parse_args()
    problems, longest = [], []
    check_includes(a.root, problems)
    check_python_includes(a.root, problems)
    check_functions(a.root, a.max_lines, problems, longest)
    for length, where, text in sorted(longest, reverse=True)[: a.list_longest]:
        print(f"{length:5d}  {where}  {text}")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"layering: {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
