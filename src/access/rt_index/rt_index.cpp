#include "access/rt_index/rt_index.h"

#include <algorithm>

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

// The CPU trace context of key_search.h: slots are the key structure (a geometry or an
// instance structure) and the two marker structures.
struct RtIndex::TraceContext {
  const rt::Tracer& tracer;
  const rt::Accel* slots[3];
  uint32_t part_size;

  rt::Hit closest(mp::Slot s, const rt::Ray& r) const { return tracer.closest(*slots[static_cast<int>(s)], r); }
  template <typename F>
  void all_hits(mp::Slot s, const rt::Ray& r, F&& f) const {
    struct Sink final : rt::HitSink {
      explicit Sink(F& fn) : fn(fn) {}
      bool on_hit(const rt::Hit& h) override { return fn(h); }
      F& fn;
    } sink(f);
    tracer.all_hits(*slots[static_cast<int>(s)], r, sink);
  }
  uint32_t global(const rt::Hit& h) const { return h.instance * part_size + h.primitive; }
};

// User data of the custom-box variant: the partition's representative keys.
struct RtIndex::BoxUser {
  const uint64_t* keys;
};

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
      box_users_.push_back(std::make_unique<BoxUser>(BoxUser{keys}));
      parts_.push_back(tracer.build(rt::GeometryInput::of_custom(boxes, intersect_box, keys), bo));
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

rt::mapping::KeySearchParams RtIndex::params() const {
  return mp::KeySearchParams{rep_keys_.data(), marker_rows_.data(), marker_planes_.data()};
}

Run RtIndex::find_run(const KeyRange& q) const {
  if (q.lo > q.hi || rep_keys_.empty()) return {};
  const rt::Accel* keys = keys_accel_ ? keys_accel_.get() : parts_[0].get();
  const TraceContext tc{tracer_, {keys, row_markers_.get(), plane_markers_.get()}, part_size_};
  const mp::KeySearchParams p = params();
  const bool buckets = options_.bucket_size > 1;
  uint32_t r;
  if (!buckets && q.lo == q.hi) {
    r = mp::find_equal(tc, p, q.lo);
  } else {
    r = mp::first_at_least(tc, p, q.lo);
    if (r != kNone && rep_keys_[r] < q.lo)  // cannot happen by key_grid.h; never answer wrongly
      fail(ErrorKind::kInternal, "rt index: closest hit {} below lookup {}", rep_keys_[r], q.lo);
  }
  if (r == kNone) return {};
  size_t u;
  if (!buckets) {
    u = r;
  } else {  // cgRX's bucket search: lower bound of lo within the representative's bucket
    size_t a = rep_first_unit_[r], b = rep_first_unit_[r + 1];
    while (a < b) {
      const size_t m = (a + b) / 2;
      if (sk_.unit_key(m) < q.lo) a = m + 1; else b = m;
    }
    u = a;
  }
  // Uncompressed duplicates coincide: the ray may report any copy; start at the first.
  while (u > 0 && sk_.unit_key(u - 1) >= q.lo) --u;
  const size_t e = sk_.scan_past(u, q.hi);
  return Run{sk_.unit_start(u), e < sk_.units() ? sk_.unit_start(e) : static_cast<uint32_t>(sk_.keys.size())};
}

template <typename Visit>
void RtIndex::visit_any_hit(const KeyRange& q, Visit&& visit) const {
  if (q.lo > q.hi || rep_keys_.empty()) return;
  const rt::Accel* keys = keys_accel_ ? keys_accel_.get() : parts_[0].get();
  const TraceContext tc{tracer_, {keys, row_markers_.get(), plane_markers_.get()}, part_size_};
  if (!options_.sort_keys) {
    mp::for_each_in_range(tc, params(), q.lo, q.hi,
                          [&](uint32_t row) { visit(row, row_values_.empty() ? 0 : row_values_[row]); });
  } else {
    mp::for_each_in_range(tc, params(), q.lo, q.hi, [&](uint32_t unit) {
      const uint32_t b = sk_.unit_start(unit);
      const uint32_t e = unit + 1 < sk_.units() ? sk_.unit_start(unit + 1) : static_cast<uint32_t>(sk_.keys.size());
      for (uint32_t i = b; i < e; ++i) visit(sk_.rows[i], sk_.values.empty() ? 0 : sk_.values[i]);
    });
  }
}

void RtIndex::aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const {
  if (options_.closest_hit_ranges) return RunIndex::aggregate(lookups, out);
  out.count.assign(lookups.size(), 0);
  out.sum.assign(lookups.size(), 0);
  for_each_lookup(lookups, [&](size_t i) {
    uint64_t c = 0;
    int64_t s = 0;
    visit_any_hit(lookups[i], [&](RowId, int64_t v) {
      ++c;
      s += v;
    });
    out.count[i] = c;
    out.sum[i] = s;
  });
}

void RtIndex::materialize(std::span<const KeyRange> lookups, RowIdLists& out) const {
  if (options_.closest_hit_ranges) return RunIndex::materialize(lookups, out);
  // Any-hit: a count pass of rays, the prefix sum, and a write pass of the same rays
  // (as on the GPU, where results cannot grow inside a launch).
  std::vector<uint64_t> counts(lookups.size(), 0);
  for_each_lookup(lookups, [&](size_t i) {
    uint64_t c = 0;
    visit_any_hit(lookups[i], [&](RowId, int64_t) { ++c; });
    counts[i] = c;
  });
  exclusive_prefix_sum(counts, out.offsets);
  out.rows.resize(out.offsets.back());
  for_each_lookup(lookups, [&](size_t i) {
    uint64_t at = out.offsets[i];
    visit_any_hit(lookups[i], [&](RowId row, int64_t) {
      if (at < out.offsets[i + 1]) out.rows[at++] = row;
    });
    if (at != out.offsets[i + 1]) fail(ErrorKind::kInternal, "rt index: write pass found other hits than count pass");
  });
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
