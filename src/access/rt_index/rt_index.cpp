#include "access/rt_index/rt_index.h"

#include <algorithm>
#include <cstddef>

#include "common/error.h"
#include "common/timer.h"

namespace raydb::access {

namespace mp = rt::mapping;
using rt::mapping::kNone;

std::string RtIndexOptions::describe() const {
  std::string s = sort_keys ? "sorted" : "rx";
  if (sort_keys) {
    s += compress_duplicates ? "+compress" : "";
    s += closest_hit_ranges ? "+closest" : "+anyhit";
    if (bucket_size > 1) s += "+cg" + std::to_string(bucket_size);
  }
  if (partitions > 1) s += "+p" + std::to_string(partitions);
  if (sorted_probes) s += "+sortprobes";
  if (primitive == RtPrimitive::kBox) s += "+box";
  return s;
}

namespace {
bool intersect_box(const void* user, uint32_t prim, const rt::Ray& ray, float* t) {
  const auto* u = static_cast<const uint64_t*>(user);
  return mp::intersect_key_box(mp::decompose(u[prim]), ray, t);
}
}  // namespace

RtIndex::RtIndex(rt::Tracer& tracer, std::span<const uint64_t> keys, std::span<const int64_t> values,
                 RtIndexOptions options)
    : tracer_(tracer), options_(options) {
  Timer timer;
  n_ = keys.size();
  if (n_ >= (uint64_t{1} << 32)) fail(ErrorKind::kInvalidInput, "rt index: at most 2^32 - 1 rows (got {})", n_);
  if (!values.empty() && values.size() != n_)
    fail(ErrorKind::kInvalidInput, "rt index: {} values for {} keys", values.size(), n_);
  if (options_.bucket_size == 0) fail(ErrorKind::kInvalidInput, "rt index: bucket size must be >= 1");
  if (options_.partitions == 0) fail(ErrorKind::kInvalidInput, "rt index: partitions must be >= 1");
  if (!options_.sort_keys) {  // RX as published: nothing sorted, any-hit only
    if (options_.bucket_size > 1) fail(ErrorKind::kInvalidInput, "rt index: buckets (cgRX) need sorted keys");
    options_.compress_duplicates = false;
    options_.closest_hit_ranges = false;
  }
  if (options_.bucket_size > 1 && !options_.closest_hit_ranges)
    fail(ErrorKind::kInvalidInput, "rt index: buckets (cgRX) need closest-hit lookups");
  sorted_probes_ = options_.sorted_probes;

  if (!options_.sort_keys) {
    rep_keys_.assign(keys.begin(), keys.end());
    row_values_.assign(values.begin(), values.end());
  } else {
    sk_.build(keys, values, options_.compress_duplicates);
    const size_t units = sk_.units();
    const uint64_t* unit_keys = sk_.compressed ? sk_.unit_keys.data() : sk_.keys.data();
    const size_t b = options_.bucket_size;
    if (b == 1) {
      rep_keys_.assign(unit_keys, unit_keys + units);
    } else {
      // cgRX: a bucket's last key represents it; equal representatives are mapped
      // once (the first), whose bucket then extends over the equal ones.
      for (size_t first = 0; first < units; first += b) {
        const uint64_t k = unit_keys[std::min(first + b, units) - 1];
        if (!rep_keys_.empty() && rep_keys_.back() == k) continue;
        rep_keys_.push_back(k);
        rep_first_unit_.push_back(static_cast<uint32_t>(first));
      }
      rep_first_unit_.push_back(static_cast<uint32_t>(units));
    }
  }
  tracer_.reset_peak_memory();
  const size_t tracer_before = tracer_.memory().current_bytes;
  build_structures(tracer);
  upload_tables();
  const rt::TracerMemory mem = tracer_.memory();
  const size_t host = sk_.memory_bytes() + rep_keys_.capacity() * 8 + rep_first_unit_.capacity() * 4 +
                      row_values_.capacity() * 8 +
                      (marker_rows_.capacity() + marker_row_planes_.capacity() + marker_planes_.capacity()) * 4;
  stats_.build_ms = timer.elapsed_ms();
  stats_.memory_bytes = host + (mem.current_bytes - tracer_before);
  // Peak: resident arrays plus the tracer's peak during the build (BVH builder
  // buffers) plus one partition's triangle input, the largest temporary we hold.
  const size_t input_bytes = static_cast<size_t>(part_size_) * (options_.primitive == RtPrimitive::kBox
                                                                    ? sizeof(rt::Aabb)
                                                                    : sizeof(rt::Triangle));
  stats_.peak_build_bytes = host + (mem.peak_bytes - tracer_before) + input_bytes;
}

RtIndex::~RtIndex() = default;

void RtIndex::build_structures(rt::Tracer& tracer) {
  const size_t reps = rep_keys_.size();
  const size_t parts = std::max<size_t>(1, std::min<size_t>(options_.partitions, reps));
  part_size_ = static_cast<uint32_t>(std::max<size_t>(1, (reps + parts - 1) / parts));
  rt::BuildOptions bo;
  bo.compact = options_.compact;
  // Partitions are built one after another, so the builder's temporaries and the
  // triangle input are bounded by one partition (the thesis' peak-memory argument).
  for (size_t p = 0; p < parts; ++p) {
    const size_t begin = std::min(reps, p * part_size_), end = std::min(reps, begin + part_size_);
    const uint64_t* keys = rep_keys_.data() + begin;
    if (options_.primitive == RtPrimitive::kTriangle) {
      std::vector<rt::Triangle> tris(end - begin);
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < tris.size(); ++i) tris[i] = mp::key_triangle(mp::decompose(keys[i]));
      parts_.push_back(tracer.build(rt::GeometryInput::of_triangles(tris), bo));
    } else {
      std::vector<rt::Aabb> boxes(end - begin);
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < boxes.size(); ++i) boxes[i] = mp::key_box(mp::decompose(keys[i]));
      parts_.push_back(tracer.build(
          rt::GeometryInput::of_custom(boxes, intersect_box, keys, std::span<const uint64_t>(keys, end - begin)), bo));
    }
  }
  if (parts > 1) {
    std::vector<const rt::Accel*> children;
    for (const auto& a : parts_) children.push_back(a.get());
    keys_accel_ = tracer.build_instances(children);
  }
  // Row and plane markers (cgRX) for closest-hit lookups whose row has no key >= lo.
  std::vector<rt::Triangle> tris;
  if (options_.closest_hit_ranges) {
    uint64_t last_row = ~uint64_t{0};
    uint32_t last_plane = kNone;
    for (uint64_t k : rep_keys_) {  // sorted: rows and planes come in order
      const mp::GridPoint g = mp::decompose(k);
      if (mp::row_of(k) != last_row) {
        last_row = mp::row_of(k);
        marker_rows_.push_back(g.y);
        marker_row_planes_.push_back(g.z);
      }
      if (g.z != last_plane) {
        last_plane = g.z;
        marker_planes_.push_back(g.z);
      }
    }
    for (size_t i = 0; i < marker_rows_.size(); ++i)
      tris.push_back(mp::row_marker_triangle(marker_rows_[i], marker_row_planes_[i]));
  }
  row_markers_ = tracer.build(rt::GeometryInput::of_triangles(tris), bo);
  tris.clear();
  for (uint32_t z : marker_planes_) tris.push_back(mp::plane_marker_triangle(z));
  plane_markers_ = tracer.build(rt::GeometryInput::of_triangles(tris), bo);
}

