#include "exec/cuda/column_cache.h"
#include "common/int_math.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <optional>

#include "common/error.h"
#include "common/stage_times.h"

namespace raydb::exec::cuda {

namespace {

constexpr uint64_t kChunkRows = uint64_t(1) << 23;  // rows per staging chunk

int width_for(uint64_t range) {
  if (range < (uint64_t(1) << 8)) return 1;
  if (range < (uint64_t(1) << 16)) return 2;
  if (range < (uint64_t(1) << 32)) return 4;
  return 8;
}

int64_t get_int(const Column& c, uint64_t i) {
  return c.type().physical_width() == 4 ? int64_t(c.data<int32_t>()[i]) : c.data<int64_t>()[i];
}

// Sorted distinct values when there are at most `limit` of them over a range of at
// most 2^26 (one bitmap pass); empty otherwise.
std::vector<int64_t> small_distinct(const Column& c, int64_t mn, int64_t mx, size_t limit) {
  const uint64_t range = value_count(mn, mx);
  if (range > (uint64_t(1) << 26)) return {};
  std::vector<uint64_t> bits((range + 63) / 64, 0);
  const uint64_t n = c.size();
  const int threads = omp_get_max_threads();
  std::vector<std::vector<uint64_t>> local(static_cast<size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    auto& b = local[size_t(omp_get_thread_num())];
    b.assign(bits.size(), 0);
#pragma omp for schedule(static)
    for (uint64_t i = 0; i < n; i++) {
      uint64_t o = unsigned_span(mn, get_int(c, i));
      b[o >> 6] |= uint64_t(1) << (o & 63);
    }
  }
  for (auto& b : local)
    for (size_t w = 0; w < bits.size(); w++) bits[w] |= b[w];
  size_t count = 0;
  for (uint64_t w : bits) count += size_t(std::popcount(w));
  if (count > limit) return {};
  std::vector<int64_t> values;
  values.reserve(count);
  for (size_t w = 0; w < bits.size(); w++)
    for (uint64_t x = bits[w]; x; x &= x - 1) values.push_back(mn + int64_t(w * 64 + size_t(std::countr_zero(x))));
  return values;
}

}  // namespace

std::vector<std::pair<uint64_t, uint64_t>> DeviceColumn::stored_ranges(
    const std::vector<std::pair<int64_t, int64_t>>& ranges) const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  const ColumnStats& s = owner->stats();
  if (rows == 0 || s.min > s.max) return out;
  for (auto [lo, hi] : ranges) {
    lo = std::max(lo, s.min);
    hi = std::min(hi, s.max);
    if (lo > hi) continue;
    if (dev.decode) {
      // Ranks of the distinct values inside [lo, hi].
      auto a = std::lower_bound(host_decode.begin(), host_decode.end(), lo);
      auto b = std::upper_bound(host_decode.begin(), host_decode.end(), hi);
      if (a < b) out.emplace_back(uint64_t(a - host_decode.begin()), uint64_t(b - host_decode.begin()) - 1);
    } else {
      out.emplace_back(uint64_t(lo - dev.base), uint64_t(hi - dev.base));
    }
  }
  return out;
}

uint64_t DeviceColumn::stored_range() const {
  const ColumnStats& s = owner->stats();
  if (rows == 0 || s.min > s.max) return 1;
  return dev.decode ? host_decode.size() : value_count(s.min, s.max);
}

ColumnCache& ColumnCache::instance() {
  static ColumnCache* cache = new ColumnCache();
  return *cache;
}

uint64_t ColumnCache::estimate_bytes(const Column& c) {
  const ColumnStats& s = c.stats();
  if (s.min > s.max) return 0;
  return c.size() * uint64_t(width_for(unsigned_span(s.min, s.max)));
}

bool ColumnCache::resident(const Column* c) {
  std::lock_guard<std::mutex> lock(mutex_);
  return columns_.count(c) > 0;
}

bool ColumnCache::empty() {
  std::lock_guard<std::mutex> lock(mutex_);
  return columns_.empty();
}

void ColumnCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  columns_.clear();
  gpu::MemoryPool::instance().trim();
}

void ColumnCache::release_staging() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& b : staging_) b.release();
}

