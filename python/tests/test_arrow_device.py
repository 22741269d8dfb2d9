"""Results through the Arrow C Device Data Interface (__arrow_c_device_array__,
__arrow_c_device_stream__) on the CPU: imported by pyarrow, equal to .arrow() and to
DuckDB on the same data. The CUDA export is tested in tests/gpu (C++), on a GPU."""
import ctypes
import datetime
import decimal

import pytest

import raydb
from raydb import _core
from conftest import duckdb_arrow

pa = pytest.importorskip("pyarrow")

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_valid.restype = ctypes.c_int
_capsule_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]


class DeviceArrayStream(ctypes.Structure):
    """struct ArrowDeviceArrayStream, as the C Device Data Interface defines it."""


DeviceArrayStream._fields_ = [
    ("device_type", ctypes.c_int32),
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(DeviceArrayStream), ctypes.c_void_p)),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(DeviceArrayStream), ctypes.c_void_p)),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(DeviceArrayStream))),
    ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p),
]

SCHEMA_BYTES = 72          # sizeof(struct ArrowSchema) on 64-bit systems
DEVICE_ARRAY_BYTES = 128   # sizeof(struct ArrowDeviceArray): the specification's 128 bytes


def import_device(result):
    schema, array = result.__arrow_c_device_array__()
    assert _capsule_valid(schema, b"arrow_schema") and _capsule_valid(array, b"arrow_device_array")
    return pa.RecordBatch._import_from_c_device_capsule(schema, array)


QUERIES = [
    "select id, region, qty, price, ratio, day, qty * 2 as q2, price * 3 as p3 from sales where id < 500 order by id",
    "select id, case when id % 3 = 0 then qty end as q, case when id % 4 = 0 then region end as r, "
    "case when id % 5 = 0 then price end as p, case when id % 2 = 0 then day end as d "
    "from sales where id < 100 order by id",
    "select region, sum(qty) as s, count(*) as n, sum(price) as p from sales group by region order by region",
    "select id, region from sales where id < 0",
]


@pytest.mark.parametrize("sql", QUERIES)
def test_device_array_round_trip_equals_arrow_and_duckdb(sales_con, sales_duckdb, sql):
    r = sales_con.sql(sql)
    assert r.device == "cpu"
    batch = import_device(r)
    assert batch.device_type == pa.DeviceAllocationType.CPU
    assert batch.is_cpu
    assert pa.Table.from_batches([batch]).equals(r.arrow())
    want = duckdb_arrow(sales_duckdb, sql)
    got = batch.to_pylist()
    assert len(got) == want.num_rows
    for g, w in zip(got, want.to_pylist()):
        assert list(g.values()) == [int(v) if isinstance(v, decimal.Decimal) and isinstance(x, int) else v
                                    for v, x in zip(w.values(), g.values())]


def test_pyarrow_constructors_take_the_device_protocol(sales_con):
    r = sales_con.sql("select id, region, price from sales where id < 50 order by id")
    assert pa.record_batch(r).equals(r.arrow().to_batches()[0])  # pyarrow asks __arrow_c_device_array__ first
    assert pa.table(r).equals(r.arrow())


def test_every_type_and_nulls_round_trip(con):
    data = pa.table({
        "i": pa.array([1, None, -3], pa.int32()),
        "l": pa.array([2**40, 5, None], pa.int64()),
        "g": pa.array([0.5, None, -0.0], pa.float64()),
        "d": pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("-0.01")], pa.decimal128(9, 2)),
        "day": pa.array([datetime.date(1970, 1, 1), datetime.date(1, 1, 1), None], pa.date32()),
        "s": pa.array(["a", None, "Zürich"], pa.string()),
        "b": pa.array([True, False, None], pa.bool_()),
        "ts": pa.array([datetime.datetime(1969, 12, 31, 23, 59, 59, 999999), None, datetime.datetime(2024, 2, 29)],
                       pa.timestamp("us")),
    })
    con.register("t", data)
    r = con.sql("select i, l, g, d, day, s, b, ts, null as z, sum(l) over () as w from t order by i")
    batch = import_device(r)
    assert pa.Table.from_batches([batch]).equals(r.arrow())
    assert [f.type for f in batch.schema] == [pa.int32(), pa.int64(), pa.float64(), pa.decimal128(9, 2), pa.date32(),
                                              pa.string(), pa.bool_(), pa.timestamp("us"), pa.int32(),  # a bare NULL types as INTEGER
                                              pa.decimal128(38, 0)]
    assert batch.to_pylist() == [dict(zip(batch.schema.names, row)) for row in r.fetchall()]
    assert batch.column("s").null_count == 1 and batch.column("z").null_count == 3


def test_device_stream_gives_one_batch(sales_con):
    r = sales_con.sql("select id, region, price from sales where id < 20 order by id desc")
    capsule = r.__arrow_c_device_stream__()
    assert _capsule_valid(capsule, b"arrow_device_array_stream")
    stream = ctypes.cast(_capsule_pointer(capsule, b"arrow_device_array_stream"),
                         ctypes.POINTER(DeviceArrayStream)).contents
    assert stream.device_type == 1  # ARROW_DEVICE_CPU
    schema_buf = ctypes.create_string_buffer(SCHEMA_BYTES)
    assert stream.get_schema(ctypes.byref(stream), ctypes.addressof(schema_buf)) == 0
    schema = pa.Schema._import_from_c(ctypes.addressof(schema_buf))
    batches = []
    while True:
        array_buf = ctypes.create_string_buffer(DEVICE_ARRAY_BYTES)
        assert stream.get_next(ctypes.byref(stream), ctypes.addressof(array_buf)) == 0
        release = ctypes.c_void_p.from_buffer(array_buf, 64).value  # ArrowArray.release
        device_type = ctypes.c_int32.from_buffer(array_buf, 88).value
        assert device_type == 1
        if not release:
            break
        batches.append(pa.RecordBatch._import_from_c_device(ctypes.addressof(array_buf), schema))
    assert len(batches) == 1
    del capsule  # releases the stream; the imported batch stays valid
    assert pa.Table.from_batches(batches).equals(r.arrow())


def test_protocol_keywords(sales_con):
    r = sales_con.sql("select id from sales where id < 3 order by id")
    assert pa.RecordBatch._import_from_c_device_capsule(*r.__arrow_c_device_array__(None, future_keyword=None)).num_rows == 3
    with pytest.raises(NotImplementedError, match="future_keyword"):
        r.__arrow_c_device_array__(future_keyword=1)
    with pytest.raises(NotImplementedError):
        r.__arrow_c_device_stream__(future_keyword="x")


def test_device_errors(sales_con):
    with pytest.raises(raydb.InvalidInputException, match=r"^device must be 'cpu' or 'cuda', not 'tpu'$"):
        sales_con.sql("select 1", device="tpu")
    why = _core.arrow_device_unavailable("cuda")
    if not why:
        pytest.skip("a CUDA device is present (tests/gpu covers the CUDA export)")
    assert why.startswith("no CUDA device: ")
    with pytest.raises(raydb.InvalidInputException) as e:
        sales_con.sql("select 1", device="cuda")
    assert str(e.value) == f"device='cuda': {why}"
