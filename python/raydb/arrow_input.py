"""Python data (pyarrow, pandas, polars, any Arrow PyCapsule producer) as one Arrow
record batch in the layouts raydb stores: int32, int64, float64, decimal128(p<=18),
date32, timestamp[us], bool and large_utf8. Anything else is an InvalidInputException naming the column."""
from raydb._core import InvalidInputException

STORABLE = "INTEGER, BIGINT, DOUBLE, DECIMAL(p<=18,s), DATE, TIMESTAMP, BOOLEAN, VARCHAR"


def to_arrow_table(data):
    """A pyarrow.Table from a pyarrow Table/RecordBatch, a pandas or polars DataFrame,
    or any object with __arrow_c_stream__ / __arrow_c_array__."""
    import pyarrow as pa

    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    module = type(data).__module__.split(".")[0]
    if module == "pandas":
        return pa.Table.from_pandas(data, preserve_index=False)
    if module == "polars" and hasattr(data, "to_arrow"):
        return data.to_arrow()
    if hasattr(data, "__arrow_c_stream__") or hasattr(data, "__arrow_c_array__"):
        return pa.table(data)
    raise InvalidInputException(
        f"expected a pyarrow Table, a pandas or polars DataFrame, or an Arrow stream, got {type(data).__name__}")


def _target_type(name, t):
    """The Arrow type a column of type t is cast to before the engine copies it."""
    import pyarrow as pa
    import pyarrow.types as pt

    if pt.is_dictionary(t):
        return _target_type(name, t.value_type)
    if pt.is_int8(t) or pt.is_int16(t) or pt.is_int32(t) or pt.is_uint8(t) or pt.is_uint16(t):
        return pa.int32()
    if pt.is_int64(t) or pt.is_uint32(t) or pt.is_uint64(t):
        return pa.int64()  # uint64 values past 2^63 fail the (safe) cast with a message
    if pt.is_floating(t):
        return pa.float64()
    if pt.is_decimal(t):
        # Wider declared precision is fine when the values fit 18 digits (a safe cast checks).
        return pa.decimal128(min(t.precision, 18), t.scale) if 0 <= t.scale <= 18 else None
    if pt.is_date(t):
        return pa.date32()
    if pt.is_boolean(t):
        return pa.bool_()
    if pt.is_timestamp(t):
        # TIMESTAMP is microseconds: coarser units are multiplied (overflow is an error),
        # nanoseconds must be whole microseconds (a safe cast refuses to drop digits). A
        # zoned column keeps its UTC instants (the zone is dropped).
        return pa.timestamp("us", tz=t.tz)
    if pt.is_string(t) or pt.is_large_string(t) or getattr(pt, "is_string_view", lambda _: False)(t):
        return pa.large_string()
    return None


def to_record_batch(data):
    """One pyarrow.RecordBatch of storable layouts; raises InvalidInputException."""
    import pyarrow as pa

    table = to_arrow_table(data)
    arrays = []
    for name, column in zip(table.column_names, table.columns):
        target = _target_type(name, column.type)
        if target is None:
            raise InvalidInputException(f"column {name}: Arrow type {column.type} cannot be stored ({STORABLE})")
        try:
            column = column.cast(target) if column.type != target else column
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            raise InvalidInputException(f"column {name}: cannot convert {column.type} to {target}: "
                                        f"{str(e).splitlines()[0]}") from None
        if column.num_chunks == 1:
            arrays.append(column.chunk(0))
        else:  # one buffer per column for the engine's copy (also for no chunks at all)
            arrays.append(pa.concat_arrays(column.chunks) if column.num_chunks else pa.array([], target))
    if not arrays:
        raise InvalidInputException("a table needs at least one column")
    return pa.RecordBatch.from_arrays(arrays, names=[str(n) for n in table.column_names])
