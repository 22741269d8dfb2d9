#!/usr/bin/env python3
"""The DuckDB oracle for SQL that SQLite lacks (order statistics, ...): reads a JSON
request on stdin, {"tables": [{"name", "csv", "columns": [[name, type], ...]}],
"queries": [sql, ...]}, loads each CSV (header line first) into DuckDB with the given
column types, runs the queries and prints one JSON list per query: its rows, each a
list of values as text (NULL as null, floats in shortest round-trip form)."""
import json
import sys

import duckdb


def text(v):
    if v is None:
        return None
    if isinstance(v, float):
        return repr(v)
    return str(v)


def main():
    req = json.load(sys.stdin)
    con = duckdb.connect()
    con.execute("SET threads = 2")
    for t in req["tables"]:
        cols = ", ".join(f'"{n}" {ty}' for n, ty in t["columns"])
        con.execute(f'CREATE TABLE "{t["name"]}" ({cols})')
        types = "{" + ", ".join(f"'{n}': '{ty}'" for n, ty in t["columns"]) + "}"
        con.execute(f"INSERT INTO \"{t['name']}\" SELECT * FROM read_csv('{t['csv']}', header=true, columns={types})")
    out = []
    for q in req["queries"]:
        try:
            rows = con.execute(q).fetchall()
            out.append({"rows": [[text(v) for v in r] for r in rows]})
        except duckdb.Error as e:
            out.append({"error": str(e).splitlines()[0]})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
