"""raydb from Python, shaped after DuckDB's Python API.

    import raydb
    con = raydb.connect()                      # a temporary database, removed on close
    con.register("t", pyarrow_table)           # or a pandas / polars DataFrame
    con.sql("select k, sum(v) from t group by k").df()
"""
from raydb._core import (
    BinderException,
    CatalogException,
    ConnectionException,
    Error,
    ExecutionException,
    InternalException,
    InterruptException,
    InvalidInputException,
    IOException,
    LoadException,
    NotImplementedException,
    OutOfMemoryException,
    ParserException,
    __version__,
)
from raydb.connection import Connection, connect
from raydb.generate import generate_ssb
from raydb.result import Result

_default = None


def default_connection():
    """The module's own temporary database (created on first use), as duckdb's default connection."""
    global _default
    if _default is None:
        _default = connect()
    return _default


def sql(query):
    """Runs `query` on the default connection: raydb.sql("select 42").fetchall()."""
    return default_connection().sql(query)


def register(name, data):
    return default_connection().register(name, data)

__all__ = [
    "connect", "generate_ssb", "default_connection", "sql", "register", "Connection", "Result", "Error", "BinderException", "CatalogException", "ConnectionException",
    "ExecutionException", "InternalException", "InterruptException", "InvalidInputException", "IOException", "LoadException",
    "NotImplementedException", "OutOfMemoryException", "ParserException", "__version__",
]
