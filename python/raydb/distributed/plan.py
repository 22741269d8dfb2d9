"""DistributedPlan: the per-shard queries of one statement and the merge that finishes it."""
from dataclasses import dataclass, field

from sqlglot import exp

from raydb.distributed.dialect import Raydb, to_sql

PARTIALS = "__raydb_partials"


@dataclass
class ShardQuery:
    sql: str
    columns: list      # the names its result columns get, by position, in the partials table


@dataclass
class DistributedPlan:
    kind: str                          # "one shard", "rows", "key-local", "aggregate"
    shard_queries: list                # [ShardQuery], each run on every shard (one shard for "one shard")
    merge_items: list                  # one expression over the partials per output column
    merge_tail: exp.Select = field(default=None)   # FROM partials with GROUP BY/HAVING/ORDER BY/LIMIT/DISTINCT
    order_stat_values: set = field(default_factory=set)  # gathered value columns order statistics select from

    @property
    def one_shard(self):
        return self.kind == "one shard"

    def merge_sql(self, names, casts=None):
        """The merge statement, its columns named `names` and cast where `casts[i]` is a type."""
        casts = casts or [None] * len(names)
        items = []
        for item, name, cast in zip(self.merge_items, names, casts):
            node = exp.Cast(this=item.copy(), to=exp.DataType.build(cast, dialect=Raydb)) if cast else item.copy()
            items.append(exp.alias_(node, exp.to_identifier(name, quoted=True)))
        select = (self.merge_tail or tail()).copy()
        select.set("expressions", items)
        return to_sql(select)


def tail():
    return exp.select().from_(PARTIALS)
