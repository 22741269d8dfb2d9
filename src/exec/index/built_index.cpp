#include "exec/index/built_index.h"

#include <algorithm>

#include "access/gpu/gpu_indexes.h"
#include "access/rt_index/run_index.h"
#include "common/error.h"
#include "common/timer.h"

namespace raydb::exec {

bool key_type_for(const Type& type, access::KeyType& out) {
  switch (type.id) {
    case TypeId::kInteger: out = access::KeyType::kInt32; return true;
    case TypeId::kDate: out = access::KeyType::kDate; return true;
    case TypeId::kBigint:
    case TypeId::kDecimal: out = access::KeyType::kInt64; return true;  // decimals: scaled int64
    case TypeId::kVarchar: out = access::KeyType::kDictCode; return true;  // order-preserving codes
    default: return false;
  }
}

namespace {
plan::IndexKind plan_kind(access::IndexKind k) {
  switch (k) {
    case access::IndexKind::kRt: return plan::IndexKind::kRt;
    case access::IndexKind::kSorted: return plan::IndexKind::kSorted;
    case access::IndexKind::kHash: return plan::IndexKind::kHash;
    case access::IndexKind::kRtScan: break;  // built as a BuiltScanIndex, never here
  }
  return plan::IndexKind::kRt;
}
}  // namespace

BuiltIndex::BuiltIndex(std::string index_name, const access::IndexConfig& config, TablePtr table, int col,
                       rt::Tracer& tracer)
    : table_(std::move(table)) {
  name = std::move(index_name);
  kind = plan_kind(config.kind);
  column = col;
  build([&](std::span<const uint64_t> keys) { return access::build_key_index(config, tracer, keys); });
}

BuiltIndex::BuiltIndex(std::string index_name, plan::IndexKind index_kind, TablePtr table, int col,
                       const Factory& make)
    : table_(std::move(table)) {
  name = std::move(index_name);
  kind = index_kind;
  column = col;
  build(make);
  if (!dynamic_cast<const access::GpuResidentIndex*>(index_.get()))
    fail(ErrorKind::kInternal, "index {}: {} is not GPU-resident", name, index_->name());
  device_ = plan::ExecDevice::kGpu;
  method = index_->name();
}

void BuiltIndex::build(const Factory& make) {
  const Column& c = table_->column(size_t(column));
  if (!key_type_for(c.type(), key_type_))
    fail(ErrorKind::kInvalidInput, "cannot index column {}.{} of type {}", table_->name(), c.name(), c.type().to_string());
  Timer timer;
  const void* data = c.size() == 0 ? nullptr : (c.type().physical_width() == 4 ? static_cast<const void*>(c.data<int32_t>())
                                                                                 : static_cast<const void*>(c.data<int64_t>()));
  std::vector<uint64_t> keys = access::encode_keys(key_type_, data, c.size());
  index_ = make(keys);
  rows = c.size();
  supports_ranges = index_->supports_ranges();
  // Distinct keys, for the planner's estimate of matches per lookup: a GPU index
  // counts them on the device; else the sorted key column every RunIndex keeps when
  // it sorts (RX without sorting keeps none).
  if (const auto* gpu = dynamic_cast<const access::GpuResidentIndex*>(index_.get())) {
    distinct_keys = gpu->distinct_keys();
    build_ms_ = timer.elapsed_ms();
    return;
  }
  const auto* run = dynamic_cast<const access::RunIndex*>(index_.get());
  std::span<const uint64_t> sorted;
  std::vector<uint64_t> own;
  if (run && run->sorted_keys().keys.size() == keys.size()) {
    sorted = run->sorted_keys().keys;
  } else {
    own = std::move(keys);
    std::sort(own.begin(), own.end());
    sorted = own;
  }
  distinct_keys = 0;
  for (size_t i = 0; i < sorted.size(); i++) distinct_keys += i == 0 || sorted[i] != sorted[i - 1];
  build_ms_ = timer.elapsed_ms();
}

std::vector<access::KeyRange> BuiltIndex::lookups(std::span<const std::pair<int64_t, int64_t>> ranges) const {
  std::vector<access::KeyRange> out;
  for (auto& [lo, hi] : ranges) {
    access::KeyRange r;
    if (lo <= hi && access::encode_range(key_type_, lo, hi, &r.lo, &r.hi)) out.push_back(r);
  }
  return out;
}

}  // namespace raydb::exec
