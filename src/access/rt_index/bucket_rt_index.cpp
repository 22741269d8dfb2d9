#include "access/rt_index/bucket_rt_index.h"

#include "common/error.h"
#include "common/timer.h"

namespace raydb::access {

namespace mp = rt::mapping;

BucketRtIndex::BucketRtIndex(rt::Tracer& tracer, std::span<const uint64_t> keys, std::span<const int64_t> values,
                             uint32_t bucket_size, bool sorted_probes)
    : tracer_(tracer), bucket_size_(bucket_size) {
  Timer timer;
  if (bucket_size == 0) fail(ErrorKind::kInvalidInput, "rt index: bucket size must be >= 1");
  if (keys.size() >= (uint64_t{1} << 32))
    fail(ErrorKind::kInvalidInput, "rt index: at most 2^32 - 1 rows (got {})", keys.size());
  sorted_probes_ = sorted_probes;
  sk_.build(keys, values, /*compress=*/true);  // buckets tile distinct keys
  const uint32_t units = static_cast<uint32_t>(sk_.units());
  const uint32_t buckets = static_cast<uint32_t>((static_cast<uint64_t>(units) + bucket_size - 1) / bucket_size);
  mp::BucketTable host{sk_.unit_keys.data(), nullptr, units, bucket_size, buckets, 0, nullptr};
  std::vector<rt::Aabb> boxes;
  bucket_last_.resize(buckets);
  for (uint32_t b = 0; b < buckets; ++b) {
    bucket_last_[b] = host.last(b);
    rt::Aabb piece[mp::kMaxIntervalBoxes];
    const int c = mp::interval_boxes(mp::bucket_first(host, b), host.last(b), piece);
    for (int k = 0; k < c; ++k) {
      boxes.push_back(piece[k]);
      prim_bucket_.push_back(b);
    }
  }
  tracer_.reset_peak_memory();
  const size_t tracer_before = tracer_.memory().current_bytes;
  auto up = [&](const auto& v) -> const void* {
    if (v.empty()) return nullptr;
    table_buffers_.push_back(tracer_.upload(v.data(), v.size() * sizeof(v[0])));
    return table_buffers_.back()->address();
  };
  table_ = std::make_unique<mp::BucketTable>(
      mp::BucketTable{static_cast<const uint64_t*>(up(sk_.unit_keys)), static_cast<const uint32_t*>(up(prim_bucket_)),
                      units, bucket_size, buckets, static_cast<uint32_t>(prim_bucket_.size()),
                      static_cast<const uint64_t*>(up(bucket_last_))});
  unit_starts_ = static_cast<const uint32_t*>(up(sk_.unit_starts));
  rows_ = static_cast<const uint32_t*>(up(sk_.rows));
  values_ = static_cast<const int64_t*>(up(sk_.values));
  accel_ = tracer_.build(rt::GeometryInput::of_buckets(boxes, table_.get()), rt::BuildOptions{});
  const rt::TracerMemory mem = tracer_.memory();
  stats_.build_ms = timer.elapsed_ms();
  const size_t host_bytes = sk_.memory_bytes() + prim_bucket_.capacity() * 4 + bucket_last_.capacity() * 8;
  stats_.memory_bytes = host_bytes + (mem.current_bytes - tracer_before);
  stats_.peak_build_bytes = host_bytes + boxes.size() * sizeof(rt::Aabb) + (mem.peak_bytes - tracer_before);
}

BucketRtIndex::~BucketRtIndex() = default;

struct BucketRtIndex::Batch {
  uint32_t n = 0;
  std::vector<uint32_t> order_host;
  std::unique_ptr<rt::Buffer> bounds, order;
};

BucketRtIndex::Batch BucketRtIndex::prepare(std::span<const KeyRange> lookups) const {
  if (lookups.size() >= (uint64_t{1} << 32))
    fail(ErrorKind::kInvalidInput, "rt index: at most 2^32 - 1 lookups per batch");
  Batch b;
  b.n = static_cast<uint32_t>(lookups.size());
  b.bounds = tracer_.upload(lookups.data(), lookups.size_bytes());
  if (sorted_probes_ && b.n > 1) {
    b.order_host = probe_order(lookups);
    b.order = tracer_.upload(b.order_host.data(), b.order_host.size() * 4);
  }
  return b;
}

void BucketRtIndex::run(const Batch& b, mp::BucketLookupParams& p) const {
  uint32_t error = 0;
  auto err = tracer_.buffer(&error, sizeof(error), rt::Transfer::kInOut);
  p.t = *table_;
  p.unit_starts = unit_starts_;
  p.rows = rows_;
  p.values = values_;
  p.bounds = static_cast<const uint64_t*>(b.bounds->address());
  p.order = b.order ? static_cast<const uint32_t*>(b.order->address()) : nullptr;
  p.n = b.n;
  p.error = static_cast<uint32_t*>(err->address());
  const rt::Accel* slots[1] = {accel_.get()};
  tracer_.launch(mp::Program::kBucketLookup, slots, &p, sizeof(p), b.n);
  tracer_.fetch(*err);
  if (error & mp::kErrorMissedBucket)
    fail(ErrorKind::kInternal, "rt index: a lookup found no bucket although keys >= it exist ({})", tracer_.name());
  if (error & mp::kErrorWriteMismatch)
    fail(ErrorKind::kInternal, "rt index: write pass found other rows than count pass ({})", tracer_.name());
  if (error != 0)
    fail(ErrorKind::kInternal, "rt index: tracer {} reported a hit outside the lookup's bucket", tracer_.name());
}

void BucketRtIndex::aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const {
  out.count.assign(lookups.size(), 0);
  out.sum.assign(lookups.size(), 0);
  if (lookups.empty()) return;
  const Batch b = prepare(lookups);
  auto count = tracer_.buffer(out.count.data(), out.count.size() * 8, rt::Transfer::kOut);
  auto sum = tracer_.buffer(out.sum.data(), out.sum.size() * 8, rt::Transfer::kOut);
  mp::BucketLookupParams p{};
  p.mode = mp::LookupMode::kAggregate;
  p.count = static_cast<uint64_t*>(count->address());
  p.sum = static_cast<int64_t*>(sum->address());
  run(b, p);
  tracer_.fetch(*count);
  tracer_.fetch(*sum);
}

void BucketRtIndex::materialize(std::span<const KeyRange> lookups, RowIdLists& out) const {
  std::vector<uint64_t> counts(lookups.size(), 0);
  out.rows.clear();
  if (lookups.empty()) {
    out.offsets.assign(1, 0);
    return;
  }
  const Batch b = prepare(lookups);
  auto count = tracer_.buffer(counts.data(), counts.size() * 8, rt::Transfer::kOut);
  auto runs = tracer_.buffer(nullptr, lookups.size() * sizeof(mp::KeyRun), rt::Transfer::kOut);
  mp::BucketLookupParams p{};
  p.mode = mp::LookupMode::kCount;
  p.count = static_cast<uint64_t*>(count->address());
  p.runs = static_cast<mp::KeyRun*>(runs->address());
  run(b, p);
  tracer_.fetch(*count);
  exclusive_prefix_sum(counts, out.offsets);
  out.rows.resize(out.offsets.back());
  if (out.rows.empty()) return;
  auto offsets = tracer_.upload(out.offsets.data(), out.offsets.size() * 8);
  auto rows = tracer_.buffer(out.rows.data(), out.rows.size() * sizeof(RowId), rt::Transfer::kOut);
  p.mode = mp::LookupMode::kWrite;
  p.count = nullptr;
  p.offsets = static_cast<const uint64_t*>(offsets->address());
  p.rows_out = static_cast<uint32_t*>(rows->address());
  run(b, p);
  tracer_.fetch(*rows);
}

Run BucketRtIndex::find_run(const KeyRange& q) const {
  const Batch b = prepare(std::span<const KeyRange>(&q, 1));
  uint64_t count = 0;
  mp::KeyRun r{0, 0};
  auto c = tracer_.buffer(&count, sizeof(count), rt::Transfer::kOut);
  auto rb = tracer_.buffer(&r, sizeof(r), rt::Transfer::kOut);
  mp::BucketLookupParams p{};
  p.mode = mp::LookupMode::kCount;
  p.count = static_cast<uint64_t*>(c->address());
  p.runs = static_cast<mp::KeyRun*>(rb->address());
  run(b, p);
  tracer_.fetch(*rb);
  return Run{r.begin, r.end};
}

}  // namespace raydb::access
