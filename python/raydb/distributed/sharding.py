"""shard_database(): one raydb database split into n complete shard databases.

The fact table is split by row ranges or by a key column (equal keys land in one
shard); every other table is copied whole into each shard (replicated dimensions).
By rows, the engine slices the stored columns into the shard databases directly (no
SQL or Arrow round trip: large fact tables split at write speed); by a key, each shard
is written with the engine's own SQL (CREATE TABLE with the source's column types and
NOT NULL constraints, then INSERT ... SELECT from the registered rows). Either way the
whole output directory appears at once: it is built under a temporary name beside the
target and renamed when complete, so a failure leaves nothing behind.
"""
import json
import os
import shutil
import tempfile

from raydb import _core
from raydb.distributed.layout import ShardLayout


def _manifest_tables(source):
    """{table name: [(column, type text, nullable)]} from the source's manifest.json."""
    path = os.path.join(source, "manifest.json")
    if not os.path.isfile(path):
        raise _core.IOException(f"{source} is not a raydb database (no manifest.json)")
    with open(path, encoding="utf-8") as f:
        manifest = json.load(f)
    return {t["name"]: [(c["name"], c["type"], bool(c.get("nullable", False))) for c in t["columns"]]
            for t in manifest.get("tables", [])}


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def _create_sql(table, columns):
    cols = ", ".join(f"{_quote(n)} {t}{'' if nullable else ' NOT NULL'}" for n, t, nullable in columns)
    return f"CREATE TABLE {_quote(table)} ({cols})"


def _shard_ids(column, n):
    """Per row, the shard it goes to (a numpy int array)."""
    import numpy as np
    import pyarrow as pa

    # Equal keys -> one shard: distinct keys are dealt round-robin in order of first
    # appearance (NULL keys go to shard 0).
    codes = pa.chunked_array(column).combine_chunks().dictionary_encode().indices
    codes = codes.to_numpy(zero_copy_only=False)
    codes = np.where(np.isnan(codes), 0, codes) if codes.dtype.kind == "f" else codes
    return codes.astype(np.int64) % n


def _write_table(con, table, columns, data):
    con.sql(_create_sql(table, columns))
    if data.num_rows:
        con.register("__raydb_shard_input", data)
        try:
            con.sql(f"INSERT INTO {_quote(table)} SELECT * FROM __raydb_shard_input")
        finally:
            con.unregister("__raydb_shard_input")


def _write_shards(src, tables, fact, by, n, staging):
    """Writes shard_0..shard_{n-1} under staging, the fact table split by column `by`;
    returns the fact rows per shard."""
    import raydb

    shard_cons = [raydb.connect(os.path.join(staging, f"shard_{i}"), backend="cpu") for i in range(n)]
    try:
        for table, columns in tables.items():
            data = src.sql(f"SELECT * FROM {_quote(table)}").arrow()
            if table != fact:
                for con in shard_cons:
                    _write_table(con, table, columns, data)
                continue
            ids = _shard_ids(data.column(by), n)
            fact_rows = []
            for i, con in enumerate(shard_cons):
                part = data.filter(ids == i)
                _write_table(con, table, columns, part)
                fact_rows.append(part.num_rows)
        return fact_rows
    finally:
        for con in shard_cons:
            con.close()


def shard_database(source, out_dir, n, *, fact="lineorder", by="rows"):
    """Splits database `source` into `n` shard databases under the new directory `out_dir`.

    fact: the table to split (the others are copied into every shard); by: "rows"
    (contiguous row ranges) or the name of a fact column (rows with equal values in one
    shard, which lets GROUP BY that column finish on the shards). Returns the
    ShardLayout written to out_dir/shards.json.
    """
    import raydb

    n = int(n)
    if n < 1:
        raise _core.InvalidInputException(f"shard count must be at least 1, got {n}")
    source, out_dir = os.path.abspath(os.fspath(source)), os.path.abspath(os.fspath(out_dir))
    if os.path.exists(out_dir):
        raise _core.IOException(f"{out_dir} already exists (shard_database writes a new directory)")
    tables = _manifest_tables(source)
    fact_name = next((t for t in tables if t.lower() == str(fact).lower()), None)
    if fact_name is None:
        raise _core.CatalogException(f"fact table {fact} not found in {source}")
    if by != "rows":
        column = next((c for c, _, _ in tables[fact_name] if c.lower() == str(by).lower()), None)
        if column is None:
            raise _core.BinderException(f"column {by} not found in fact table {fact_name}")
        by = column
    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix="." + os.path.basename(out_dir) + ".tmp-", dir=parent)
    try:
        if by == "rows":  # contiguous ranges: the engine slices the stored columns directly
            fact_rows = list(_core.split_by_rows(source, fact_name,
                                                 [os.path.join(staging, f"shard_{i}") for i in range(n)]))
        else:
            with raydb.connect(source, backend="cpu") as src:
                fact_rows = _write_shards(src, tables, fact_name, by, n, staging)
        layout = ShardLayout(fact=fact_name, by=by, shards=[f"shard_{i}" for i in range(n)], fact_rows=fact_rows,
                             tables=list(tables))
        layout.write(staging)
        os.rename(staging, out_dir)  # the whole sharded database appears at once
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return ShardLayout.read(out_dir)
