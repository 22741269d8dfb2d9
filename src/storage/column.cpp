#include "storage/column.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "common/error.h"
#include "common/stage_times.h"

namespace raydb {

void Column::run_verifier() const {
  std::lock_guard<std::mutex> lock(verify_mutex_);
  if (verified_.load(std::memory_order_relaxed)) return;
  // The first read of a mapped file: its page faults and checksum (raydb query --timing).
  StageScope stage(Stage::kReadVerify);
  if (data_->is_mapped()) StageTimes::instance().add_bytes(ByteCount::kColumnFileRead, data_->size());
  verifier_(data_->data(), size_);
  verified_.store(true, std::memory_order_release);
}

Column::Column(std::string name, Type type, std::shared_ptr<Buffer> data, uint64_t size,
               std::shared_ptr<const Dictionary> dict, ColumnStats stats)
    : name_(std::move(name)), type_(type), data_(std::move(data)), size_(size), dict_(std::move(dict)),
      stats_(stats) {}

int64_t Column::get_int(uint64_t row) const {
  if (type_.physical_width() == 4) return data<int32_t>()[row];
  return data<int64_t>()[row];
}

Value Column::get(uint64_t row) const {
  if (is_null(row)) return Value::null(type_);
  switch (type_.id) {
    case TypeId::kInteger: return Value::integer(data<int32_t>()[row]);
    case TypeId::kBigint: return Value::bigint(data<int64_t>()[row]);
    case TypeId::kDouble: return Value::float64(data<double>()[row]);
    case TypeId::kDecimal: return Value::decimal(data<int64_t>()[row], type_.precision, type_.scale);
    case TypeId::kDate: return Value::date(data<int32_t>()[row]);
    case TypeId::kBoolean: return Value::boolean(data<int32_t>()[row] != 0);
    case TypeId::kTimestamp: return Value::timestamp(data<int64_t>()[row]);
    case TypeId::kVarchar: return Value::varchar(std::string(dictionary()->at(uint32_t(data<int32_t>()[row]))));
    default: fail(ErrorKind::kInternal, "column {} has unstorable type {}", name_, type_.to_string());
  }
}

void Column::set_validity(std::shared_ptr<Buffer> bits, uint64_t null_count) {
  if (null_count == 0) bits = nullptr;
  if (bits && bits->size() < validity_bytes(size_))
    fail(ErrorKind::kInternal, "column {}: validity bitmap of {} bytes for {} rows", name_, bits->size(), size_);
  validity_ = std::move(bits);
  null_count_ = validity_ ? null_count : 0;
}

std::shared_ptr<const Column> Column::null_indicator() const {
  std::lock_guard<std::mutex> lock(verify_mutex_);
  if (indicator_ || !validity_) return indicator_;
  std::vector<int32_t> flags(size_);
  const auto* bits = static_cast<const uint8_t*>(validity_->data());
  const int64_t n = int64_t(size_);
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t i = 0; i < n; i++) flags[size_t(i)] = ((bits[i >> 3] >> (i & 7)) & 1) ? 0 : 1;
  indicator_ = make_column<int32_t>("\x01null_" + name_, Type::integer(), flags);
  return indicator_;
}

namespace {
template <typename T>
void minmax(const T* v, uint64_t n, T& lo, T& hi) {
  T mn = std::numeric_limits<T>::max(), mx = std::numeric_limits<T>::lowest();
#pragma omp parallel for reduction(min : mn) reduction(max : mx) schedule(static) if (n > (1u << 16))
  for (uint64_t i = 0; i < n; i++) {
    mn = std::min(mn, v[i]);
    mx = std::max(mx, v[i]);
  }
  lo = mn;
  hi = mx;
}
}  // namespace

ColumnStats compute_stats(const Type& type, const void* data, uint64_t size) {
  ColumnStats s;
  if (size == 0) return s;
  if (type.id == TypeId::kDouble) {
    minmax(static_cast<const double*>(data), size, s.min_d, s.max_d);
    s.min = 0;
    s.max = -1;
  } else if (type.physical_width() == 4) {
    int32_t lo, hi;
    minmax(static_cast<const int32_t*>(data), size, lo, hi);
    s.min = lo;
    s.max = hi;
  } else {
    minmax(static_cast<const int64_t*>(data), size, s.min, s.max);
  }
  return s;
}

