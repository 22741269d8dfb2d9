#include "exec/cuda/host_column_cache.h"

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "common/stage_times.h"
#include "exec/cuda/narrowed_upload.h"
#include "storage/narrow_encoder.h"
#include "storage/persist/narrowed_reader.h"

namespace raydb::exec::cuda {

namespace {

constexpr uint64_t kEncodeRows = uint64_t(1) << 23;  // rows per narrowing call (each runs on every thread)
constexpr uint64_t kReadBytes = uint64_t(16) << 20;   // one read of a narrowed file into the pinned copy

// The narrowed file read whole into pinned memory, checksummed on the way.
void read_narrowed(const NarrowedFile& f, HostColumn& h) {
  StageScope read(Stage::kReadVerify);
  h.meta.dev.base = f.base;
  h.meta.dev.width = f.width;
  h.values.ensure(std::max<uint64_t>(f.bytes(), 8));
  persist::NarrowedReader reader(f);
  while (reader.remaining() > 0) reader.read(h.values.get<char>() + reader.offset(), kReadBytes);
  StageTimes::instance().add_bytes(ByteCount::kColumnFileRead, f.bytes());
  reader.verify();
  h.meta.host_decode.assign(f.distinct, 0);
  if (f.distinct > 0) std::memcpy(h.meta.host_decode.data(), h.values.get<char>() + f.value_bytes(), f.distinct * 8);
}

// No narrowed file (an older database, or fast_load off): narrowed here, as
// ColumnCache does, into the pinned buffer.
void narrow_here(const Column& c, HostColumn& h) {
  c.verify();
  StageScope stage(Stage::kNarrow);
  const NarrowEncoder enc(c.type(), c.data<char>(), c.size(), c.stats());
  h.meta.dev.base = enc.base();
  h.meta.dev.width = enc.width();
  h.meta.host_decode = enc.decode();
  h.values.ensure(std::max<uint64_t>(enc.encoded_bytes(), 8));
  for (uint64_t b = 0; b < c.size(); b += kEncodeRows)
    enc.encode(b, std::min(kEncodeRows, c.size() - b), h.values.get<char>() + b * uint64_t(enc.width()));
}

}  // namespace

HostColumnCache& HostColumnCache::instance() {
  static HostColumnCache* cache = new HostColumnCache();  // never destroyed: may outlive the CUDA context
  return *cache;
}

bool HostColumnCache::holds(const Column* c) {
  std::lock_guard<std::mutex> lock(mutex_);
  return columns_.count(c) > 0;
}

void HostColumnCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  columns_.clear();
}

const HostColumn& HostColumnCache::get(const ColumnPtr& cp, cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = columns_.find(cp.get()); it != columns_.end()) return *it->second;
  const Column& c = *cp;
  if (c.type().id == TypeId::kDouble) fail(ErrorKind::kNotImplemented, "DOUBLE column {} on the CUDA backend", c.name());
  auto h = std::make_unique<HostColumn>();
  h->meta.owner = cp;
  h->meta.rows = c.size();
  if (const NarrowedFile* f = fast_source(c))
    read_narrowed(*f, *h);
  else
    narrow_here(c, *h);
  if (!h->meta.host_decode.empty()) {
    const uint64_t bytes = h->meta.host_decode.size() * 8;
    h->meta.decode = gpu::DeviceBuffer(bytes, "a column dictionary");
    // Pageable source: the copy has left host_decode when cudaMemcpyAsync returns.
    gpu::check_cuda(cudaMemcpyAsync(h->meta.decode.get(), h->meta.host_decode.data(), bytes, cudaMemcpyHostToDevice,
                                    stream),
                    "dictionary upload");
    h->meta.dev.decode = h->meta.decode.get<int64_t>();
    StageTimes::instance().add_bytes(ByteCount::kToDevice, bytes);
  }
  h->meta.dev.data = nullptr;
  auto& ref = *h;
  columns_.emplace(cp.get(), std::move(h));
  return ref;
}

}  // namespace raydb::exec::cuda
