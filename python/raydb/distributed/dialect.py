"""raydb's SQL as sqlglot reads and writes it: DuckDB's dialect (raydb's functions,
order statistics and literals follow DuckDB) with PostgreSQL's NULL ordering (raydb
sorts NULLs last ascending and first descending) and the order-statistic forms written
back as raydb spells them."""
import sqlglot
from sqlglot import exp
from sqlglot.dialects.duckdb import DuckDB


class Raydb(DuckDB):
    NULL_ORDERING = "nulls_are_large"

    class Generator(DuckDB.Generator):
        TRANSFORMS = {k: v for k, v in DuckDB.Generator.TRANSFORMS.items()
                      if k not in (exp.PercentileCont, exp.PercentileDisc)}

        def withingroup_sql(self, expression):
            # percentile_disc(q) WITHIN GROUP (ORDER BY x), kept as written (DuckDB's
            # generator folds it into QUANTILE_DISC(x, q ORDER BY x)).
            return f"{self.sql(expression, 'this')} WITHIN GROUP ({self.sql(expression, 'expression').strip()})"

        def percentilecont_sql(self, expression):
            return self._percentile("PERCENTILE_CONT", "QUANTILE_CONT", expression)

        def percentiledisc_sql(self, expression):
            return self._percentile("PERCENTILE_DISC", "QUANTILE_DISC", expression)

        def _percentile(self, within_name, name, expression):
            if isinstance(expression.parent, exp.WithinGroup):  # the q of percentile_*(q) WITHIN GROUP
                return f"{within_name}({self.sql(expression, 'this')})"
            return self.func(name, expression.this, expression.expression)

        def anonymous_sql(self, expression):
            # kth_smallest(DISTINCT x, k): DuckDB's generator turns a DISTINCT over two
            # arguments into a row value; raydb takes DISTINCT before the first argument.
            args = expression.expressions
            if args and isinstance(args[0], exp.Distinct) and len(args[0].expressions) > 1:
                inner = ", ".join(self.sql(a) for a in args[0].expressions)
                rest = "".join(", " + self.sql(a) for a in args[1:])
                return f"{self.sql(expression, 'this')}(DISTINCT {inner}{rest})"
            return super().anonymous_sql(expression)


def parse(sql):
    """The statements of `sql` as sqlglot trees (raises sqlglot.errors.ParseError)."""
    return [s for s in sqlglot.parse(sql, read=Raydb) if s is not None]


def to_sql(node):
    return node.sql(dialect=Raydb)
