// The GPU-resident RT scan index (gpu_scan_index.h): every structure built on the
// device, queries planned on the host (ScanModel: a few hundred bytes per job go up),
// bit vectors computed and combined on the device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "access/gpu/index_errors.h"
#include "access/gpu/index_memory.h"
#include "gpu/memory_pool.h"
#include "gpu/pinned_buffer.h"
#include "gpu/staged_copy.h"
#include "access/rt_scan/gpu/scan_ops.h"
#include "access/rt_scan/gpu_scan_index.h"
#include "access/rt_scan/scan_plan.h"
#include "common/error.h"
#include "common/timer.h"

namespace raydb::access::rt_scan {

namespace {

namespace mp = rt::mapping;

// This index's arrays: the gpu/ layer's DeviceArray on the accounted pool (so the SQL
// executor's budget sees the index, and a query's temporaries come from pooled blocks
// instead of a cudaMalloc/cudaFree pair each), failing in the GPU indexes' wording.
template <typename T>
class DeviceArray : public raydb::gpu::DeviceArray<T> {
 public:
  DeviceArray() { this->use(memory()); }
  explicit DeviceArray(size_t n) : raydb::gpu::DeviceArray<T>(n, memory()) {}
  void upload(std::span<const T> host) { raydb::gpu::DeviceArray<T>::upload(host, access::gpu::kIndexCallErrors); }
  void copy_out(std::span<T> host) const {
    raydb::gpu::DeviceArray<T>::copy_out(host, access::gpu::kIndexCallErrors);
  }
  static void cuda_ok(cudaError_t e, const char* what) { raydb::gpu::check_cuda(e, what, access::gpu::kIndexCallErrors); }
  static raydb::gpu::DeviceMemory& memory() { return raydb::gpu::MemoryPool::instance(); }
};

template <typename T>
DeviceArray<T> up(std::span<const T> host) {
  DeviceArray<T> d;
  d.upload(host);
  return d;
}

// One column on the device.
struct DeviceColumn {
  DeviceArray<uint64_t> nulls;         // empty: no NULLs
  DeviceArray<uint32_t> ranks;
  DeviceArray<uint32_t> rows_by_rank;  // kGpuSieve
  DeviceArray<uint64_t> narrow;        // value - base, 4 or 8 bytes per row (kGpuScan)
  int width = 8;
  int64_t base = 0;
  DeviceArray<uint8_t> codes;   // the sieving vectors F_1..F_{m-1} as a bin code per row (gpu::build_bin_codes)
  int code_width = 1;
};

// A group's occupied cells (rows grouped by cell, first position of each).
struct DeviceCells {
  DeviceArray<uint32_t> rows, start;
};

class GpuScanIndexImpl;

struct GpuEngine {
  using Bits = DeviceArray<uint64_t>;
  const GpuScanIndexImpl& ix;
  ScanMethod method;
  ScanQueryStats& st;
  Bits make(bool ones) const;
  Bits ones() const { return make(true); }
  Bits zeros() const { return make(false); }
  void and_into(Bits& a, const Bits& b) const { gpu::combine_words(a.data(), b.data(), a.size(), false); }
  void or_into(Bits& a, const Bits& b) const { gpu::combine_words(a.data(), b.data(), a.size(), true); }
  Bits conjunction(const std::vector<Term>& terms) const;
};

class GpuScanIndexImpl final : public GpuScanIndex {
 public:
  GpuScanIndexImpl(std::span<const ScanColumn> columns, const RtScanOptions& o, rt::Tracer* optix);
  std::string name() const override { return tracer_ ? "rtscan-optix" : "rtscan-gpu"; }
  uint64_t rows() const override { return model_.rows; }
  uint32_t columns() const override { return static_cast<uint32_t>(cols_.size()); }
  bool on_gpu() const override { return true; }
  std::vector<ScanMethod> methods() const override {
    std::vector<ScanMethod> m;
    if (!accels_.empty()) m.push_back(ScanMethod::kRt);
    if (model_.options.build_scan) m.push_back(ScanMethod::kGpuScan);
    if (sieve_methods()) m.push_back(ScanMethod::kGpuSieve);
    return m;
  }
  const ScanBuildStats& build_stats() const override { return stats_; }
  const std::vector<std::vector<uint32_t>>& groups() const override { return model_.groups; }
  void set_sieve_mode(SieveMode m) override { model_.options.sieve = m; }
  std::string explain(const ScanExpr& e) const override { return model_.explain(e, mode()); }
  ScanEstimate estimate(const ScanExpr& e) const override { return model_.estimate(e, mode()); }
  void evaluate(const ScanExpr& e, ScanMethod method, BitVector& out, ScanQueryStats* stats) const override;
  void evaluate_device(const ScanExpr& e, ScanMethod method, uint64_t* out_words, ScanQueryStats* stats) const override;

