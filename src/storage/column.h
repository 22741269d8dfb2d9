#pragma once
// One stored column: a typed array of `size()` values in a Buffer (heap or mmap),
// a dictionary for VARCHAR, and min/max statistics that the planner and the
// executors use to pick dense lookup arrays, narrow encodings and key packing.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "storage/buffer.h"
#include "storage/dictionary.h"
#include "raydb/types.h"
#include "raydb/value.h"

namespace raydb {

struct ColumnStats {
  // For integer-physical types (INTEGER, BIGINT, DECIMAL, DATE, VARCHAR codes):
  // exact min/max of the stored integers. For DOUBLE: min_d/max_d. Empty column:
  // min > max.
  int64_t min = 1, max = 0;
  double min_d = 1, max_d = 0;
};

class Column {
 public:
  Column(std::string name, Type type, std::shared_ptr<Buffer> data, uint64_t size,
         std::shared_ptr<const Dictionary> dict, ColumnStats stats);

  const std::string& name() const { return name_; }
  const Type& type() const { return type_; }
  uint64_t size() const { return size_; }
  // Verified like data() (stored statistics may come from a corrupted manifest).
  const ColumnStats& stats() const {
    verify();
    return stats_;
  }
  // The statistics as recorded, unverified: for listings (raydb describe) only.
  const ColumnStats& recorded_stats() const { return stats_; }
  const Dictionary* dictionary() const { return dict_.get(); }
  const std::shared_ptr<const Dictionary>& dictionary_ptr() const { return dict_; }
  const std::shared_ptr<Buffer>& buffer() const { return data_; }

  template <typename T>
  const T* data() const {
    verify();
    return static_cast<const T*>(data_->data());
  }
  // Runs the verifier (below) now if it has not passed yet; throws its error. Query
  // paths call it on the calling thread before executors or worker threads read the
  // column (plan::verify_columns_read), so data() finds it done.
  void verify() const {
    if (verifier_ && !verified_.load(std::memory_order_acquire)) run_verifier();
  }
  // A check of the stored values, run once on the first data() call and throwing a
  // one-line error if they are corrupt (e.g. that every dictionary code of a mapped file
  // names an entry). Opening a table maps its columns without reading them, so a query
  // pays only for the columns it reads. Set before the column is shared.
  using Verifier = std::function<void(const void* data, uint64_t size)>;
  void set_verifier(Verifier v) { verifier_ = std::move(v); }
  // The value at `row` as a Value (VARCHAR decoded). For results and tests, not hot loops.
  Value get(uint64_t row) const;
  // Stored integer at `row` for integer-physical types, widened to int64.
  int64_t get_int(uint64_t row) const;

 private:
  std::string name_;
  Type type_;
  std::shared_ptr<Buffer> data_;
  uint64_t size_;
  std::shared_ptr<const Dictionary> dict_;
  ColumnStats stats_;
  Verifier verifier_;
  mutable std::atomic<bool> verified_{false};
  mutable std::mutex verify_mutex_;
  // Runs verifier_ once (again after a failure: it throws again). Not std::call_once:
  // a throwing callable can leave libstdc++'s once_flag stuck (GCC PR 66146).
  void run_verifier() const;
};

using ColumnPtr = std::shared_ptr<const Column>;

// Computes min/max of a stored array (parallel).
ColumnStats compute_stats(const Type& type, const void* data, uint64_t size);

// Makes a heap column from values already in stored form (ints for INTEGER/DATE,
// codes for VARCHAR with `dict`, scaled int64 for DECIMAL, ...). Computes stats.
template <typename T>
ColumnPtr make_column(std::string name, Type type, const std::vector<T>& values,
                      std::shared_ptr<const Dictionary> dict = nullptr);

// Appends values one at a time in their SQL form and builds a Column. VARCHAR
// strings get provisional codes and are remapped to the sorted dictionary on finish.
class ColumnBuilder {
 public:
  ColumnBuilder(std::string name, Type type);
  const Type& type() const { return type_; }
  const std::string& name() const { return name_; }
  uint64_t size() const { return size_; }
  void reserve(uint64_t n);

  void append_int(int64_t v);  // INTEGER, BIGINT, DATE (days), DECIMAL (scaled); caller checks range
  void append_double(double v);
  void append_string(std::string_view s);  // VARCHAR
  void append_value(const Value& v);       // any storable type, converted exactly or throws

  ColumnPtr finish();

 private:
  std::string name_;
  Type type_;
  uint64_t size_ = 0;
  std::vector<int32_t> i32_;
  std::vector<int64_t> i64_;
  std::vector<double> f64_;
  DictionaryBuilder dict_builder_;
};

}  // namespace raydb
