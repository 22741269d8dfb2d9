"""A query result: DB-API style fetches, and Arrow, pandas and polars conversions."""


def _check_protocol_kwargs(kwargs):
    # The PyCapsule protocol reserves keywords for later versions: None means "not asked".
    for name, value in kwargs.items():
        if value is not None:
            raise NotImplementedError(f"keyword {name}={value!r} is not supported")


class Result:
    """Rows of one statement, fully materialized by the engine.

    fetchone/fetchmany/fetchall move a cursor as DB-API cursors do; arrow(), df() and
    pl() always convert the whole result. arrow() goes through the Arrow C Data
    Interface (BIGINT, DOUBLE and 128-bit values are shared with the engine's result,
    not copied).
    """

    def __init__(self, native, device="cpu"):
        self._native = native
        self._device = device
        self._pos = 0

    @property
    def device(self):
        """Where the Arrow C Device Data Interface exports this result: "cpu" or "cuda"."""
        return self._device

    @property
    def columns(self):
        return list(self._native.column_names)

    @property
    def types(self):
        """Column types as SQL writes them (INTEGER, DECIMAL(15,2), VARCHAR, ...)."""
        return list(self._native.column_types)

    @property
    def description(self):
        return [(n, t, None, None, None, None, None) for n, t in zip(self.columns, self.types)]

    @property
    def backend(self):
        """The backend that ran the statement (cpu, cuda, catalog, ...)."""
        return self._native.backend

    @property
    def elapsed_ms(self):
        return self._native.elapsed_ms

    @property
    def plan_cached(self):
        """Whether the statement ran from the plan cache (a SELECT run before with the same
        text, the catalog unchanged since; setting plan_cache)."""
        return self._native.plan_cached

    def __len__(self):
        return self._native.row_count

    def fetchone(self):
        rows = self.fetchmany(1)
        return rows[0] if rows else None

    def fetchmany(self, size=1):
        end = min(self._pos + max(int(size), 0), self._native.row_count)
        rows = self._native.rows(self._pos, end)
        self._pos = end
        return rows

    def fetchall(self):
        return self.fetchmany(self._native.row_count - self._pos)

    def __arrow_c_array__(self, requested_schema=None):
        """The whole result as one record batch (Arrow PyCapsule interface)."""
        return self._native.__arrow_c_array__(requested_schema)

    def __arrow_c_stream__(self, requested_schema=None):
        return self.arrow().__arrow_c_stream__(requested_schema)

    def __arrow_c_device_array__(self, requested_schema=None, **kwargs):
        """The whole result as one record batch through the Arrow C Device Data Interface:
        (schema capsule, "arrow_device_array" capsule) on this result's device. On "cuda"
        the buffers are device memory of CUDA device 0 that the array owns (freed when the
        consumer releases it), with a cudaEvent_t* as sync_event."""
        _check_protocol_kwargs(kwargs)
        return self._native.device_array(self._device)

    def __arrow_c_device_stream__(self, requested_schema=None, **kwargs):
        """An "arrow_device_array_stream" capsule of one batch, as __arrow_c_device_array__."""
        _check_protocol_kwargs(kwargs)
        return self._native.device_stream(self._device)

    def arrow(self):
        """A pyarrow.Table."""
        import pyarrow as pa

        batch = pa.record_batch(self._native)
        return pa.Table.from_batches([batch])

    def fetch_arrow_table(self):
        return self.arrow()

    def df(self):
        """A pandas.DataFrame (through Arrow); DATE columns as datetime64, as DuckDB's df() gives them."""
        return self.arrow().to_pandas(date_as_object=False)

    def fetchdf(self):
        return self.df()

    def pl(self):
        """A polars.DataFrame (through Arrow)."""
        import polars as pl

        return pl.from_arrow(self.arrow())

    def write_parquet(self, path, **options):
        """Writes the result to a Parquet file with pyarrow (options go to pyarrow.parquet.write_table)."""
        import pyarrow.parquet as pq

        pq.write_table(self.arrow(), path, **options)

    def __repr__(self):
        head = self._native.rows(0, min(10, self._native.row_count))
        more = "" if self._native.row_count <= 10 else f"\n... {self._native.row_count} rows"
        return f"raydb.Result columns={self.columns}\n" + "\n".join(map(repr, head)) + more
