"""Fixtures for the loader tests: the raydb CLI (RAYDB_BINARY) and helpers that read a
table back through `raydb query --format json`."""
import json
import os
import subprocess

RAYDB = os.environ.get("RAYDB_BINARY", "raydb")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: more generated files (CTest ingest_cli_slow, label slow)")


def raydb(*args, check=True):
    p = subprocess.run([RAYDB, *args], capture_output=True, text=True, timeout=120)
    if check and p.returncode != 0:
        raise AssertionError(f"raydb {' '.join(args)} failed ({p.returncode}): {p.stderr}")
    return p


def query(db, sql):
    """Rows of `sql` as lists of JSON values (None for NULL)."""
    out = raydb("query", "--db", db, "--format", "json", sql).stdout
    return [list(r.values()) for r in json.loads(out)]


def printed(stdout):
    """The sniffer's printed choices: {'delimiter': ..., 'header': bool, 'schema': str, 'notes': [...]}."""
    got = {"notes": []}
    for line in stdout.splitlines():
        if line.startswith("delimiter: "):
            d = line.split("'")[1]
            got["delimiter"] = "\t" if d == "\\t" else d
            got["header"] = line.rstrip().endswith("header: yes")
        elif line.startswith("schema: "):
            got["schema"] = line[len("schema: "):]
        elif line.startswith("note: "):
            got["notes"].append(line[len("note: "):])
    return got
