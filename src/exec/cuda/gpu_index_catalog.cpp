#include "exec/cuda/gpu_index_catalog.h"

#include <cstdio>
#include <map>
#include <mutex>

#include "access/gpu/gpu_indexes.h"
#include "access/rt_index/index_config.h"
#include "access/rt_scan/gpu_scan_index.h"
#include "access/rt_scan/scan_index_config.h"
#include "common/error.h"
#include "exec/cuda/cuda_backend.h"
#include "gpu/memory_pool.h"
#include "rt/tracer.h"

namespace raydb::exec::cuda {

namespace {

// The value of option `name` as written at CREATE INDEX, if it was.
const std::string* option(const IndexDefinition& def, const char* name) {
  for (auto& [k, v] : def.options)
    if (iequals(k, name)) return &v;
  return nullptr;
}

class GpuIndexCatalog {
 public:
  static GpuIndexCatalog& instance() {
    static GpuIndexCatalog* c = new GpuIndexCatalog();  // never destroyed: indexes may outlive statics
    return *c;
  }

  std::shared_ptr<const BuiltIndex> get(const IndexDefinition& def, const TablePtr& table) {
    std::lock_guard<std::mutex> g(mutex_);
    const Key key{table.get(), to_lower(def.name)};
    auto it = built_.find(key);
    if (it != built_.end() && it->second.def.column == def.column && it->second.def.kind == def.kind &&
        it->second.def.options == def.options)
      return it->second.index;
    // Indexes of tables no one else holds any more (replaced or dropped) leave the
    // device: the entry and its index hold two references.
    for (auto e = built_.begin(); e != built_.end();)
      e = e->second.table.use_count() <= 2 ? built_.erase(e) : std::next(e);
    int column = -1;
    for (size_t c = 0; c < table->column_count(); c++)
      if (iequals(table->column(c).name(), def.column)) column = int(c);
    if (column < 0) fail(ErrorKind::kCatalog, "index {}: table {} has no column {}", def.name, table->name(), def.column);
    const access::IndexConfig config = access::parse_index_config(def.kind, def.options);
    std::string why;
    const plan::IndexKind kind = config.kind == access::IndexKind::kRt       ? plan::IndexKind::kRt
                                 : config.kind == access::IndexKind::kSorted ? plan::IndexKind::kSorted
                                                                             : plan::IndexKind::kHash;
    if (!gpu_index_supported(kind, &why)) fail(ErrorKind::kNotImplemented, "index {}: {}", def.name, why);
    // rt-gpu is the interval-bucket RT index (duplicates always compressed); of the
    // RT options it takes bucket_size and sorted_probes, the GPU defaults otherwise
    // (16384 units per bucket and unsorted probes, by measurement on the H200).
    access::GpuIndexOptions o;
    o.memory = &gpu::MemoryPool::instance();
    if (option(def, "sorted_probes"))
      o.sorted_probes = kind == plan::IndexKind::kRt ? config.rt.sorted_probes : config.baseline.sorted_probes;
    if (kind == plan::IndexKind::kRt && option(def, "bucket_size")) o.bucket_size = config.rt.bucket_size;
    BuiltIndex::Factory make;
    switch (kind) {
      case plan::IndexKind::kRt:
        // Kept for the process, as the indexes; its BVHs count against the memory budget.
        if (!tracer_) tracer_ = rt::make_optix_tracer_on(gpu::MemoryPool::instance()).release();
        make = [&](std::span<const uint64_t> keys) { return access::make_gpu_rt(*tracer_, keys, {}, o); };
        break;
      case plan::IndexKind::kSorted:
        make = [&](std::span<const uint64_t> keys) { return access::make_gpu_sorted_array(keys, {}, o); };
        break;
      case plan::IndexKind::kHash:
        make = [&](std::span<const uint64_t> keys) { return access::make_gpu_hash(keys, {}, o); };
        break;
      case plan::IndexKind::kRtScan:  // multi-column: get_scan builds them
        fail(ErrorKind::kInternal, "index {}: an RT scan index asked for as a single-column index", def.name);
    }
    auto index = std::make_shared<const BuiltIndex>(def.name, kind, table, column, make);
    const access::IndexStats& st = index->index().stats();
    std::fprintf(stderr, "index %s: built %llu keys on the GPU (%s) in %.1f ms (upload %.1f ms, device build %.1f ms), %.1f MiB resident\n",
                 def.name.c_str(), (unsigned long long)index->rows, index->method.c_str(), index->build_ms(),
                 st.upload_ms, st.build_ms, double(st.memory_bytes) / (1 << 20));
    built_[key] = Entry{def, table, index};
    return index;
  }

