"""QueryScope: the top-level FROM of one SELECT as the planner needs it: which tables
(and aliases) it reads, where the fact table sits among its joins, and a canonical text
per expression so equal expressions written differently (d_year, date.d_year) match."""
from sqlglot import exp

from raydb.distributed.dialect import to_sql
from raydb.distributed.errors import not_distributable


def _name(identifier_node):
    return identifier_node.name.lower() if identifier_node is not None else ""


class QueryScope:
    def __init__(self, select, schemas, fact):
        self.select = select
        self.fact = fact.lower()
        self._columns = {t.lower(): {c.lower() for c in schema.names} for t, schema in schemas.items()}
        self.sources = []          # (alias, table or None for a derived table, join kind or "")
        from_ = select.args.get("from_") or select.args.get("from")
        if from_ is not None:
            self._add_source(from_.this, "")
        for join in select.args.get("joins") or []:
            kind = " ".join(p for p in (join.side, join.kind) if p).upper()
            self._add_source(join.this, kind or "INNER")

    def _add_source(self, node, kind):
        if isinstance(node, exp.Table) and not node.args.get("db"):
            self.sources.append(((node.alias_or_name).lower(), node.name.lower(), kind))
        else:
            self.sources.append((node.alias_or_name.lower(), None, kind))

    # -- the fact table ----------------------------------------------------------------

    def fact_references(self):
        """Every Table node in the whole statement that names the fact table."""
        return [t for t in self.select.find_all(exp.Table) if t.name.lower() == self.fact and not t.args.get("db")]

    def fact_position(self):
        """Index of the fact table among the top-level sources, or None."""
        for i, (_, table, _) in enumerate(self.sources):
            if table == self.fact:
                return i
        return None

    def check_fact_joins(self):
        """Each shard holds a part of the fact table and all of every other table, so a join
        may not keep the other side's unmatched rows: those would come back from every shard."""
        p = self.fact_position()  # joins among replicated tables before it may be of any kind
        for k, (alias, _, kind) in enumerate(self.sources[1:], start=1):
            preserves_right = "RIGHT" in kind or "FULL" in kind
            preserves_left = "LEFT" in kind or "FULL" in kind
            if (p < k and preserves_right) or (p == k and preserves_left):
                raise not_distributable(f"{kind} JOIN keeps unmatched rows of a replicated table ({alias}), "
                                        "which every shard would return")

    # -- columns and expressions ---------------------------------------------------------

    def column_table(self, column):
        """The source alias a column belongs to ("" when unknown or ambiguous)."""
        if column.table:
            return column.table.lower()
        owners = [alias for alias, table, _ in self.sources
                  if table is not None and column.name.lower() in self._columns.get(table, ())]
        return owners[0] if len(owners) == 1 else ""

    def is_source_column(self, name):
        name = name.lower()
        return any(table is not None and name in self._columns.get(table, ()) for _, table, _ in self.sources)

    def is_fact_column(self, column, name):
        alias = self.column_table(column)
        return column.name.lower() == name.lower() and any(
            a == alias and t == self.fact for a, t, _ in self.sources)

    def canonical(self, node):
        """A text equal for equal expressions: columns qualified by their source, names lower-cased."""
        def qualify(n):
            if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star):
                return exp.column(n.name.lower(), table=self.column_table(n) or None)
            return n

        return to_sql(node.copy().transform(qualify))
