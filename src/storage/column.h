#pragma once
// One stored column: a typed array of `size()` values in a Buffer (heap or mmap),
// a dictionary for VARCHAR, and min/max statistics that the planner and the
// executors use to pick dense lookup arrays, narrow encodings and key packing.
// A column that holds NULLs has a validity bitmap beside its values; a NULL row's
// value slot holds the column's smallest non-NULL value (a placeholder), so the
// statistics and every array-indexing path see only real values.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "storage/buffer.h"
#include "storage/dictionary.h"
#include "storage/lazy_dictionary.h"
#include "storage/narrowed_file.h"
#include "storage/zone_map.h"
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
  // Verified like data() (stored statistics may come from a corrupted manifest),
  // unless they are trusted: recorded at load in a manifest whose own checksum held,
  // so planning reads no column file.
  const ColumnStats& stats() const {
    if (!stats_trusted_) verify();
    return stats_;
  }
  void set_stats_trusted(bool t) { stats_trusted_ = t; }  // set before the column is shared
  // The statistics as recorded, unverified: for listings (raydb describe) only.
  const ColumnStats& recorded_stats() const { return stats_; }
  // A stored column's dictionary is read on the first of these calls (lazy_dictionary.h)
  // and may throw its file's one-line error there.
  const Dictionary* dictionary() const { return dictionary_ptr().get(); }
  const std::shared_ptr<const Dictionary>& dictionary_ptr() const { return lazy_dict_ ? lazy_dict_->get() : dict_; }
  // A dictionary read when first used instead of the one given to the constructor
  // (which must be nullptr). Set before the column is shared.
  void set_lazy_dictionary(std::shared_ptr<const LazyDictionary> d) { lazy_dict_ = std::move(d); }
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
  // The column's narrowed form on disk (narrowed_file.h), or nullptr (a database
  // written before narrowed files, a DOUBLE or empty column). Only set when the
  // manifest's checksum held, so its width, base and checksum are as load wrote them.
  const std::shared_ptr<const NarrowedFile>& narrowed() const { return narrowed_; }
  void set_narrowed(std::shared_ptr<const NarrowedFile> n) { narrowed_ = std::move(n); }  // before sharing
  // Per-block min/max (storage/zone_map.h) for skipping blocks, or nullptr (a heap
  // column, a database written before zone maps). Set before the column is shared,
  // only from a file whose checksum the trusted manifest vouched for.
  const ZoneMapPtr& zone_map() const { return zone_map_; }
  void set_zone_map(ZoneMapPtr z) { zone_map_ = std::move(z); }
  // The value at `row` as a Value (VARCHAR decoded; NULL where the validity says
  // so). For results and tests, not hot loops.
  Value get(uint64_t row) const;

  // Declared nullability: false for NOT NULL columns (the loaders' SSB/TPC-H tables,
  // databases written before nullable columns), true for CREATE TABLE columns
  // without NOT NULL. Set before the column is shared.
  bool nullable() const { return nullable_; }
  void set_nullable(bool n) { nullable_ = n; }
  // NULLs held: a bitmap of size() bits (bit i % 8 of byte i / 8 set = row i holds a
  // value), absent (nullptr, null_count() 0) when the column has no NULL.
  uint64_t null_count() const { return null_count_; }
  bool has_nulls() const { return null_count_ > 0; }
  const std::shared_ptr<Buffer>& validity() const { return validity_; }
  bool is_null(uint64_t row) const {
    return validity_ && !((static_cast<const uint8_t*>(validity_->data())[row >> 3] >> (row & 7)) & 1);
  }
  // Set before the column is shared; `bits` must hold size() bits and `null_count`
  // zero bits among them (nullptr and 0 for none).
  void set_validity(std::shared_ptr<Buffer> bits, uint64_t null_count);
  // An INTEGER column of 1 (NULL) / 0 per row, built once on first use: the binder
  // reads a column with NULLs as CASE WHEN indicator = 1 THEN NULL ELSE value END
  // (the form query results with NULLs take, sql/temp_table.h).
  std::shared_ptr<const Column> null_indicator() const;
  // Stored integer at `row` for integer-physical types, widened to int64.
  int64_t get_int(uint64_t row) const;

 private:
  std::string name_;
  Type type_;
  std::shared_ptr<Buffer> data_;
  uint64_t size_;
  std::shared_ptr<const Dictionary> dict_;
  std::shared_ptr<const LazyDictionary> lazy_dict_;
  ColumnStats stats_;
  Verifier verifier_;
  bool stats_trusted_ = false;
  std::shared_ptr<const NarrowedFile> narrowed_;
  ZoneMapPtr zone_map_;
  bool nullable_ = false;
  std::shared_ptr<Buffer> validity_;
  uint64_t null_count_ = 0;
  mutable std::shared_ptr<const Column> indicator_;  // guarded by verify_mutex_
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

// Number of bytes of a validity bitmap for `rows` rows.
inline uint64_t validity_bytes(uint64_t rows) { return (rows + 7) / 8; }

// Makes a column from stored-form `data` of `size` rows and a validity bitmap
// (nullptr: no NULL): rewrites every NULL slot of `data` (a heap buffer not yet
// shared) to the smallest non-NULL value (0, or code 0, when every row is NULL) and
// computes the statistics, so they describe the non-NULL values. A bitmap without a
// zero bit is dropped.
ColumnPtr make_nullable_column(std::string name, Type type, std::shared_ptr<Buffer> data, uint64_t size,
                               std::shared_ptr<const Dictionary> dict, std::shared_ptr<Buffer> validity,
                               bool nullable);

// Appends values one at a time in their SQL form and builds a Column. VARCHAR
// strings get provisional codes and are remapped to the sorted dictionary on finish.
// NULLs are accepted only by a nullable builder (else a one-line NOT NULL error).
class ColumnBuilder {
 public:
  ColumnBuilder(std::string name, Type type, bool nullable = false);
  const Type& type() const { return type_; }
  const std::string& name() const { return name_; }
  uint64_t size() const { return size_; }
  void reserve(uint64_t n);

  void append_int(int64_t v);  // INTEGER, BIGINT, DATE (days), DECIMAL (scaled); caller checks range
  void append_double(double v);
  void append_string(std::string_view s);  // VARCHAR
  void append_value(const Value& v);       // any storable type, converted exactly or throws
  // A NULL (a placeholder value plus a validity bit); throws "NULL value in column c
  // violates its NOT NULL constraint" (naming `table` when given) unless nullable.
  void append_null(std::string_view table = {});
  bool nullable() const { return nullable_; }

  ColumnPtr finish();

 private:
  std::string name_;
  Type type_;
  bool nullable_ = false;
  uint64_t size_ = 0;
  std::vector<uint8_t> valid_;  // bitmap, allocated at the first NULL
  uint64_t nulls_ = 0;
  std::vector<int32_t> i32_;
  std::vector<int64_t> i64_;
  std::vector<double> f64_;
  DictionaryBuilder dict_builder_;
};

}  // namespace raydb
