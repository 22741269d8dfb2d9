"""raydb.connect() and the Connection, after DuckDB's Python API."""
import os
import shutil
import tempfile
import weakref

from raydb import _core
from raydb.arrow_input import to_record_batch
from raydb.result import Result

_MEMORY = (None, "", ":memory:")


def connect(database=":memory:", *, backend="auto", threads=0, config=None, **settings):
    """Opens (or creates) the database directory `database`.

    ":memory:" (the default) makes a temporary database directory that close() removes.
    backend: auto, cpu, cuda or rt; threads: 0 for all cores; config and further keyword
    arguments are settings as SET takes them (index_paths="off", gpu_memory_limit="8G").
    """
    return Connection(database, backend=backend, threads=threads, config=config, **settings)


def _setting_text(value):
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


class Connection:
    def __init__(self, database=":memory:", *, backend="auto", threads=0, config=None, **settings):
        self._temp = None
        self._cursors = weakref.WeakSet()
        if database in _MEMORY:
            # Tables live in files (mmap); a temporary directory is the in-memory form.
            self._temp = tempfile.mkdtemp(prefix="raydb-")
            database = self._temp
        self._result = None
        try:
            self._native = _core.NativeConnection(os.fspath(database), True)
            self.configure(backend=backend, threads=threads, config=config, **settings)
        except BaseException:
            self._remove_temp()
            raise

    def cursor(self):
        """Another connection to the same database, as DuckDB's cursor(): its own session
        (settings start as this connection's), sharing the database's caches. Statements
        of different cursors run at the same time from different threads; one connection
        runs one statement at a time. Closing this connection closes its cursors."""
        c = Connection.__new__(Connection)
        c._temp, c._result, c._cursors = None, None, weakref.WeakSet()
        c._native = self._connected().cursor()
        c._parent = self  # the parent owns a temporary database's directory: kept while cursors live
        self._cursors.add(c)
        return c

    def configure(self, *, backend="auto", threads=0, config=None, **settings):
        """Sets the backend, threads and settings of this connection (all or nothing)."""
        merged = dict(config or {})
        merged.update(settings)
        pairs = [(str(k), _setting_text(v)) for k, v in merged.items()]
        self._connected().configure(str(backend), int(threads), pairs)
        return self

    @property
    def path(self):
        return self._connected().path

    def sql(self, query, *, device="cpu"):
        """Runs one statement and returns its Result. device="cuda" makes the result's
        Arrow C Device Data Interface export (__arrow_c_device_array__,
        __arrow_c_device_stream__) hand out CUDA device memory; it needs a CUDA device."""
        native = self._connected()
        why = _core.arrow_device_unavailable(str(device))
        if why:
            raise _core.InvalidInputException(f"device='{device}': {why}")
        # On CUDA the engine also keeps the final columns on the device where its executor
        # has them there, so the export need not copy the host result back.
        return Result(native.query(str(query), device == "cuda"), str(device))

    query = sql

    def execute(self, query, parameters=None):
        """Runs one statement; fetch its rows from this connection (as DuckDB's execute)."""
        if parameters:
            raise _core.NotImplementedException("prepared statement parameters are not supported yet")
        self._result = self.sql(query)
        return self

    def _last(self):
        if self._result is None:
            raise _core.InvalidInputException("no statement has been executed")
        return self._result

    def fetchone(self):
        return self._last().fetchone()

    def fetchmany(self, size=1):
        return self._last().fetchmany(size)

    def fetchall(self):
        return self._last().fetchall()

    def arrow(self):
        return self._last().arrow()

    fetch_arrow_table = arrow

    def df(self):
        return self._last().df()

    fetchdf = df

    def pl(self):
        return self._last().pl()

    @property
    def description(self):
        return self._last().description

    def register(self, name, data):
        """Makes `data` (pyarrow Table/RecordBatch, pandas or polars DataFrame) queryable as
        table `name` on this connection. The values are copied into an in-memory table
        (nothing is written to the database directory); registering a name again replaces
        it."""
        self._connected().register_arrow(str(name), to_record_batch(data).__arrow_c_array__())
        return self

    def unregister(self, name):
        if not self._connected().unregister(str(name)):
            raise _core.CatalogException(f"no registered table {name}")
        return self

    def create_table(self, name, data, *, replace=False):
        """Writes `data` (as register takes it) into the database as table `name`, atomically."""
        return self._connected().create_table_arrow(str(name), to_record_batch(data).__arrow_c_array__(), bool(replace))

    def load_parquet(self, table, path, *, replace=False, columns=None):
        """Loads Parquet file(s) into table `table` (read with pyarrow; a list of paths or a
        directory makes one table). Returns the row count."""
        import pyarrow.parquet as pq

        try:
            data = pq.read_table(path, columns=columns)
        except (OSError, ValueError) as e:  # ArrowInvalid is a ValueError
            raise _core.IOException(f"cannot read Parquet {path}: {str(e).splitlines()[0]}") from None
        return self.create_table(table, data, replace=replace)

    def load_csv(self, table, path, *, schema, header=False, delimiter=",", replace=False):
        """Loads CSV file(s) (a path or a list of paths) into table `table` with the engine's
        CSV loader, as `raydb load csv` does: schema "name TYPE, ..." (required: no sniffing
        yet), exact decimals and dates, one-line errors naming file and line. Returns the
        row count."""
        paths = [os.fspath(p) for p in path] if isinstance(path, (list, tuple)) else [os.fspath(path)]
        return self._connected().load_csv(str(table), str(schema), paths, bool(header), str(delimiter), bool(replace))

    def tables(self):
        """Names of the tables stored in the database directory."""
        return list(self._connected().stored_tables())

    def close(self):
        for c in list(getattr(self, "_cursors", ())):
            c.close()
        if self._native is not None:
            self._native.close()
        self._result = None
        self._remove_temp()

    def _remove_temp(self):
        if self._temp is not None:
            shutil.rmtree(self._temp, ignore_errors=True)
            self._temp = None

    def _connected(self):
        native = getattr(self, "_native", None)
        if native is None:
            raise _core.ConnectionException("connection is closed")
        return native

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
