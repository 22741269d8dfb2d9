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
    InvalidInputException,
    IOException,
    LoadException,
    NotImplementedException,
    OutOfMemoryException,
    ParserException,
    __version__,
)
from raydb.connection import Connection, connect
from raydb.result import Result

__all__ = [
    "connect", "Connection", "Result", "Error", "BinderException", "CatalogException", "ConnectionException",
    "ExecutionException", "InternalException", "InvalidInputException", "IOException", "LoadException",
    "NotImplementedException", "OutOfMemoryException", "ParserException", "__version__",
]
