#include "native_result.h"

#include <nanobind/stl/string.h>

#include "raydb/arrow_export.h"

namespace nb = nanobind;

namespace raydb::python {

namespace {

struct PyTypes {
  nb::object decimal, date, datetime, timedelta;
};

nb::object decimal_value(const PyTypes& t, const QueryResult::ColumnData& c, size_t row) {
  const __int128 scaled = c.huge.empty() ? __int128(c.ints[row]) : c.huge[row];
  return t.decimal(format_decimal(scaled, c.type.scale));
}

nb::object date_value(const PyTypes& t, int64_t days) {
  int y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(int32_t(days), y, m, d);
  if (y < 1 || y > 9999)  // datetime.date's range
    throw Error(ErrorKind::kInvalidInput, "date " + format_date(int32_t(days)) + " is outside Python's datetime.date range");
  return t.date(y, m, d);
}

nb::object cell(const PyTypes& t, const QueryResult::ColumnData& c, size_t row) {
  if (c.type.id == TypeId::kNull || (!c.nulls.empty() && c.nulls[row])) return nb::none();
  switch (c.type.id) {
    case TypeId::kBoolean: return nb::bool_(c.ints[row] != 0);
    case TypeId::kInteger:
    case TypeId::kBigint: return nb::int_(c.ints[row]);
    case TypeId::kHugeint: {
      const std::string text = format_int128(c.huge[row]);
      return nb::steal(PyLong_FromString(text.c_str(), nullptr, 10));
    }
    case TypeId::kDouble: return nb::float_(c.doubles[row]);
    case TypeId::kDecimal: return decimal_value(t, c, row);
    case TypeId::kDate: return date_value(t, c.ints[row]);
    case TypeId::kTimestamp: {  // datetime(1970, 1, 1) + timedelta(microseconds=...), exact
      const int64_t days = timestamp_days(c.ints[row]);
      const int64_t us = c.ints[row] - days * kMicrosPerDay;
      return t.datetime(1970, 1, 1) + t.timedelta(nb::arg("days") = days, nb::arg("microseconds") = us);
    }
    case TypeId::kVarchar: {
      const std::string& s = c.strings[row];
      return nb::steal(PyUnicode_DecodeUTF8(s.data(), Py_ssize_t(s.size()), "replace"));
    }
    case TypeId::kNull: break;
  }
  return nb::none();
}

void free_schema(PyObject* capsule) {
  auto* s = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, "arrow_schema"));
  if (s && s->release) s->release(s);
  delete s;
}

void free_array(PyObject* capsule) {
  auto* a = static_cast<ArrowArray*>(PyCapsule_GetPointer(capsule, "arrow_array"));
  if (a && a->release) a->release(a);
  delete a;
}

void free_device_array(PyObject* capsule) {
  auto* a = static_cast<ArrowDeviceArray*>(PyCapsule_GetPointer(capsule, "arrow_device_array"));
  if (a && a->array.release) a->array.release(&a->array);
  delete a;
}

void free_device_stream(PyObject* capsule) {
  auto* s = static_cast<ArrowDeviceArrayStream*>(PyCapsule_GetPointer(capsule, "arrow_device_array_stream"));
  if (s && s->release) s->release(s);
  delete s;
}

}  // namespace

ArrowDeviceType device_type(const std::string& device) {
  if (device == "cpu") return ARROW_DEVICE_CPU;
  if (device == "cuda") return ARROW_DEVICE_CUDA;
  throw Error(ErrorKind::kInvalidInput, "device must be 'cpu' or 'cuda', not '" + device + "'");
}

std::vector<std::string> NativeResult::column_names() const {
  std::vector<std::string> out;
  for (size_t c = 0; c < result_->column_count(); c++) out.push_back(result_->column_name(c));
  return out;
}

std::vector<std::string> NativeResult::column_types() const {
  std::vector<std::string> out;
  for (size_t c = 0; c < result_->column_count(); c++) out.push_back(result_->column_type(c).to_string());
  return out;
}

nb::list NativeResult::rows(size_t begin, size_t end) const {
  nb::module_ dt = nb::module_::import_("datetime");
  PyTypes t{nb::module_::import_("decimal").attr("Decimal"), dt.attr("date"), dt.attr("datetime"), dt.attr("timedelta")};
  end = std::min(end, result_->row_count());
  nb::list out;
  const auto& cols = result_->columns();
  for (size_t r = begin; r < end; r++) {
    nb::list values;
    for (const auto& c : cols) values.append(cell(t, c, r));
    out.append(nb::tuple(values));
  }
  return out;
}

nb::tuple NativeResult::arrow_c_array() const {
  auto* schema = new ArrowSchema{};
  auto* array = new ArrowArray{};
  // Capsules first, so an exception below still frees both through their destructors.
  nb::object sc = nb::steal(PyCapsule_New(schema, "arrow_schema", free_schema));
  nb::object ac = nb::steal(PyCapsule_New(array, "arrow_array", free_array));
  if (!sc.is_valid() || !ac.is_valid()) throw nb::python_error();
  export_arrow(result_, schema, array);
  return nb::make_tuple(sc, ac);
}

nb::tuple NativeResult::device_array(const std::string& device) const {
  const ArrowDeviceType type = device_type(device);
  auto* schema = new ArrowSchema{};
  auto* array = new ArrowDeviceArray{};
  nb::object sc = nb::steal(PyCapsule_New(schema, "arrow_schema", free_schema));
  nb::object ac = nb::steal(PyCapsule_New(array, "arrow_device_array", free_device_array));
  if (!sc.is_valid() || !ac.is_valid()) throw nb::python_error();
  {
    nb::gil_scoped_release release;  // a CUDA export copies the result to the device
    export_arrow_device(result_, type, schema, array);
  }
  return nb::make_tuple(sc, ac);
}

nb::object NativeResult::device_stream(const std::string& device) const {
  const ArrowDeviceType type = device_type(device);
  auto* stream = new ArrowDeviceArrayStream{};
  nb::object capsule = nb::steal(PyCapsule_New(stream, "arrow_device_array_stream", free_device_stream));
  if (!capsule.is_valid()) throw nb::python_error();
  {
    nb::gil_scoped_release release;
    export_arrow_device_stream(result_, type, stream);
  }
  return capsule;
}

}  // namespace raydb::python