  bool sieve_methods() const { return model_.options.build_sieve && model_.options.sieve_refine; }
  SieveMode mode() const { return model_.options.build_sieve ? model_.options.sieve : SieveMode::kOff; }
  uint64_t words() const { return (model_.rows + 63) / 64; }
  DeviceArray<uint64_t> scan(const std::vector<Term>& terms, ScanQueryStats& st) const;
  void scan_into(const std::vector<Term>& terms, uint64_t* out, ScanQueryStats& st) const;
  DeviceArray<uint64_t> group_job(const GroupJob& job, ScanMethod method, ScanQueryStats& st) const;
  const ScanModel& model() const { return model_; }

 private:
  void build_column(uint32_t c);
  void build_rt(rt::Tracer& tracer);
  void refine_rt(const GroupJob& job, uint64_t* bits, ScanQueryStats& st) const;
  void refine_cuda(const GroupJob& job, uint64_t* bits, ScanQueryStats& st) const;

  std::vector<ScanColumn> cols_;
  ScanModel model_;
  std::vector<DeviceColumn> dev_;
  std::vector<mp::ScanCubes> cubes_;  // device pointers; addresses fixed after the build
  std::vector<DeviceCells> cells_;
  std::vector<std::unique_ptr<rt::Accel>> accels_;
  rt::Tracer* tracer_ = nullptr;
  ScanBuildStats stats_;
  mutable raydb::gpu::PinnedBuffer staging_;  // host results (evaluate)
  mutable std::mutex staging_mutex_;
};

GpuEngine::Bits GpuEngine::make(bool ones) const {
  Bits b(ix.words());
  gpu::fill_words(b.data(), b.size(), ix.rows(), ones);
  return b;
}

GpuEngine::Bits GpuEngine::conjunction(const std::vector<Term>& terms) const {
  if (method == ScanMethod::kGpuScan) {
    st.groups += 1;
    return ix.scan(terms, st);
  }
  Bits acc;
  bool first = true;
  for (const GroupJob& job : ix.model().plan(terms, ix.mode())) {
    Bits b = ix.group_job(job, method, st);
    if (first)
      acc = std::move(b);
    else
      and_into(acc, b);
    first = false;
  }
  return first ? ones() : std::move(acc);
}

GpuScanIndexImpl::GpuScanIndexImpl(std::span<const ScanColumn> columns, const RtScanOptions& o, rt::Tracer* optix)
    : cols_(columns.begin(), columns.end()) {
  Timer total;
  if (cols_.empty()) fail(ErrorKind::kInvalidInput, "rt scan: no columns");
  model_.rows = cols_[0].values.size();
  if (model_.rows >= (uint64_t{1} << 31)) fail(ErrorKind::kInvalidInput, "GPU RT scan: {} rows exceed 2^31 - 1", model_.rows);
  for (const ScanColumn& c : cols_)
    if (c.values.size() != model_.rows) fail(ErrorKind::kInvalidInput, "rt scan: columns of different lengths");
  model_.options = o;
  dev_.resize(cols_.size());
  for (uint32_t c = 0; c < cols_.size(); ++c) build_column(c);
  model_.set_groups(o, static_cast<uint32_t>(cols_.size()), kGpuSegmentCells);
  cubes_.resize(model_.groups.size());
  for (uint32_t g = 0; g < model_.groups.size(); ++g) {
    mp::ScanCubes& s = cubes_[g];
    s = {};
    for (size_t d = 0; d < model_.groups[g].size(); ++d) s.ranks[d] = dev_[model_.groups[g][d]].ranks.data();
    s.layout = model_.layouts[g];
    s.rows = static_cast<uint32_t>(model_.rows);
  }
  if (o.build_rt && optix != nullptr) build_rt(*optix);
  // Everything lives on the device now: forget the host spans (the caller may free them).
  for (ScanColumn& c : cols_) c = ScanColumn{};
  // The build's temporaries (the column upload, sort buffers) went back to the pool:
  // return them to the device, so what stays held is the index.
  raydb::gpu::MemoryPool::instance().trim();
  stats_.total_ms = total.elapsed_ms();
}

void GpuScanIndexImpl::build_column(uint32_t c) {
  const ScanColumn& col = cols_[c];
  DeviceColumn& d = dev_[c];
  const uint32_t n = static_cast<uint32_t>(model_.rows);
  Timer t;
  DeviceArray<int64_t> values(n);  // staged: a pageable 800 MB upload ran at ~9 GB/s
  raydb::gpu::copy_to_device_staged(values.data(), col.values.data(), uint64_t{n} * sizeof(int64_t));
  if (!col.nulls.empty()) d.nulls = up(col.nulls.subspan(0, (n + 63) / 64));
  const double upload_ms = t.elapsed_ms();
  t.reset();
  d.ranks.allocate(n);
  if (sieve_methods()) d.rows_by_rank.allocate(n);
  MappingTable table;
  table.rows = n;
  table.valid = gpu::encode_column(values.data(), d.nulls.data(), n, c, d.ranks.data(), d.rows_by_rank.data(),
                                   table.values, table.first);
  // Narrowed values for the fused scan: offsets from the minimum in 4 bytes when they fit.
  d.base = table.values.empty() ? 0 : table.values.front();
  const uint64_t span = table.values.empty() ? 0 : static_cast<uint64_t>(table.values.back()) - static_cast<uint64_t>(d.base);
  d.width = span < (uint64_t{1} << 32) ? 4 : 8;
  if (model_.options.build_scan) {
    d.narrow.allocate(gpu::narrow_words(n, d.width));
    gpu::narrow_values(values.data(), n, d.base, d.width, d.narrow.data());
  }
  values.reset();
  const uint64_t host_bytes = table.bytes();
  model_.tables.push_back(std::move(table));
  model_.borders.push_back(sieve_borders(model_.tables.back(), std::max<uint32_t>(model_.options.bins, 1)));
  stats_.structures.push_back({fmt::format("upload c{}", c), upload_ms, 0, 0});  // the column's values, then freed
  stats_.structures.push_back({fmt::format("encoding c{}", c), t.elapsed_ms(), host_bytes,
                               d.ranks.bytes() + d.rows_by_rank.bytes() + d.narrow.bytes() + d.nulls.bytes()});
  if (!model_.options.build_sieve) return;
  t.reset();
  const SieveBorders& b = model_.borders.back();
  if (b.bins() >= 1) {  // X_1..X_m (X_m: the non-NULL count, so NULL rows get code m)
    DeviceArray<uint32_t> borders = up(std::span<const uint32_t>(b.x).subspan(1, b.bins()));
    d.code_width = gpu::code_width(b.bins());
    // Padded to whole 64-row words (+32 bytes): the 1-byte sieve kernel reads 32 codes at a time.
    d.codes.allocate((uint64_t{n} + 63) / 64 * 64 * d.code_width + 32);
    gpu::build_bin_codes(d.ranks.data(), n, borders.data(), b.bins(), d.code_width, d.codes.data());
  }
  stats_.structures.push_back({fmt::format("sieve c{}", c), t.elapsed_ms(), 0, d.codes.bytes()});
}

void GpuScanIndexImpl::build_rt(rt::Tracer& tracer) {
  if (!tracer.on_gpu()) fail(ErrorKind::kInvalidInput, "GPU RT scan: needs a GPU tracer");
  tracer_ = &tracer;
  cells_.resize(cubes_.size());
  for (uint32_t g = 0; g < cubes_.size(); ++g) {
    Timer t;
    DeviceCells& c = cells_[g];
    c.rows.allocate(model_.rows);
    uint32_t count;
    {
      DeviceArray<uint32_t> start(model_.rows + 1);
      count = gpu::build_cells(cubes_[g], c.rows.data(), start.data());
      c.start.allocate(count + 1);
      DeviceArray<uint32_t>::cuda_ok(
          cudaMemcpy(c.start.data(), start.data(), (count + 1) * sizeof(uint32_t), cudaMemcpyDeviceToDevice), "cells");
    }
    cubes_[g].cell_rows = c.rows.data();
    cubes_[g].cell_start = c.start.data();
    cubes_[g].cells = count;
    DeviceArray<rt::Aabb> boxes(count);
    gpu::write_cubes(cubes_[g], boxes.data());
    accels_.push_back(tracer.build(
        rt::GeometryInput::of_scan_cubes(std::span<const rt::Aabb>(boxes.data(), boxes.size()), &cubes_[g], true),
        rt::BuildOptions{}));
    stats_.structures.push_back({fmt::format("bvh g{} ({} cells)", g, count), t.elapsed_ms(), 0,
                                 accels_.back()->memory_bytes() + c.rows.bytes() + c.start.bytes()});
  }
}

DeviceArray<uint64_t> GpuScanIndexImpl::scan(const std::vector<Term>& terms, ScanQueryStats& st) const {
  DeviceArray<uint64_t> out(words());
  scan_into(terms, out.data(), st);
  return out;
}

// The fused scan writing words() result words at `out`.
void GpuScanIndexImpl::scan_into(const std::vector<Term>& terms, uint64_t* out, ScanQueryStats& st) const {
  std::vector<DeviceArray<uint64_t>> long_lists;  // range lists too long for kernel parameters
  std::vector<gpu::ScanTermArgs> args;
  for (const Term& t : by_selectivity(terms)) {
    const DeviceColumn& d = dev_[t.column];
    std::vector<uint64_t> r;
    for (auto [lo, hi] : model_.value_ranges(t)) {
      r.push_back(static_cast<uint64_t>(lo) - static_cast<uint64_t>(d.base));
      r.push_back(static_cast<uint64_t>(hi) - static_cast<uint64_t>(d.base));
    }
    gpu::ScanTermArgs a{d.narrow.data(), d.width, d.nulls.data(), nullptr, {}, static_cast<uint32_t>(r.size() / 2)};
    if (a.n_ranges <= gpu::kInlineScanRanges) {
      std::copy(r.begin(), r.end(), a.inline_ranges);
    } else {
      long_lists.push_back(up(std::span<const uint64_t>(r)));
      a.ranges = long_lists.back().data();
    }
    args.push_back(a);
  }
  if (args.empty()) {  // no term: every row (the planner folds this case away; be exact anyway)
    gpu::fill_words(out, words(), model_.rows, true);
    return;
  }
  st.device_ms += gpu::fused_scan(args.data(), static_cast<int>(args.size()), model_.rows, out);
}

DeviceArray<uint64_t> GpuScanIndexImpl::group_job(const GroupJob& job, ScanMethod method, ScanQueryStats& st) const {
  std::vector<DeviceArray<uint32_t>> spans;
  std::vector<gpu::SieveTermArgs> args;
  for (uint32_t d = 0; d < job.dims; ++d) {
    if (!job.dim[d].constrained) continue;
    const DeviceColumn& dc = dev_[job.columns[d]];
    std::vector<uint32_t> s;
    for (auto [i, j] : job.dim[d].sieve.spans) s.insert(s.end(), {i, j});
    gpu::SieveTermArgs a{dc.codes.data(), dc.code_width, model_.borders[job.columns[d]].bins(), nullptr,
                         static_cast<uint32_t>(s.size() / 2), {}};
    if (a.n_spans <= gpu::kInlineSieveSpans) {  // as kernel parameters: no upload
      std::copy(s.begin(), s.end(), a.inline_spans);
    } else {
      spans.push_back(up(std::span<const uint32_t>(s)));
      a.spans = spans.back().data();
    }
    args.push_back(a);
  }
  DeviceArray<uint64_t> bits(words());
  st.device_ms += gpu::sieve_and(args.data(), static_cast<int>(args.size()), model_.rows, bits.data());
  st.groups += 1;
  st.sieve_rows += job.residual_rows();
  if (job.slabs.empty()) return bits;
  if (method == ScanMethod::kRt)
    refine_rt(job, bits.data(), st);
  else
    refine_cuda(job, bits.data(), st);
  return bits;
}

void GpuScanIndexImpl::refine_rt(const GroupJob& job, uint64_t* bits, ScanQueryStats& st) const {
  std::vector<mp::CellBox> boxes;
  std::vector<uint64_t> first;
  model_.cell_boxes(job, boxes, first);
  DeviceArray<mp::CellBox> dboxes = up(std::span<const mp::CellBox>(boxes));
  DeviceArray<uint64_t> dfirst = up(std::span<const uint64_t>(first));
  DeviceArray<RankRange> dranges = up(std::span<const RankRange>(job.ranges));
  const uint64_t zero[2] = {0, 0};
  DeviceArray<uint64_t> counters = up(std::span<const uint64_t>(zero, 2));
  mp::ScanRefineParams p{};
  p.cubes = cubes_[job.group];
  p.check = job.check(dranges.data());
  p.boxes = dboxes.data();
  p.first_item = dfirst.data();
  p.n_boxes = static_cast<uint32_t>(boxes.size());
  p.segment_cells = model_.options.segment_cells;
  p.n = static_cast<uint32_t>(first.back());
  p.bits = bits;
  p.stats = st.count_rays ? counters.data() : nullptr;
  const rt::Accel* slots[1] = {accels_[job.group].get()};
  // The tracer launches on its own non-blocking stream: finish the uploads first (a
  // pageable cudaMemcpy may return before its DMA lands).
  gpu::sync("refine upload");
  tracer_->launch(mp::Program::kScanRefine, slots, &p, sizeof(p), p.n);
  st.device_ms += tracer_->last_launch_ms();
  uint64_t c[2];
  counters.copy_out(std::span<uint64_t>(c, 2));
  st.cell_boxes += boxes.size();
  st.rows_refined += c[0];
  st.rays += c[1];
}

void GpuScanIndexImpl::refine_cuda(const GroupJob& job, uint64_t* bits, ScanQueryStats& st) const {
  std::vector<RankRange> residual;
  std::vector<uint32_t> dims;
  std::vector<uint64_t> first = {0};
  gpu::CudaRefineArgs a{};
  for (uint32_t d = 0; d < job.dims; ++d) {
    a.rows_by_rank[d] = dev_[job.columns[d]].rows_by_rank.data();
    if (!job.dim[d].constrained) continue;
    for (const RankRange& r : job.dim[d].sieve.residual) {
      residual.push_back(r);
      dims.push_back(d);
      first.push_back(first.back() + (r.hi - r.lo));
    }
  }
  DeviceArray<RankRange> dres = up(std::span<const RankRange>(residual));
  DeviceArray<uint32_t> ddims = up(std::span<const uint32_t>(dims));
  DeviceArray<uint64_t> dfirst = up(std::span<const uint64_t>(first));
  DeviceArray<RankRange> dranges = up(std::span<const RankRange>(job.ranges));
  a.cubes = cubes_[job.group];
  a.check = job.check(dranges.data());
  a.residual = dres.data();
  a.residual_dim = ddims.data();
  a.residual_first = dfirst.data();
  a.count = static_cast<uint32_t>(residual.size());
  a.total = first.back();
  a.bits = bits;
  st.device_ms += gpu::cuda_refine(a);
  st.rows_refined += a.total;
}

void GpuScanIndexImpl::evaluate_device(const ScanExpr& e, ScanMethod method, uint64_t* out_words,
                                       ScanQueryStats* stats) const {
  Timer t;
  const bool ok = (method == ScanMethod::kGpuScan && model_.options.build_scan) ||
                  (method == ScanMethod::kRt && !accels_.empty()) || (method == ScanMethod::kGpuSieve && sieve_methods());
  if (!ok) fail(ErrorKind::kInvalidInput, "rt scan: method {} not built in {}", scan_method_name(method), name());
  ScanQueryStats st;
  st.count_rays = stats != nullptr;
  GpuEngine engine{*this, method, st};
  const NormExpr n = model_.normalize(e);
  if (method == ScanMethod::kGpuScan && n.kind == NormExpr::Kind::kAnd && n.children.empty() && !n.terms.empty()) {
    // A plain conjunction: the scan writes the caller's words itself (no temporary
    // vector, no device-to-device copy of it).
    st.groups += 1;
    scan_into(n.terms, out_words, st);
  } else {
    DeviceArray<uint64_t> r = evaluate_tree(engine, n);
    if (r.size() > 0)
      DeviceArray<uint64_t>::cuda_ok(cudaMemcpy(out_words, r.data(), r.bytes(), cudaMemcpyDeviceToDevice),
                                     "result copy");
  }
  // A device-to-device cudaMemcpy may return before it completes: wait, so the result
  // is complete on return (as the interface says) and total_ms is the whole job.
  DeviceArray<uint64_t>::cuda_ok(cudaDeviceSynchronize(), "result copy");
  st.total_ms = t.elapsed_ms();
  if (stats) *stats = st;
}

void GpuScanIndexImpl::evaluate(const ScanExpr& e, ScanMethod method, BitVector& out, ScanQueryStats* stats) const {
  Timer t;
  DeviceArray<uint64_t> d(words());
  evaluate_device(e, method, d.data(), stats);
  out.rows = model_.rows;
  out.words.resize(words());  // every word is overwritten below
  if (d.bytes() > 0) {
    // Through a pinned staging buffer: a pageable copy of the bit vector ran at about a
    // third of the PCIe speed (2 ms for 10^8 rows on the H200 machine).
    std::lock_guard<std::mutex> lock(staging_mutex_);
    staging_.ensure(d.bytes());
    DeviceArray<uint64_t>::cuda_ok(cudaMemcpy(staging_.get(), d.data(), d.bytes(), cudaMemcpyDeviceToHost), "download");
    std::memcpy(out.words.data(), staging_.get(), d.bytes());
  }
  if (stats) stats->total_ms = t.elapsed_ms();
}

}  // namespace

bool gpu_scan_available(std::string* why) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    if (why) *why = "no CUDA device";
    return false;
  }
  return true;
}

std::shared_ptr<uint64_t> make_device_words(uint64_t words) {
  void* p = nullptr;
  DeviceArray<uint64_t>::cuda_ok(cudaMalloc(&p, std::max<uint64_t>(words, 1) * sizeof(uint64_t)), "cudaMalloc");
  return std::shared_ptr<uint64_t>(static_cast<uint64_t*>(p), [](uint64_t* q) { cudaFree(q); });
}

std::unique_ptr<GpuScanIndex> make_gpu_scan_index(std::span<const ScanColumn> columns, const RtScanOptions& options,
                                                  rt::Tracer* optix) {
  return std::make_unique<GpuScanIndexImpl>(columns, options, optix);
}

}  // namespace raydb::access::rt_scan
