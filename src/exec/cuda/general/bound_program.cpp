#include "exec/cuda/general/bound_program.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/cuda/column_cache.h"
#include "exec/cuda/general/tuples.h"

namespace raydb::exec::cuda::general {

namespace {

// DOUBLE columns as stored (8-byte bits): the column cache narrows integers only.
class RawColumns {
 public:
  static const int64_t* get(const ColumnPtr& c, cudaStream_t s) {
    std::lock_guard<std::mutex> lock(mutex());
    auto& cache = columns();
    auto it = cache.find(c.get());
    if (it != cache.end()) return it->second.second->get<int64_t>();
    auto buf = std::make_unique<gpu::DeviceBuffer>(std::max<uint64_t>(c->size() * 8, 8), "a DOUBLE column");
    // On the query's stream: pooled memory may still be read by its earlier kernels.
    if (c->size())
      gpu::check_cuda(cudaMemcpyAsync(buf->get(), c->data<double>(), c->size() * 8, cudaMemcpyHostToDevice, s), "upload");
    gpu::check_cuda(cudaStreamSynchronize(s), "upload");
    const int64_t* p = buf->get<int64_t>();
    cache.emplace(c.get(), std::make_pair(c, std::move(buf)));
    return p;
  }
  static void clear() {
    std::lock_guard<std::mutex> lock(mutex());
    columns().clear();
  }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::map<const Column*, std::pair<ColumnPtr, std::unique_ptr<gpu::DeviceBuffer>>>& columns() {
    static auto* cache = new std::map<const Column*, std::pair<ColumnPtr, std::unique_ptr<gpu::DeviceBuffer>>>();
    return *cache;  // never destroyed at exit: may outlive the CUDA context
  }
};

// Shared lookup tables (HostLookup::shared, a string function's per-code map) on the
// device, the last few kept: q22 scans customer three times per statement through
// substr(c_phone, 1, 2)'s 27 MB map, each scan uploading it again. Keyed by the host
// table, held so its address stays its own.
class SharedLookups {
 public:
  // A table's device copy; a bound program holds it, so leaving the cache frees nothing in use.
  struct Device {
    gpu::DeviceBuffer values, nulls;
  };
  static std::shared_ptr<const Device> get(const std::shared_ptr<const HostLookup>& t, cudaStream_t s) {
    std::lock_guard<std::mutex> lock(mutex());
    auto& cache = entries();
    for (auto& e : cache)
      if (e.first == t) return e.second;
    auto d = std::make_shared<Device>();
    d->values = gpu::DeviceBuffer(std::max<uint64_t>(t->values.size() * 8, 8), "a lookup table");
    d->nulls = gpu::DeviceBuffer(std::max<uint64_t>(t->nulls.size(), 1), "a lookup table");
    // On the query's stream: pooled memory may still be read by its earlier kernels.
    if (!t->values.empty())
      gpu::check_cuda(cudaMemcpyAsync(d->values.get(), t->values.data(), t->values.size() * 8, cudaMemcpyHostToDevice, s),
                      "upload");
    if (!t->nulls.empty())
      gpu::check_cuda(cudaMemcpyAsync(d->nulls.get(), t->nulls.data(), t->nulls.size(), cudaMemcpyHostToDevice, s),
                      "upload");
    gpu::check_cuda(cudaStreamSynchronize(s), "upload");
    if (cache.size() >= kKept) cache.erase(cache.begin());
    cache.emplace_back(t, d);
    return d;
  }
  static void clear() {
    std::lock_guard<std::mutex> lock(mutex());
    entries().clear();
  }

 private:
  static constexpr size_t kKept = 8;
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  using Entry = std::pair<std::shared_ptr<const HostLookup>, std::shared_ptr<const Device>>;
  static std::vector<Entry>& entries() {
    static auto* cache = new std::vector<Entry>();
    return *cache;  // never destroyed at exit: may outlive the CUDA context
  }
};

}  // namespace

void clear_double_columns() {
  RawColumns::clear();
  SharedLookups::clear();
}

std::unique_ptr<BoundProgram> bind(const CompiledProgram& p, cudaStream_t s, uint64_t& bytes_read) {
  auto b = std::make_unique<BoundProgram>();
  b->src = &p;
  std::vector<ProgColumn> cols;
  for (auto& c : p.columns) {
    ProgColumn pc;
    pc.table = c.table;
    if (c.column->type().id == TypeId::kDouble) {
      pc.raw = RawColumns::get(c.column, s);
      bytes_read += c.column->size() * 8;
    } else {
      const DeviceColumn& dc = ColumnCache::instance().get(c.column, s);
      pc.col = dc.dev;
      bytes_read += dc.bytes();
    }
    cols.push_back(pc);
  }
  std::vector<ProgLookup> lks;
  for (auto& t : p.lookups) {
    if (t.shared) {
      std::shared_ptr<const SharedLookups::Device> d = SharedLookups::get(t.shared, s);
      ProgLookup l;
      l.values = d->values.get<int64_t>();
      l.nulls = d->nulls.get<uint8_t>();
      l.base = t.shared->base;
      l.size = t.shared->values.size();
      lks.push_back(l);
      b->shared_tables.push_back(std::move(d));
      continue;
    }
    gpu::DeviceBuffer v, n;
    upload(v, t.values, "a lookup table", s);
    upload(n, t.nulls, "a lookup table", s);
    ProgLookup l;
    l.values = v.get<int64_t>();
    l.nulls = n.get<uint8_t>();
    l.base = t.base;
    l.size = t.values.size();
    lks.push_back(l);
    b->tables.push_back(std::move(v));
    b->tables.push_back(std::move(n));
  }
  upload(b->ins, p.ins, "a GPU program", s);
  upload(b->cols, cols, "a GPU program", s);
  upload(b->lookups, lks, "a GPU program", s);
  b->dev.ins = b->ins.get<ProgInstr>();
  b->dev.cols = b->cols.get<ProgColumn>();
  b->dev.lookups = b->lookups.get<ProgLookup>();
  b->dev.n = int(p.ins.size());
  b->host_cols = std::move(cols);
  b->host_lookups = std::move(lks);
  return b;
}

}  // namespace raydb::exec::cuda::general