bool ColumnCache::unique(const ColumnPtr& c) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = unique_.find(c.get());
    if (it != unique_.end()) return it->second.second;
  }
  const ColumnStats& s = c->stats();
  bool u = true;
  if (s.min <= s.max && uint64_t(s.max) - uint64_t(s.min) >= (uint64_t(1) << 32)) {
    // Too wide for a bitmap: sort a copy.
    std::vector<int64_t> v(c->size());
    for (uint64_t i = 0; i < c->size(); i++) v[i] = get_int(*c, i);
    std::sort(v.begin(), v.end());
    u = std::adjacent_find(v.begin(), v.end()) == v.end();
  } else if (s.min <= s.max) {
    const uint64_t range = value_count(s.min, s.max);
    std::vector<uint64_t> bits((range + 63) / 64, 0);
    for (uint64_t i = 0; i < c->size() && u; i++) {
      uint64_t o = uint64_t(get_int(*c, i) - s.min);
      uint64_t m = uint64_t(1) << (o & 63);
      if (bits[o >> 6] & m) u = false;
      bits[o >> 6] |= m;
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  unique_[c.get()] = {c, u};
  return u;
}

const DeviceColumn& ColumnCache::get(const ColumnPtr& cp, cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = columns_.find(cp.get());
  if (it != columns_.end()) return *it->second;
  const Column& c = *cp;
  const TypeId t = c.type().id;
  if (t == TypeId::kDouble) fail(ErrorKind::kNotImplemented, "DOUBLE column {} on the CUDA backend", c.name());
  auto d = std::make_unique<DeviceColumn>();
  d->owner = cp;
  d->rows = c.size();
  const ColumnStats& s = c.stats();
  const int64_t mn = s.min <= s.max ? s.min : 0, mx = s.min <= s.max ? s.max : 0;
  int width = width_for(unsigned_span(mn, mx));
  d->dev.base = mn;
  std::optional<StageScope> stage(std::in_place, Stage::kNarrow);  // --timing: host passes, waits, staging
  if (width >= 4 && c.size() >= 65536) {
    d->host_decode = small_distinct(c, mn, mx, 65536);
    if (!d->host_decode.empty()) width = 2;
  }
  d->dev.width = width;
  const uint64_t n = c.size();
  d->data = gpu::DeviceBuffer(std::max<uint64_t>(n * uint64_t(width), 8), "a column");
  if (!d->host_decode.empty()) {
    d->decode = gpu::DeviceBuffer(d->host_decode.size() * 8, "a column dictionary");
    gpu::check_cuda(cudaMemcpy(d->decode.get(), d->host_decode.data(), d->host_decode.size() * 8, cudaMemcpyHostToDevice),
               "dictionary upload");
    d->dev.decode = d->decode.get<int64_t>();
  }
  d->dev.data = d->data.get();
  // Narrow on the host into pinned chunks, copy asynchronously, two chunks in flight.
  const std::vector<int64_t>& dict = d->host_decode;
  std::vector<int64_t> rank;  // dictionary mode: value - min -> rank
  if (!dict.empty()) {
    rank.assign(size_t(value_count(mn, mx)), -1);
    for (size_t i = 0; i < dict.size(); i++) rank[size_t(unsigned_span(mn, dict[i]))] = int64_t(i);
  }
  cudaEvent_t done[2];
  gpu::check_cuda(cudaEventCreateWithFlags(&done[0], cudaEventDisableTiming), "event");
  gpu::check_cuda(cudaEventCreateWithFlags(&done[1], cudaEventDisableTiming), "event");
  {
    StageScope pin(Stage::kPinnedStaging);
    for (auto& b : staging_) b.ensure(kChunkRows * 8);
  }
  uint64_t chunk = 0;
  for (uint64_t begin = 0; begin < n; begin += kChunkRows, chunk++) {
    const uint64_t len = std::min(kChunkRows, n - begin);
    gpu::PinnedBuffer& buf = staging_[chunk & 1];
    {
      StageScope wait(Stage::kHostToDevice);  // the DMA two chunks back, not hidden by narrowing
      gpu::check_cuda(cudaEventSynchronize(done[chunk & 1]), "staging");
    }
    void* out = buf.get();
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < len; i++) {
      const int64_t v = get_int(c, begin + i);
      const uint64_t st = dict.empty() ? unsigned_span(mn, v) : uint64_t(rank[size_t(unsigned_span(mn, v))]);
      switch (width) {
        case 1: static_cast<uint8_t*>(out)[i] = uint8_t(st); break;
        case 2: static_cast<uint16_t*>(out)[i] = uint16_t(st); break;
        case 4: static_cast<uint32_t*>(out)[i] = uint32_t(st); break;
        default: static_cast<uint64_t*>(out)[i] = st; break;
      }
    }
    gpu::check_cuda(cudaMemcpyAsync(d->data.get<char>() + begin * uint64_t(width), out, len * uint64_t(width),
                               cudaMemcpyHostToDevice, stream),
               "column upload");
    gpu::check_cuda(cudaEventRecord(done[chunk & 1], stream), "event");
  }
  {
    StageScope wait(Stage::kHostToDevice);
    gpu::check_cuda(cudaStreamSynchronize(stream), "column upload");
  }
  stage.reset();
  StageTimes::instance().add_bytes(ByteCount::kToDevice, n * uint64_t(width) + d->host_decode.size() * 8);
  cudaEventDestroy(done[0]);
  cudaEventDestroy(done[1]);
  auto& ref = *d;
  columns_.emplace(cp.get(), std::move(d));
  return ref;
}

}  // namespace raydb::exec::cuda
