"""Planner: one SELECT over the sharded database as per-shard queries plus a merge.

Shapes (DistributedPlan.kind):
- "one shard": the fact table is not read; every shard holds the whole answer, one runs it.
- "rows": no aggregates: each shard runs the query (with its ORDER BY and LIMIT+OFFSET,
  plus the ORDER BY expressions as hidden columns); the merge orders, limits, DISTINCTs.
- "key-local": grouped by the sharding key, so every group lives in one shard: each
  shard runs the whole aggregate query, the merge only orders and limits.
- "aggregate": partial aggregates per shard and group (AggregateSplit), the merge groups
  them again and applies HAVING, ORDER BY, LIMIT.
Anything else (the fact table twice, in a subquery or CTE, outer joins that keep
replicated rows, windows, UNION) is a NotDistributableError: never a wrong answer.
"""
import sqlglot
from sqlglot import exp

from raydb.distributed.aggregate_split import AggregateSplit, is_aggregate
from raydb.distributed.dialect import parse, to_sql
from raydb.distributed.errors import not_distributable
from raydb.distributed.plan import DistributedPlan, ShardQuery, tail
from raydb.distributed.scope import QueryScope


def _unalias(item):
    return item.this if isinstance(item, exp.Alias) else item


def _has_aggregate(node):
    return any(is_aggregate(n) for n in node.walk(prune=lambda n: isinstance(n, (exp.Subquery, exp.Select))
                                                  and n is not node))


def _int_literal(node):
    return int(node.name) if isinstance(node, exp.Literal) and node.is_int else None


def _quantile_list(node):
    """The list of q in quantile_*(x, [q, ...]) or percentile_*([q, ...]) WITHIN GROUP, else None."""
    inner = node.this if isinstance(node, exp.WithinGroup) else node
    q = inner.this if isinstance(node, exp.WithinGroup) else inner.args.get("expression", inner.args.get("quantile"))
    return q if isinstance(inner, (exp.Quantile, exp.PercentileCont, exp.PercentileDisc)) and \
        isinstance(q, exp.Array) else None


def _expand_quantile_lists(items):
    """A list of quantiles as a whole select item is one column per quantile (named name_1, ...):
    one item per quantile, so the merge keeps one expression per result column."""
    out = []
    for item in items:
        node = _unalias(item)
        qs = _quantile_list(node)
        if qs is None:
            out.append(item)
            continue
        for q in qs.expressions:
            one = node.copy()
            _quantile_list(one).replace(q.copy())
            out.append(one)
    return out


