"""AggregateSplit: an aggregate query's aggregates as per-shard partials and the merge
expressions that finish them over the gathered partials.

Decomposable aggregates travel as partial states: SUM, MIN, MAX per shard and group,
COUNT as a count summed at the merge, AVG as SUM and COUNT. The others gather what they
need: DISTINCT aggregates the distinct (group, value) pairs of each shard, order
statistics (median, quantile_*, percentile_* WITHIN GROUP, kth_*) every value of their
argument per group; the merge runs the same aggregate over the gathered values, so its
answer is exact. Group keys travel as __g<i>, partial states as __a<i>, gathered values
as __v<i>.
"""
from sqlglot import exp

from raydb.distributed.dialect import Raydb
from raydb.distributed.errors import not_distributable

KTH = ("kth_smallest", "kth_largest")
ORDER_STATS = (exp.Median, exp.Quantile, exp.PercentileCont, exp.PercentileDisc)


def is_aggregate(node):
    return isinstance(node, (exp.AggFunc, exp.WithinGroup)) or (
        isinstance(node, exp.Anonymous) and node.name.lower() in KTH)


def _sum(node):
    return exp.Sum(this=node)


def _cast(node, type_text):
    return exp.Cast(this=node, to=exp.DataType.build(type_text, dialect=Raydb))


class AggregateSplit:
    def __init__(self, scope, group_keys):
        self.scope = scope
        self.keys = list(group_keys)
        self._key_index = {scope.canonical(k): i for i, k in enumerate(self.keys)}
        self.partials = []          # shard-side aggregate expressions, as __a<i>
        self._partial_index = {}
        self.values = []            # [argument expression, distinct_only], as __v<i>
        self._value_index = {}
        self.aliases = {}           # select alias (lower) -> its merge expression, for HAVING
        self.order_stat_values = set()  # the __v<i> that order statistics select from

    # -- what the shards compute ---------------------------------------------------------

    def _partial(self, node):
        key = self.scope.canonical(node)
        if key not in self._partial_index:
            self._partial_index[key] = len(self.partials)
            self.partials.append(node)
        return exp.column(f"__a{self._partial_index[key]}")

    def _value(self, arg, distinct_only):
        if arg.find(exp.Subquery, exp.Select):
            raise not_distributable("a subquery inside an aggregate")
        key = self.scope.canonical(arg)
        if key not in self._value_index:
            self._value_index[key] = len(self.values)
            self.values.append([arg, distinct_only])
        entry = self.values[self._value_index[key]]
        entry[1] = entry[1] and distinct_only  # every value also serves the DISTINCT ones
        return exp.column(f"__v{self._value_index[key]}")

    # -- the merge -------------------------------------------------------------------------

    def merge(self, node):
        """`node` (a select item, HAVING or ORDER BY expression) over the partials."""
        def visit(n):
            if isinstance(n, (exp.Subquery, exp.Select)):
                raise not_distributable("a subquery in the select list, HAVING or ORDER BY of an aggregate query")
            i = self._key_index.get(self.scope.canonical(n)) if not isinstance(n, exp.Literal) else None
            if i is not None:
                return exp.column(f"__g{i}")
            if is_aggregate(n):
                return self._merge_aggregate(n)
            if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star):
                alias = self.aliases.get(n.name.lower())
                if alias is not None and not n.table:
                    return alias.copy()
                raise not_distributable(f"column {n.sql()} is neither a GROUP BY key nor inside an aggregate "
                                        "(write it as the GROUP BY item is written)")
            return n

        return node.copy().transform(visit)

    def _merge_aggregate(self, n):
        distinct = isinstance(n.this, exp.Distinct)
        if isinstance(n, (exp.Min, exp.Max)):
            arg = n.this.expressions[0] if distinct else n.this
            return type(n)(this=self._partial(type(n)(this=arg.copy())))
        if isinstance(n, (exp.Count, exp.Sum, exp.Avg)) and distinct:
            if len(n.this.expressions) != 1:
                raise not_distributable(f"{n.sql()} has more than one argument")
            out = n.copy()
            out.set("this", exp.Distinct(expressions=[self._value(n.this.expressions[0], True)]))
            return out
        if isinstance(n, exp.Count):
            return _cast(_sum(self._partial(n.copy())), "BIGINT")
        if isinstance(n, exp.Sum):
            return _sum(self._partial(n.copy()))
        if isinstance(n, exp.Avg):
            # The exact sum over the count, as the engine's AVG divides them.
            s = _sum(self._partial(exp.Sum(this=n.this.copy())))
            c = _sum(self._partial(exp.Count(this=n.this.copy())))
            # A group without values has a zero count (and a NULL sum): NULL, never a division by zero.
            nonzero = exp.Case(ifs=[exp.If(this=exp.EQ(this=c, expression=exp.Literal.number(0)), true=exp.Null())],
                               default=_cast(c.copy(), "DOUBLE"))
            return exp.Div(this=_cast(s, "DOUBLE"), expression=nonzero)
        return self._merge_order_stat(n)

    def _merge_order_stat(self, n):
        if isinstance(n, ORDER_STATS):
            distinct = isinstance(n.this, exp.Distinct)
            arg = n.this.expressions[0] if distinct else n.this
            v = self._value(arg, distinct)
            self.order_stat_values.add(v.name)
            out = n.copy()
            out.set("this", exp.Distinct(expressions=[v]) if distinct else v)
            return out
        if isinstance(n, exp.WithinGroup) and isinstance(n.expression, exp.Order) and \
                len(n.expression.expressions) == 1:
            out = n.copy()
            ordered = out.expression.expressions[0]
            ordered.set("this", self._value(ordered.this, False))
            self.order_stat_values.add(ordered.this.name)
            return out
        if isinstance(n, exp.Anonymous) and n.name.lower() in KTH:
            return self._merge_kth(n)
        raise not_distributable(f"aggregate {n.sql()} cannot be split across shards")

    def _merge_kth(self, n):
        args = list(n.expressions)
        distinct = bool(args) and isinstance(args[0], exp.Distinct)
        if distinct:
            args = list(args[0].expressions) + args[1:]
        if len(args) != 2:
            raise not_distributable(f"{n.sql()} needs two arguments")
        v, k = self._value(args[0], distinct), self.merge(args[1])
        self.order_stat_values.add(v.name)
        first = exp.Distinct(expressions=[v, k]) if distinct else v
        return exp.Anonymous(this=n.name, expressions=[first] if distinct else [first, k])