void RtIndex::upload_tables() {
  auto up = [&](const auto& v) -> const void* {
    if (v.empty()) return nullptr;
    table_buffers_.push_back(tracer_.upload(v.data(), v.size() * sizeof(v[0])));
    return table_buffers_.back()->address();
  };
  mp::KeyTables& t = tables_;
  t = mp::KeyTables{};
  const bool sorted = options_.sort_keys;
  const auto& unit_keys = sk_.compressed ? sk_.unit_keys : sk_.keys;
  const void* unit_keys_at = sorted ? up(unit_keys) : nullptr;
  // With one primitive per unit the representatives are the unit keys: one copy.
  const void* rep_at = sorted && options_.bucket_size == 1 ? unit_keys_at : up(rep_keys_);
  t.search = mp::KeySearchParams{static_cast<const uint64_t*>(rep_at),
                                 static_cast<const uint32_t*>(up(marker_rows_)),
                                 static_cast<const uint32_t*>(up(marker_planes_)), part_size_};
  t.reps = static_cast<uint32_t>(rep_keys_.size());
  t.units = static_cast<uint32_t>(sorted ? sk_.units() : n_);
  t.positions = static_cast<uint32_t>(n_);
  t.unit_keys = static_cast<const uint64_t*>(unit_keys_at);
  t.unit_starts = sk_.compressed ? static_cast<const uint32_t*>(up(sk_.unit_starts)) : nullptr;
  t.rep_first_unit = static_cast<const uint32_t*>(up(rep_first_unit_));
  t.rows = sorted ? static_cast<const RowId*>(up(sk_.rows)) : nullptr;
  t.values = static_cast<const int64_t*>(up(sorted ? sk_.values : row_values_));
}