class Planner:
    def __init__(self, layout, schemas):
        self.layout = layout
        self.schemas = schemas

    def plan(self, sql, output_count):
        """The plan of `sql`, whose result has `output_count` columns (the engine said so)."""
        tree = self._parse(sql)
        scope = QueryScope(tree, self.schemas, self.layout.fact)
        refs = scope.fact_references()
        if not refs:
            return DistributedPlan("one shard", [ShardQuery(sql, [f"__c{i}" for i in range(output_count)])],
                                   [exp.column(f"__c{i}") for i in range(output_count)])
        self._check_shape(tree, scope, len(refs))
        keys = self._group_keys(tree, scope)
        aggregated = bool(keys) or any(_has_aggregate(n) for n in self._final_expressions(tree))
        if not aggregated:
            return self._row_plan(tree, scope, output_count, "rows")
        if self.layout.key and any(isinstance(k, exp.Column) and scope.is_fact_column(k, self.layout.key)
                                   for k in keys):
            return self._row_plan(tree, scope, output_count, "key-local")
        return self._aggregate_plan(tree, scope, keys)

    # -- shape checks ------------------------------------------------------------------

    @staticmethod
    def _parse(sql):
        try:
            statements = parse(sql)
        except sqlglot.errors.SqlglotError as e:
            raise not_distributable(f"the coordinator's SQL parser rejects it ({str(e).splitlines()[0]})") from None
        if len(statements) != 1:
            raise not_distributable("one statement at a time")
        if not isinstance(statements[0], exp.Select):
            raise not_distributable(f"only SELECT statements are split ({statements[0].key.upper()} is not)")
        return statements[0]

    def _check_shape(self, tree, scope, references):
        fact = self.layout.fact
        if tree.args.get("with"):
            raise not_distributable("WITH (common table expressions) over the sharded table")
        if references > 1:
            raise not_distributable(f"the sharded table {fact} is read {references} times (a join of sharded "
                                    "tables, or a subquery over it): each shard holds only part of its rows")
        if scope.fact_position() is None:
            raise not_distributable(f"the sharded table {fact} is read inside a subquery or derived table")
        scope.check_fact_joins()
        if tree.find(exp.Window):
            raise not_distributable("window functions over the sharded table")
        group = tree.args.get("group")
        if group is not None and any(group.args.get(k) for k in ("grouping_sets", "cube", "rollup")):
            raise not_distributable("GROUPING SETS, CUBE and ROLLUP")
        for k in ("limit", "offset"):
            node = tree.args.get(k)
            if node is not None and _int_literal(node.expression) is None:
                raise not_distributable(f"{k.upper()} that is not an integer constant")

    @staticmethod
    def _final_expressions(tree):
        out = list(tree.expressions)
        for k in ("having", "order"):
            if tree.args.get(k) is not None:
                out.append(tree.args[k])
        return out

    def _group_keys(self, tree, scope):
        group = tree.args.get("group")
        if group is None:
            return []
        items = tree.expressions
        if group.args.get("all"):
            return [_unalias(i) for i in items if not _has_aggregate(i)]
        aliases = {i.alias.lower(): i.this for i in items if isinstance(i, exp.Alias)}
        keys = []
        for g in group.expressions:
            pos = _int_literal(g)
            if pos is not None and 1 <= pos <= len(items):
                keys.append(_unalias(items[pos - 1]))
            elif isinstance(g, exp.Column) and not g.table and g.name.lower() in aliases and \
                    not scope.is_source_column(g.name):
                keys.append(aliases[g.name.lower()])
            else:
                keys.append(g)
        return keys

    # -- plans -------------------------------------------------------------------------

    @staticmethod
    def _limits(tree):
        limit, offset = tree.args.get("limit"), tree.args.get("offset")
        return (_int_literal(limit.expression) if limit is not None else None,
                _int_literal(offset.expression) if offset is not None else 0)

    def _merge_tail(self, tree, order, group=None, having=None):
        select = tail()
        if tree.args.get("distinct"):
            select.set("distinct", exp.Distinct())
        if group:
            select.set("group", exp.Group(expressions=group))
        if having is not None:
            select.set("having", exp.Having(this=having))
        if order:
            select.set("order", exp.Order(expressions=order))
        limit, offset = self._limits(tree)
        if limit is not None:
            select = select.limit(limit)
        if offset:
            select = select.offset(offset)
        return select

    def _row_plan(self, tree, scope, output_count, kind):
        """Each shard runs the query itself; the merge concatenates, orders and limits."""
        items = tree.expressions
        hidden, merge_order = [], []
        order = tree.args.get("order")
        for o in (order.expressions if order is not None else []):
            column = self._output_column(o.this, items, scope, output_count)
            if column is None:
                if tree.args.get("distinct"):
                    raise not_distributable("ORDER BY of a SELECT DISTINCT names an expression outside its select list")
                column = len(hidden)
                hidden.append(o.this)
                ref = f"__o{column}"
            else:
                ref = f"__c{column}"
            merge_order.append(exp.Ordered(this=exp.column(ref), desc=o.args.get("desc"),
                                           nulls_first=o.args.get("nulls_first")))
        shard = tree.copy()
        shard.set("expressions", [i.copy() for i in items] +
                  [exp.alias_(h.copy(), f"__o{j}") for j, h in enumerate(hidden)])
        limit, offset = self._limits(tree)
        shard.set("offset", None)
        shard.set("limit", None)
        if limit is not None:  # the first limit+offset rows of the whole come from the shards' first ones
            shard = shard.limit(limit + offset)
        columns = [f"__c{i}" for i in range(output_count)] + [f"__o{j}" for j in range(len(hidden))]
        return DistributedPlan(kind, [ShardQuery(to_sql(shard), columns)],
                               [exp.column(f"__c{i}") for i in range(output_count)],
                               self._merge_tail(tree, merge_order))

    @staticmethod
    def _output_column(node, items, scope, output_count):
        """The result column an ORDER BY item names (ordinal, alias or equal expression), or None."""
        pos = _int_literal(node)
        if pos is not None:
            return pos - 1 if 1 <= pos <= output_count else None
        stars = [i for i, item in enumerate(items) if isinstance(item, exp.Star) or
                 (isinstance(item, exp.Column) and isinstance(item.this, exp.Star))]
        if len(stars) > 1:
            return None
        star_width = output_count - (len(items) - 1) if stars else 1

        def column_of(i):
            return i + (star_width - 1 if stars and i > stars[0] else 0)

        if isinstance(node, exp.Column) and not node.table:
            for i, item in enumerate(items):
                if isinstance(item, exp.Alias) and item.alias.lower() == node.name.lower():
                    return column_of(i)
        key = scope.canonical(node)
        for i, item in enumerate(items):
            if i not in stars and scope.canonical(_unalias(item)) == key:
                return column_of(i)
        return None

    def _aggregate_plan(self, tree, scope, keys):
        items = _expand_quantile_lists(tree.expressions)
        if any(isinstance(i, exp.Star) or (isinstance(i, exp.Column) and isinstance(i.this, exp.Star))
               for i in items):
            raise not_distributable("SELECT * in an aggregate query")
        split = AggregateSplit(scope, keys)
        merged = []
        for item in items:
            merged.append(split.merge(_unalias(item)))
            if isinstance(item, exp.Alias):
                split.aliases[item.alias.lower()] = merged[-1]
        having = split.merge(tree.args["having"].this) if tree.args.get("having") is not None else None
        order = []
        for o in (tree.args["order"].expressions if tree.args.get("order") is not None else []):
            node = o.this
            pos = self._alias_position(node, items, scope)
            target = exp.Literal.number(pos) if pos else (node.copy() if _int_literal(node) else split.merge(node))
            order.append(exp.Ordered(this=target, desc=o.args.get("desc"), nulls_first=o.args.get("nulls_first")))
        group = [exp.column(f"__g{i}") for i in range(len(keys))]
        return DistributedPlan("aggregate", self._aggregate_shard_queries(tree, keys, split), merged,
                               self._merge_tail(tree, order, group, having), split.order_stat_values)

    @staticmethod
    def _alias_position(node, items, scope):
        """ORDER BY an output alias -> its 1-based position (an alias wins over a column, as in SQL)."""
        if isinstance(node, exp.Column) and not node.table:
            for i, item in enumerate(items):
                if isinstance(item, exp.Alias) and item.alias.lower() == node.name.lower():
                    return i + 1
        return None

    @staticmethod
    def _aggregate_shard_queries(tree, keys, split):
        base = tree.copy()
        for k in ("group", "having", "order", "limit", "offset", "distinct"):
            base.set(k, None)
        key_items = [exp.alias_(k.copy(), f"__g{i}") for i, k in enumerate(keys)]
        key_names = [f"__g{i}" for i in range(len(keys))]

        def query(extra, names, group_width):
            q = base.copy()
            q.set("expressions", [i.copy() for i in key_items] + extra)
            if group_width:  # by position: a key may be any expression
                q.set("group", exp.Group(expressions=[exp.Literal.number(i + 1) for i in range(group_width)]))
            return ShardQuery(to_sql(q), key_names + names)

        out = []
        if split.partials or not split.values:
            out.append(query([exp.alias_(p.copy(), f"__a{i}") for i, p in enumerate(split.partials)],
                             [f"__a{i}" for i in range(len(split.partials))], len(keys)))
        raw = [i for i, (_, distinct_only) in enumerate(split.values) if not distinct_only]
        if raw:  # every value, in one scan
            out.append(query([exp.alias_(split.values[i][0].copy(), f"__v{i}") for i in raw],
                             [f"__v{i}" for i in raw], 0))
        for i, (value, distinct_only) in enumerate(split.values):
            if distinct_only:  # the distinct (group, value) pairs of each shard
                out.append(query([exp.alias_(value.copy(), f"__v{i}")], [f"__v{i}"], len(keys) + 1))
        return out