template <typename T>
ColumnPtr make_column(std::string name, Type type, const std::vector<T>& values,
                      std::shared_ptr<const Dictionary> dict) {
  if (size_t(type.physical_width()) != sizeof(T))
    fail(ErrorKind::kInternal, "make_column {}: {} is not stored in {} bytes", name, type.to_string(), sizeof(T));
  if ((type.id == TypeId::kVarchar) != (dict != nullptr))
    fail(ErrorKind::kInternal, "make_column {}: dictionary must be given exactly for VARCHAR", name);
  auto buf = Buffer::allocate(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(buf->mutable_data(), values.data(), values.size() * sizeof(T));
  auto stats = compute_stats(type, buf->data(), values.size());
  return std::make_shared<const Column>(std::move(name), type, std::move(buf), values.size(), std::move(dict), stats);
}

template ColumnPtr make_column<int32_t>(std::string, Type, const std::vector<int32_t>&,
                                        std::shared_ptr<const Dictionary>);
template ColumnPtr make_column<int64_t>(std::string, Type, const std::vector<int64_t>&,
                                        std::shared_ptr<const Dictionary>);
template ColumnPtr make_column<double>(std::string, Type, const std::vector<double>&,
                                       std::shared_ptr<const Dictionary>);

namespace {

// Writes `fill` into every NULL slot of `v` after finding the smallest non-NULL value.
template <typename T>
void fill_null_slots(T* v, uint64_t n, const uint8_t* bits) {
  bool any = false;
  T lo{};
  for (uint64_t i = 0; i < n; i++) {
    if (!((bits[i >> 3] >> (i & 7)) & 1)) continue;
    if (!any || v[i] < lo) lo = v[i];
    any = true;
  }
  for (uint64_t i = 0; i < n; i++)
    if (!((bits[i >> 3] >> (i & 7)) & 1)) v[i] = any ? lo : T{};
}

uint64_t count_nulls(const uint8_t* bits, uint64_t n) {
  uint64_t valid = 0;
  for (uint64_t i = 0; i < n / 8; i++) valid += uint64_t(__builtin_popcount(bits[i]));
  for (uint64_t i = n / 8 * 8; i < n; i++) valid += (bits[i >> 3] >> (i & 7)) & 1;
  return n - valid;
}

}  // namespace

ColumnPtr make_nullable_column(std::string name, Type type, std::shared_ptr<Buffer> data, uint64_t size,
                               std::shared_ptr<const Dictionary> dict, std::shared_ptr<Buffer> validity,
                               bool nullable) {
  uint64_t nulls = 0;
  if (validity) {
    const auto* bits = static_cast<const uint8_t*>(validity->data());
    nulls = count_nulls(bits, size);
    if (nulls > 0) {
      void* d = data->mutable_data();
      if (type.id == TypeId::kDouble)
        fill_null_slots(static_cast<double*>(d), size, bits);
      else if (type.physical_width() == 4)
        fill_null_slots(static_cast<int32_t*>(d), size, bits);
      else
        fill_null_slots(static_cast<int64_t*>(d), size, bits);
    }
  }
  const ColumnStats stats = compute_stats(type, data->data(), size);
  auto col = std::make_shared<Column>(std::move(name), type, std::move(data), size, std::move(dict), stats);
  col->set_nullable(nullable);
  col->set_validity(nulls > 0 ? std::move(validity) : nullptr, nulls);
  return col;
}

ColumnBuilder::ColumnBuilder(std::string name, Type type, bool nullable)
    : name_(std::move(name)), type_(type), nullable_(nullable) {
  if (!type.storable()) fail(ErrorKind::kInvalidInput, "column {}: type {} cannot be stored", name_, type.to_string());
}

void ColumnBuilder::reserve(uint64_t n) {
  if (type_.id == TypeId::kDouble)
    f64_.reserve(n);
  else if (type_.physical_width() == 4)
    i32_.reserve(n);
  else
    i64_.reserve(n);
}

void ColumnBuilder::append_int(int64_t v) {
  if (type_.physical_width() == 4 && type_.id != TypeId::kVarchar)
    i32_.push_back(int32_t(v));
  else if (type_.id == TypeId::kBigint || type_.id == TypeId::kDecimal || type_.id == TypeId::kTimestamp)
    i64_.push_back(v);
  else
    fail(ErrorKind::kInternal, "append_int on {} column {}", type_.to_string(), name_);
  size_++;
  if (!valid_.empty()) valid_.push_back(1);
}

void ColumnBuilder::append_double(double v) {
  if (type_.id != TypeId::kDouble) fail(ErrorKind::kInternal, "append_double on {} column {}", type_.to_string(), name_);
  f64_.push_back(v);
  size_++;
  if (!valid_.empty()) valid_.push_back(1);
}

void ColumnBuilder::append_string(std::string_view s) {
  if (type_.id != TypeId::kVarchar) fail(ErrorKind::kInternal, "append_string on {} column {}", type_.to_string(), name_);
  i32_.push_back(int32_t(dict_builder_.add(s)));
  size_++;
  if (!valid_.empty()) valid_.push_back(1);
}

void ColumnBuilder::append_null(std::string_view table) {
  if (!nullable_) {
    if (table.empty()) fail(ErrorKind::kInvalidInput, "NULL value in column {} violates its NOT NULL constraint", name_);
    fail(ErrorKind::kInvalidInput, "NULL value in column {} of table {} violates its NOT NULL constraint", name_, table);
  }
  if (valid_.empty()) valid_.assign(size_, 1);  // every row so far holds a value
  switch (type_.id) {  // a placeholder; finish() rewrites it to the smallest value
    case TypeId::kDouble: f64_.push_back(0); break;
    case TypeId::kVarchar: i32_.push_back(-1); break;  // no dictionary entry
    default:
      if (type_.physical_width() == 4) i32_.push_back(0);
      else i64_.push_back(0);
      break;
  }
  size_++;
  valid_.push_back(0);
  nulls_++;
}

void ColumnBuilder::append_value(const Value& v) {
  if (v.is_null()) return append_null();
  switch (type_.id) {
    case TypeId::kVarchar: return append_string(v.to_string());
    case TypeId::kDouble: return append_double(v.as_double());
    default: break;
  }
  // BOOLEAN and TIMESTAMP hold only their own kind of value (a DATE is its midnight).
  const TypeId from = v.type().id;
  if (type_.id == TypeId::kBoolean && from == TypeId::kBoolean) return append_int(v.as_int() != 0);
  if (type_.id == TypeId::kTimestamp && from == TypeId::kTimestamp) return append_int(v.as_int());
  if (type_.id == TypeId::kTimestamp && from == TypeId::kDate) return append_int(v.as_int() * kMicrosPerDay);
  if (type_.id == TypeId::kBoolean || type_.id == TypeId::kTimestamp || from == TypeId::kBoolean ||
      from == TypeId::kTimestamp)
    fail(ErrorKind::kInvalidInput, "column {} ({}) cannot hold {} value {}", name_, type_.to_string(),
         v.type().to_string(), v.to_string());
  if (v.type().id == TypeId::kDouble || v.type().id == TypeId::kVarchar || v.type().id == TypeId::kHugeint)
    fail(ErrorKind::kInvalidInput, "column {} ({}) cannot hold {} value {}", name_, type_.to_string(),
         v.type().to_string(), v.to_string());
  __int128 x = v.as_hugeint();
  int from_scale = v.type().id == TypeId::kDecimal ? v.type().scale : 0;
  int to_scale = type_.id == TypeId::kDecimal ? type_.scale : 0;
  if (to_scale >= from_scale)
    x *= pow10_i128(to_scale - from_scale);
  else if (x % pow10_i128(from_scale - to_scale) != 0)
    fail(ErrorKind::kInvalidInput, "value {} does not fit {} of column {} exactly", v.to_string(), type_.to_string(),
         name_);
  else
    x /= pow10_i128(from_scale - to_scale);
  __int128 lo = type_.physical_width() == 4 ? INT32_MIN : INT64_MIN;
  __int128 hi = type_.physical_width() == 4 ? INT32_MAX : INT64_MAX;
  if (type_.id == TypeId::kDecimal) {
    hi = pow10_i128(type_.precision) - 1;
    lo = -hi;
  }
  if (x < lo || x > hi)
    fail(ErrorKind::kInvalidInput, "value {} is out of range for {} column {}", v.to_string(), type_.to_string(),
         name_);
  append_int(int64_t(x));
}

ColumnPtr ColumnBuilder::finish() {
  ColumnPtr col;
  std::shared_ptr<const Dictionary> dict;
  if (type_.id == TypeId::kVarchar) {
    if (nulls_ == size_ && size_ > 0) dict_builder_.add("");  // code 0 must name an entry
    std::vector<uint32_t> remap;
    dict = dict_builder_.finish(remap);
    for (auto& c : i32_) c = c < 0 ? 0 : int32_t(remap[uint32_t(c)]);
  }
  if (nulls_ == 0) {
    if (type_.id == TypeId::kDouble) col = make_column(name_, type_, f64_);
    else if (type_.physical_width() == 4) col = make_column(name_, type_, i32_, dict);
    else col = make_column(name_, type_, i64_);
    if (nullable_) {
      auto c = std::const_pointer_cast<Column>(col);
      c->set_nullable(true);
    }
  } else {
    const size_t width = size_t(type_.physical_width());
    auto buf = Buffer::allocate(size_ * width);
    const void* src = type_.id == TypeId::kDouble ? static_cast<const void*>(f64_.data())
                      : width == 4               ? static_cast<const void*>(i32_.data())
                                                 : static_cast<const void*>(i64_.data());
    std::memcpy(buf->mutable_data(), src, size_ * width);
    auto bits = Buffer::allocate(validity_bytes(size_));
    auto* b = static_cast<uint8_t*>(bits->mutable_data());
    std::memset(b, 0, validity_bytes(size_));
    for (uint64_t i = 0; i < size_; i++) b[i >> 3] = uint8_t(b[i >> 3] | (valid_[i] << (i & 7)));
    col = make_nullable_column(name_, type_, std::move(buf), size_, dict, std::move(bits), true);
  }
  i32_ = {};
  i64_ = {};
  f64_ = {};
  valid_ = {};
  nulls_ = 0;
  size_ = 0;
  return col;
}

}  // namespace raydb