  // The GPU-resident RT scan index for `def` (USING RTSCAN): rt on OptiX where OptiX
  // runs, gpu-scan and gpu-sieve always; the build is accounted in the memory pool.
  std::shared_ptr<const BuiltScanIndex> get_scan(const IndexDefinition& def, const TablePtr& table) {
    std::lock_guard<std::mutex> g(mutex_);
    const Key key{table.get(), to_lower(def.name)};
    auto it = built_scan_.find(key);
    if (it != built_scan_.end() && it->second.def.column_list() == def.column_list() &&
        it->second.def.options == def.options)
      return it->second.index;
    for (auto e = built_scan_.begin(); e != built_scan_.end();)
      e = e->second.table.use_count() <= 2 ? built_scan_.erase(e) : std::next(e);
    const std::vector<std::string> names = def.column_list();
    std::vector<int> columns;
    for (const std::string& name : names) {
      int column = -1;
      for (size_t c = 0; c < table->column_count(); c++)
        if (iequals(table->column(c).name(), name)) column = int(c);
      if (column < 0) fail(ErrorKind::kCatalog, "index {}: table {} has no column {}", def.name, table->name(), name);
      columns.push_back(column);
    }
    access::rt_scan::RtScanOptions o = access::rt_scan::parse_scan_index_options(def.options, names);
    const rt::OptixDeviceInfo& optix = rt::optix_device_info();
    if (!optix.built || !optix.available) o.build_rt = false;  // gpu-scan and gpu-sieve only
    if (o.build_rt && !tracer_) tracer_ = rt::make_optix_tracer_on(gpu::MemoryPool::instance()).release();
    rt::Tracer* tracer = o.build_rt ? tracer_ : nullptr;
    auto index = std::make_shared<const BuiltScanIndex>(
        def.name, o, table, columns,
        [tracer](std::span<const access::rt_scan::ScanColumn> c, const access::rt_scan::RtScanOptions& opt) {
          return std::unique_ptr<access::rt_scan::ScanIndex>(access::rt_scan::make_gpu_scan_index(c, opt, tracer));
        });
    std::string methods;
    for (auto m : index->index().methods())
      methods += std::string(methods.empty() ? "" : ", ") + access::rt_scan::scan_method_name(m);
    std::fprintf(stderr, "index %s: built %llu rows x %zu columns on the GPU (rtscan: %s) in %.1f ms, %.1f MiB resident\n",
                 def.name.c_str(), (unsigned long long)index->rows, columns.size(), methods.c_str(), index->build_ms(),
                 double(index->index().build_stats().device_bytes()) / (1 << 20));
    built_scan_[key] = ScanEntry{def, table, index};
    return index;
  }

  void clear() {
    std::lock_guard<std::mutex> g(mutex_);
    built_.clear();
    built_scan_.clear();
  }
  // clear() and the OptiX tracer the RT indexes were built on (its context and
  // programs); only when no index from get() is still held.
  void release() {
    std::lock_guard<std::mutex> g(mutex_);
    built_.clear();
    built_scan_.clear();
    delete tracer_;
    tracer_ = nullptr;
  }

 private:
  using Key = std::pair<const Table*, std::string>;
  struct Entry {
    IndexDefinition def;
    TablePtr table;
    std::shared_ptr<const BuiltIndex> index;
  };
  struct ScanEntry {
    IndexDefinition def;
    TablePtr table;
    std::shared_ptr<const BuiltScanIndex> index;
  };
  std::mutex mutex_;
  rt::Tracer* tracer_ = nullptr;  // OptiX, made with the first RT index
  std::map<Key, Entry> built_;
  std::map<Key, ScanEntry> built_scan_;
};

}  // namespace

bool gpu_index_supported(plan::IndexKind kind, std::string* why) {
  if (device_count() == 0) {
    if (why) *why = "no CUDA device: " + no_device_reason();
    return false;
  }
  if (kind == plan::IndexKind::kRtScan) return access::rt_scan::gpu_scan_available(why);
  if (!access::gpu_indexes_available(why)) return false;
  if (kind == plan::IndexKind::kRt) {
    const rt::OptixDeviceInfo& o = rt::optix_device_info();
    if (!o.built || !o.available) {
      if (why) *why = "rt-gpu needs OptiX: " + (o.reason.empty() ? std::string("not available") : o.reason);
      return false;
    }
  }
  return true;
}

std::shared_ptr<const BuiltIndex> gpu_index(const IndexDefinition& def, const TablePtr& table) {
  return GpuIndexCatalog::instance().get(def, table);
}

std::shared_ptr<const BuiltScanIndex> gpu_scan_index(const IndexDefinition& def, const TablePtr& table) {
  return GpuIndexCatalog::instance().get_scan(def, table);
}

void clear_gpu_indexes() { GpuIndexCatalog::instance().clear(); }
void release_gpu_indexes() { GpuIndexCatalog::instance().release(); }

rt::Tracer& gpu_view_tracer() {
  std::string why;
  if (!gpu_index_supported(plan::IndexKind::kRt, &why)) fail(ErrorKind::kNotImplemented, "RT views on the GPU: {}", why);
  // Kept for the process (the views built on it are), as the indexes' tracer is.
  static rt::Tracer* tracer = rt::make_optix_tracer_on(gpu::MemoryPool::instance()).release();
  return *tracer;
}

}  // namespace raydb::exec::cuda