// One batch of lookups where the tracer reads them: bounds and the probe order. The
// host permutation stays alive with the batch (a CPU tracer reads it in place; moving
// a Batch keeps the vector's memory where it is).
struct RtIndex::Batch {
  uint32_t n = 0;
  std::vector<uint32_t> order_host;
  std::unique_ptr<rt::Buffer> bounds, order;
};

RtIndex::Batch RtIndex::prepare(std::span<const KeyRange> lookups) const {
  static_assert(sizeof(KeyRange) == 16 && offsetof(KeyRange, hi) == 8, "bounds are read as lo, hi pairs");
  Batch b;
  if (lookups.size() >= (uint64_t{1} << 32)) fail(ErrorKind::kInvalidInput, "rt index: at most 2^32 - 1 lookups per batch");
  b.n = static_cast<uint32_t>(lookups.size());
  b.bounds = tracer_.upload(lookups.data(), lookups.size_bytes());
  if (sorted_probes_ && b.n > 1) {
    // Neighbouring launch items walk the same paths; results stay in the caller's order.
    b.order_host = probe_order(lookups);
    b.order = tracer_.upload(b.order_host.data(), b.order_host.size() * 4);
  }
  return b;
}

void RtIndex::run(const Batch& b, mp::KeyLookupParams& p, mp::LookupMode mode) const {
  uint32_t error = 0;
  auto err = tracer_.buffer(&error, sizeof(error), rt::Transfer::kInOut);
  p.t = tables_;
  p.bounds = b.bounds ? static_cast<const uint64_t*>(b.bounds->address()) : nullptr;
  p.order = b.order ? static_cast<const uint32_t*>(b.order->address()) : nullptr;
  p.n = b.n;
  p.strategy = options_.closest_hit_ranges ? mp::LookupStrategy::kClosestScan : mp::LookupStrategy::kAnyHit;
  p.mode = mode;
  p.point_rays = options_.bucket_size == 1;
  p.error = static_cast<uint32_t*>(err->address());
  const rt::Accel* keys = rep_keys_.empty() ? nullptr : keys_accel_ ? keys_accel_.get() : parts_[0].get();
  const rt::Accel* slots[3] = {keys, row_markers_.get(), plane_markers_.get()};
  tracer_.launch(rt::mapping::Program::kKeyLookup, slots, &p, sizeof(p), b.n);
  tracer_.fetch(*err);
  if (error & mp::kErrorClosestBelow) fail(ErrorKind::kInternal, "rt index: a closest hit below its lookup ({})", tracer_.name());
  if (error & mp::kErrorWriteMismatch)
    fail(ErrorKind::kInternal, "rt index: write pass found other hits than count pass ({})", tracer_.name());
  if (error != 0) fail(ErrorKind::kInternal, "rt index: tracer {} reported a hit outside the index", tracer_.name());
}

