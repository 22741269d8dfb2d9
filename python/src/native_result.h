#pragma once
// A materialized query result as the Python package sees it: rows as tuples of Python
// values, and the whole result as an Arrow record batch (PyCapsules of the C Data
// Interface and the C Device Data Interface: the `__arrow_c_array__`,
// `__arrow_c_device_array__` and `__arrow_c_device_stream__` protocols).
#include <memory>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>

#include "raydb/arrow_abi.h"
#include "raydb/raydb.h"

namespace raydb::python {

// "cpu" -> ARROW_DEVICE_CPU, "cuda" -> ARROW_DEVICE_CUDA; kInvalidInput otherwise.
ArrowDeviceType device_type(const std::string& device);

class NativeResult {
 public:
  explicit NativeResult(QueryResult result) : result_(std::make_shared<const QueryResult>(std::move(result))) {}

  size_t row_count() const { return result_->row_count(); }
  std::vector<std::string> column_names() const;
  std::vector<std::string> column_types() const;  // as SQL writes them: INTEGER, DECIMAL(15,2), ...
  const std::string& backend() const { return result_->backend; }
  double elapsed_ms() const { return result_->elapsed_ms; }
  bool plan_cached() const { return result_->plan_cached; }

  // Rows [begin, end) as tuples: int, float, decimal.Decimal, datetime.date, str,
  // bool, None for NULL.
  nanobind::list rows(size_t begin, size_t end) const;
  // (schema capsule "arrow_schema", array capsule "arrow_array") of a struct array.
  nanobind::tuple arrow_c_array() const;
  // (schema capsule, capsule "arrow_device_array") on `device`: "cpu" or "cuda".
  nanobind::tuple device_array(const std::string& device) const;
  // A capsule "arrow_device_array_stream" of one batch on `device`.
  nanobind::object device_stream(const std::string& device) const;

 private:
  std::shared_ptr<const QueryResult> result_;
};

}  // namespace raydb::python
