#pragma once
// A finished result's columns that a GPU backend left in device memory in Arrow's
// layout, beside the host copy every result has (QueryOptions::keep_result_on_device).
// The Arrow device export (api/arrow_device_export.cpp) hands these buffers out instead
// of copying the host result to the device. Declared in raydb.h, defined here: the API
// only passes it along.
#include <cstdint>
#include <vector>

namespace raydb {

struct DeviceResultColumns {
  struct Column {
    const void* values = nullptr;    // the Arrow values buffer of the column's format
    const void* validity = nullptr;  // bit i set: row i holds a value (built for every column)
  };
  virtual ~DeviceResultColumns() = default;  // the owner frees the device memory
  std::vector<Column> columns;  // one per result column, in order
  int64_t rows = 0;
  int device_id = 0;
  void* sync_event = nullptr;  // a cudaEvent_t* recorded after the buffers were written
};

}  // namespace raydb