void RtIndex::aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const {
  out.count.assign(lookups.size(), 0);
  out.sum.assign(lookups.size(), 0);
  if (lookups.empty()) return;
  const Batch b = prepare(lookups);
  auto count = tracer_.buffer(out.count.data(), out.count.size() * 8, rt::Transfer::kOut);
  auto sum = tracer_.buffer(out.sum.data(), out.sum.size() * 8, rt::Transfer::kOut);
  mp::KeyLookupParams p{};
  p.count = static_cast<uint64_t*>(count->address());
  p.sum = static_cast<int64_t*>(sum->address());
  run(b, p, mp::LookupMode::kAggregate);
  tracer_.fetch(*count);
  tracer_.fetch(*sum);
}

void RtIndex::materialize(std::span<const KeyRange> lookups, RowIdLists& out) const {
  // Count pass, exclusive prefix sum, write pass (results cannot grow inside a launch).
  // The closest-scan count pass keeps each lookup's run, so the write pass only copies.
  std::vector<uint64_t> counts(lookups.size(), 0);
  out.rows.clear();
  if (lookups.empty()) {
    out.offsets.assign(1, 0);
    return;
  }
  const Batch b = prepare(lookups);
  auto count = tracer_.buffer(counts.data(), counts.size() * 8, rt::Transfer::kOut);
  std::unique_ptr<rt::Buffer> runs;
  mp::KeyLookupParams p{};
  if (options_.closest_hit_ranges) {
    runs = tracer_.buffer(nullptr, lookups.size() * sizeof(mp::KeyRun), rt::Transfer::kOut);
    p.runs = static_cast<mp::KeyRun*>(runs->address());
  }
  p.count = static_cast<uint64_t*>(count->address());
  run(b, p, mp::LookupMode::kCount);
  tracer_.fetch(*count);
  count.reset();
  exclusive_prefix_sum(counts, out.offsets);
  out.rows.resize(out.offsets.back());
  if (out.rows.empty()) return;  // every lookup missed: no write pass
  auto offsets = tracer_.upload(out.offsets.data(), out.offsets.size() * 8);
  auto rows = tracer_.buffer(out.rows.data(), out.rows.size() * sizeof(RowId), rt::Transfer::kOut);
  p.count = nullptr;
  p.offsets = static_cast<const uint64_t*>(offsets->address());
  p.rows_out = static_cast<uint32_t*>(rows->address());
  run(b, p, mp::LookupMode::kWrite);
  tracer_.fetch(*rows);
}

Run RtIndex::find_run(const KeyRange& q) const {
  // RunIndex's single-lookup hook (aggregate and materialize above launch whole
  // batches): a launch of one count pass that keeps the run.
  if (!options_.closest_hit_ranges) fail(ErrorKind::kInternal, "rt index: any-hit lookups have no single run");
  const Batch b = prepare(std::span<const KeyRange>(&q, 1));
  uint64_t count = 0;
  mp::KeyRun r{0, 0};
  auto c = tracer_.buffer(&count, sizeof(count), rt::Transfer::kOut);
  auto rb = tracer_.buffer(&r, sizeof(r), rt::Transfer::kOut);
  mp::KeyLookupParams p{};
  p.count = static_cast<uint64_t*>(c->address());
  p.runs = static_cast<mp::KeyRun*>(rb->address());
  run(b, p, mp::LookupMode::kCount);
  tracer_.fetch(*rb);
  return Run{r.begin, r.end};
}

JoinPairs rt_join(rt::Tracer& tracer, std::span<const uint64_t> left, std::span<const uint64_t> right,
                  const RtIndexOptions& options, bool inverse_mapping) {
  // Default: the right side is indexed and the left side casts rays. Inverse mapping
  // indexes the smaller side instead (fewer primitives, more rays) and swaps the pairs.
  const bool swap = inverse_mapping && left.size() < right.size();
  const auto build = swap ? left : right;
  const auto probe = swap ? right : left;
  RtIndex index(tracer, build, {}, options);
  JoinPairs p = index_join(index, probe);
  JoinPairs out;
  out.probe = swap ? std::move(p.build) : std::move(p.probe);  // left rows
  out.build = swap ? std::move(p.probe) : std::move(p.build);  // right rows
  return out;
}

}  // namespace raydb::access
