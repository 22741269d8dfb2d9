#include "exec/cuda/column_cache.h"

#include "common/int_math.h"
#include "common/prefault_pages.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <atomic>
#include <optional>

#include "common/error.h"
#include "common/stage_times.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/kernels.h"
#include "exec/cuda/narrowed_upload.h"
#include "exec/cuda/prefetch_registry.h"
#include "exec/cuda/prefetched_upload.h"
#include "exec/cuda/staging_ring.h"
#include "gpu/memory_pool.h"
#include "storage/narrow_encoder.h"
#include "storage/packed_layout.h"

namespace raydb::exec::cuda {

namespace {

constexpr uint64_t kChunkRows = uint64_t(1) << 23;  // rows per staging chunk (narrowing here)

int64_t get_int(const Column& c, uint64_t i) {
  return c.type().physical_width() == 4 ? int64_t(c.data<int32_t>()[i]) : c.data<int64_t>()[i];
}

std::atomic<bool> g_fast_load{true};
std::atomic<uint64_t> g_upload_chunk{uint64_t(16) << 20};
std::atomic<int> g_upload_streams{8};
std::atomic<uint64_t> g_upload_staging{uint64_t(32) << 20};

}  // namespace

const NarrowedFile* fast_source(const Column& c) {
  const NarrowedFile* f = c.narrowed().get();
  return g_fast_load.load() && f && f->rows == c.size() ? f : nullptr;
}

void use_fast_load(bool on, uint64_t chunk_bytes) {
  g_fast_load.store(on);
  g_upload_chunk.store(chunk_bytes);
}

void use_upload_streams(int streams, uint64_t staging_bytes) {
  g_upload_streams.store(streams);
  g_upload_staging.store(staging_bytes);
}

std::vector<std::pair<uint64_t, uint64_t>> DeviceColumn::stored_ranges(
    const std::vector<std::pair<int64_t, int64_t>>& ranges) const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  const ColumnStats& s = owner->stats();
  if (rows == 0 || s.min > s.max) return out;
  // At most one stored range per value range: when many, one allocation with its pages
  // faulted in on all threads, not a doubling series copied again at each growth (a NOT
  // LIKE over a comment dictionary: ~3 * 10^5 ranges at SF 20).
  prefaulted_reserve(out, ranges.size());
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
  if (c.narrowed()) return c.narrowed()->value_bytes();  // the form chosen at load
  const ColumnStats& s = c.stats();
  if (s.min > s.max) return 0;
  return c.size() * uint64_t(NarrowEncoder::width_for(unsigned_span(s.min, s.max)));
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
  StagingRing::instance().release();
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
  if (c.type().id == TypeId::kDouble) fail(ErrorKind::kNotImplemented, "DOUBLE column {} on the CUDA backend", c.name());
  auto d = std::make_unique<DeviceColumn>();
  d->owner = cp;
  d->rows = c.size();
  if (const NarrowedFile* f = fast_source(c)) {
    d->dev.base = f->base;
    d->dev.width = f->width;
    d->data = gpu::DeviceBuffer(std::max<uint64_t>(f->value_bytes(), 8), "a column");
    if (auto ahead = PrefetchRegistry::instance().take(&c)) {
      // Read ahead (setting prefetch): copied up on several streams, verified before use.
      const int streams = g_upload_streams.load();
      upload_prefetched(*ahead->file, d->data.get(), d->host_decode, StagingRing::instance(), streams,
                        StagingRing::buffer_bytes(streams, g_upload_staging.load()));
    } else {
      upload_narrowed(*f, d->data.get(), d->host_decode, staging_, stream, g_upload_chunk.load());
    }
  } else {
    upload_narrowing(c, *d, stream);
  }
  if (!d->host_decode.empty()) {
    d->decode = gpu::DeviceBuffer(d->host_decode.size() * 8, "a column dictionary");
    gpu::check_cuda(cudaMemcpy(d->decode.get(), d->host_decode.data(), d->host_decode.size() * 8, cudaMemcpyHostToDevice),
                    "dictionary upload");
    d->dev.decode = d->decode.get<int64_t>();
    StageTimes::instance().add_bytes(ByteCount::kToDevice, d->host_decode.size() * 8);
  }
  d->dev.data = d->data.get();
  auto& ref = *d;
  columns_.emplace(cp.get(), std::move(d));
  return ref;
}

std::pair<const uint32_t*, int> ColumnCache::packed(const DeviceColumn& dc, PackMode mode, cudaStream_t stream) {
  // Only 1-4 byte stored values: the packed kernels run on 32-bit values.
  const int bits = dc.dev.width <= 4 ? choose_pack_bits(dc.stored_range(), dc.dev.width, dc.rows, mode) : 0;
  if (bits == 0) return {nullptr, 0};
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = columns_.find(dc.owner.get());
  if (it == columns_.end() || it->second.get() != &dc) return {nullptr, 0};  // dropped meanwhile
  DeviceColumn& d = *it->second;
  if (d.packed_bits != bits) {
    const uint64_t bytes = packed_words(d.rows, bits) * 4;
    // The copy comes on top of what the query planned for (the streaming choice and
    // transfer cost count narrowed bytes only): keep a quarter of the budget free for
    // the query's own scratch, else read the narrowed copy.
    const gpu::PoolStats pool = gpu::MemoryPool::instance().stats();
    if (pool.budget && pool.in_use + bytes > pool.budget - pool.budget / 4) return {nullptr, 0};
    try {
      d.packed = gpu::DeviceBuffer(bytes, "a packed column");
    } catch (const Error&) {  // over the memory budget: read the narrowed copy
      d.packed_bits = 0;
      return {nullptr, 0};
    }
    gpu::check_cuda(cudaMemsetAsync(d.packed.get(), 0, bytes, stream), "packed column");
    launch_pack(d.data.get(), d.dev.width, d.rows, bits, d.packed.get<uint32_t>(), stream);
    gpu::check_cuda(cudaGetLastError(), "packing a column");
    d.packed_bits = bits;
  }
  return {d.packed.get<uint32_t>(), bits};
}

// Today's path, and the one for databases without narrowed files: the mapped column
// verified, narrowed on the host into pinned chunks, copied asynchronously with two
// chunks in flight.
void ColumnCache::upload_narrowing(const Column& c, DeviceColumn& d, cudaStream_t stream) {
  c.verify();  // on this thread: the encoder's worker threads read the column
  std::optional<StageScope> stage(std::in_place, Stage::kNarrow);  // --timing: host passes, waits, staging
  const NarrowEncoder enc(c.type(), c.data<char>(), c.size(), c.stats());
  d.dev.base = enc.base();
  d.dev.width = enc.width();
  d.host_decode = enc.decode();
  const uint64_t n = c.size();
  const uint64_t width = uint64_t(enc.width());
  d.data = gpu::DeviceBuffer(std::max<uint64_t>(n * width, 8), "a column");
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
    enc.encode(begin, len, buf.get());
    gpu::check_cuda(cudaMemcpyAsync(d.data.get<char>() + begin * width, buf.get(), len * width,
                                    cudaMemcpyHostToDevice, stream),
                    "column upload");
    gpu::check_cuda(cudaEventRecord(done[chunk & 1], stream), "event");
  }
  {
    StageScope wait(Stage::kHostToDevice);
    gpu::check_cuda(cudaStreamSynchronize(stream), "column upload");
  }
  stage.reset();
  StageTimes::instance().add_bytes(ByteCount::kToDevice, n * width);
  cudaEventDestroy(done[0]);
  cudaEventDestroy(done[1]);
}

}  // namespace raydb::exec::cuda
