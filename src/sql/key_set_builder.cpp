#include "sql/key_set_builder.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "sql/column_words.h"

namespace raydb::sql {

namespace {

thread_local double build_ms = 0;

// A set built from a buffer, valid while that buffer lives: buffers of stored and kept
// columns are immutable once shared, so the same buffer, row count and type give the
// same words.
struct CachedSet {
  std::weak_ptr<Buffer> buffer;
  uint64_t rows = 0;
  Type type;
  plan::KeySetPtr set;
};
constexpr size_t kCached = 4;
thread_local std::array<CachedSet, kCached> cached;
thread_local size_t next_slot = 0;

plan::KeySetPtr build(const TempTable& t) {
  const Type type = t.type(0);
  const Column& col = t.table->column(0);
  if (!plan::KeySet::holds(type) || col.type().id != type.id || col.has_nulls()) return nullptr;
  const Column* flag = t.nullable(0) ? &t.table->column(size_t(t.null_flag[0])) : nullptr;
  bool has_null = false;
  FillVector<int64_t> words;
  read_column_words(col, t.rows(), words);
  if (flag) {  // rows the indicator flags NULL (1) left out
    std::vector<int64_t> flags;
    read_column_words(*flag, t.rows(), flags);
    size_t kept = 0;
    for (size_t r = 0; r < words.size(); r++) {
      words[kept] = words[r];
      kept += flags[r] == 0;
    }
    has_null = kept < words.size();
    words.resize(kept);
  }
  return plan::KeySet::make(type, std::move(words), has_null);
}

}  // namespace

plan::KeySetPtr key_set_of_column(const TempTable& t) {
  const auto t0 = std::chrono::steady_clock::now();
  struct AddTime {
    std::chrono::steady_clock::time_point t0;
    ~AddTime() { build_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); }
  } add_time{t0};
  if (t.columns() == 0) return nullptr;
  const Column& col = t.table->column(0);
  const std::shared_ptr<Buffer>& buffer = col.buffer();
  // Only sets without an indicator column are cached: the indicator is another buffer.
  const bool cacheable = buffer && !t.nullable(0);
  if (cacheable)
    for (const CachedSet& c : cached)
      if (c.set && c.rows == t.rows() && c.type == t.type(0) && c.buffer.lock() == buffer) return c.set;
  plan::KeySetPtr set = build(t);
  if (set && cacheable) {
    cached[next_slot] = CachedSet{buffer, t.rows(), t.type(0), set};
    next_slot = (next_slot + 1) % kCached;
  }
  return set;
}

KeySetScope::~KeySetScope() {
  for (CachedSet& c : cached) c = CachedSet{};
}

double key_set_build_ms() { return build_ms; }

}  // namespace raydb::sql
