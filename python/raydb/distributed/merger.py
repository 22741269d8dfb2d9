"""Merger: the coordinator's own in-process raydb connection.

It holds an empty twin of every table (same names, same column types), so the engine
itself says what a statement's result columns are called and typed, and rejects a bad
statement with its usual error before any shard is asked. It finishes each distributed
query: the gathered partials are registered as one table and the merge statement runs
over them, so the same engine computes the final groups, HAVING, ORDER BY and LIMIT.
"""
from raydb import _core
from raydb.distributed.plan import PARTIALS


def _storable(t):
    """The type a partial column is registered as: 128-bit integers (sums of BIGINT, the
    engine's HUGEINT) as int64, so the merge's SUM over them is HUGEINT again; wide
    decimals as DECIMAL(18,s). A partial beyond that is an error, never a rounded value."""
    import pyarrow as pa
    import pyarrow.types as pt

    if pt.is_decimal(t) and t.precision > 18:
        return pa.int64() if t.scale == 0 else pa.decimal128(18, t.scale)
    return t


def storable_partials(table):
    """`table` with its partial columns in the types the merge registers."""
    import pyarrow as pa

    columns = []
    for name, column in zip(table.column_names, table.columns):
        target = _storable(column.type)
        if target != column.type:
            try:
                column = column.cast(target)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                raise _core.ExecutionException(
                    f"a partial result ({name}) does not fit {target}: the coordinator merges sums up to 18 "
                    "digits") from None
        columns.append(column)
    return pa.table(columns, names=table.column_names)


def _empty(schema):
    import pyarrow as pa

    return pa.table({f.name: pa.array([], f.type) for f in schema}, schema=schema)


class Merger:
    def __init__(self, schemas, threads=1):
        import raydb

        # One thread by default: partials are a few rows per group and shard, and a team of
        # threads per merge costs more than the merge (32 ms against 0.1 ms for 600 rows
        # on a busy 2-core machine), all of it on the coordinator every query waits for.
        # No plan cache: each merge registers its partials, which makes cached plans stale.
        self._con = raydb.connect(backend="cpu", threads=threads, plan_cache="off")
        try:
            for table, schema in schemas.items():
                self._con.register(table, _empty(schema))
        except BaseException:
            self._con.close()
            raise

    def describe(self, sql):
        """(column names, SQL type texts, Arrow schema) of `sql`'s result, run over the empty twins."""
        r = self._con.sql(sql)
        return r.columns, r.types, r.arrow().schema

    def partial_schema(self, plan):
        """The Arrow schema of the partials table a plan's shard queries fill."""
        import pyarrow as pa

        fields = {}
        for q in plan.shard_queries:
            _, _, schema = self.describe(q.sql)
            for name, f in zip(q.columns, schema):
                fields.setdefault(name, pa.field(name, _storable(f.type)))
        return pa.schema(list(fields.values()))

    def merge_types(self, plan, names, partial_schema):
        """The result types of the plan's merge over empty partials of `partial_schema`."""
        self._con.register(PARTIALS, _empty(partial_schema))
        try:
            return self.describe(plan.merge_sql(names))[1]
        finally:
            self._con.unregister(PARTIALS)

    def run(self, merge_sql, partials):
        """The merge statement's Result over `partials` (a pyarrow Table)."""
        self._con.register(PARTIALS, storable_partials(partials))
        try:
            return self._con.sql(merge_sql)
        finally:
            self._con.unregister(PARTIALS)

    def close(self):
        self._con.close()
