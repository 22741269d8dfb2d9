// The host RT scan index: rank encodings, sieving vectors and rank -> row permutations
// built on CPU threads; the RT refine on a CPU tracer (Embree); the plain scan and the
// BinDex-style sieve + refine as baselines.
#include <omp.h>

#include <parallel/algorithm>

#include "access/rt_scan/host_scan_kernels.h"
#include "access/rt_scan/scan_index.h"
#include "access/rt_scan/scan_plan.h"
#include "common/error.h"
#include "common/timer.h"

namespace raydb::access::rt_scan {

namespace {

class HostScanIndex;

// evaluate_tree's engine for the host methods.
struct HostEngine {
  using Bits = BitVector;
  const HostScanIndex& ix;
  ScanMethod method;
  ScanQueryStats& st;

  Bits ones() const { return host_ones(rows()); }
  Bits zeros() const { return host_zeros(rows()); }
  void and_into(Bits& a, const Bits& b) const { host_combine(a, b, false); }
  void or_into(Bits& a, const Bits& b) const { host_combine(a, b, true); }
  Bits conjunction(const std::vector<Term>& terms);
  uint64_t rows() const;
};

class HostScanIndex final : public ScanIndex {
 public:
  HostScanIndex(std::span<const ScanColumn> columns, const RtScanOptions& o, rt::Tracer* tracer);
  std::string name() const override { return tracer_ ? "rtscan-" + tracer_->name() : "rtscan-host"; }
  uint64_t rows() const override { return model_.rows; }
  uint32_t columns() const override { return static_cast<uint32_t>(cols_.size()); }
  bool on_gpu() const override { return false; }
  std::vector<ScanMethod> methods() const override {
    std::vector<ScanMethod> m;
    if (!accels_.empty()) m.push_back(ScanMethod::kRt);
    m.push_back(ScanMethod::kCpuScan);
    if (sieve_methods()) m.push_back(ScanMethod::kCpuSieve);
    return m;
  }
  const ScanBuildStats& build_stats() const override { return stats_; }
  const std::vector<std::vector<uint32_t>>& groups() const override { return model_.groups; }
  void evaluate(const ScanExpr& e, ScanMethod method, BitVector& out, ScanQueryStats* stats) const override;
  std::string explain(const ScanExpr& e) const override { return model_.explain(e, mode()); }
  ScanEstimate estimate(const ScanExpr& e) const override { return model_.estimate(e, mode()); }
  void set_sieve_mode(SieveMode m) override { model_.options.sieve = m; }

  BitVector group_job(const GroupJob& job, ScanMethod method, ScanQueryStats& st) const;
  const ScanModel& model() const { return model_; }
  const std::vector<ScanColumn>& cols() const { return cols_; }
  bool sieve_methods() const { return model_.options.build_sieve && model_.options.sieve_refine; }
  SieveMode mode() const { return model_.options.build_sieve ? model_.options.sieve : SieveMode::kOff; }

 private:
  void build_rt(rt::Tracer& tracer);
  void build_cells(uint32_t g, std::vector<rt::Aabb>& boxes);
  void refine_rt(const GroupJob& job, BitVector& bits, ScanQueryStats& st) const;
  void refine_cpu(const GroupJob& job, BitVector& bits, ScanQueryStats& st) const;

  std::vector<ScanColumn> cols_;
  ScanModel model_;
  std::vector<ColumnEncoding> enc_;
  std::vector<HostSieve> sieve_;
  struct CellList {
    std::vector<uint32_t> rows, start;
  };
  std::vector<rt::mapping::ScanCubes> cubes_;  // per group; addresses fixed after the build
  std::vector<CellList> cells_;
  std::vector<std::unique_ptr<rt::Accel>> accels_;
  rt::Tracer* tracer_ = nullptr;
  ScanBuildStats stats_;
};

uint64_t HostEngine::rows() const { return ix.rows(); }

BitVector HostEngine::conjunction(const std::vector<Term>& terms) {
  if (method == ScanMethod::kCpuScan) {
    std::vector<ScanTermView> views;
    for (const Term& t : terms) views.push_back({ix.cols()[t.column], ix.model().value_ranges(t)});
    st.groups += 1;
    return host_scan(views, rows());
  }
  BitVector acc;
  bool first = true;
  for (const GroupJob& job : ix.model().plan(terms, ix.mode())) {
    BitVector b = ix.group_job(job, method, st);
    if (first)
      acc = std::move(b);
    else
      and_into(acc, b);
    first = false;
  }
  return first ? ones() : acc;
}

HostScanIndex::HostScanIndex(std::span<const ScanColumn> columns, const RtScanOptions& o, rt::Tracer* tracer)
    : cols_(columns.begin(), columns.end()) {
  Timer total;
  if (cols_.empty()) fail(ErrorKind::kInvalidInput, "rt scan: no columns");
  model_.rows = cols_[0].values.size();
  for (const ScanColumn& c : cols_)
    if (c.values.size() != model_.rows) fail(ErrorKind::kInvalidInput, "rt scan: columns of different lengths");
  for (uint32_t c = 0; c < cols_.size(); ++c) {
    Timer t;
    enc_.push_back(encode_column(cols_[c], c, o.build_sieve && o.sieve_refine));
    model_.tables.push_back(std::move(enc_.back().table));
    model_.borders.push_back(sieve_borders(model_.tables.back(), std::max<uint32_t>(o.bins, 1)));
    const uint64_t bytes = model_.tables.back().bytes() + (enc_.back().ranks.size() + enc_.back().rows_by_rank.size()) * 4;
    stats_.structures.push_back({fmt::format("encoding c{}", c), t.elapsed_ms(), bytes, 0});
  }
  model_.set_groups(o, static_cast<uint32_t>(cols_.size()), kCpuSegmentCells);
  if (o.build_sieve) {
    for (uint32_t c = 0; c < cols_.size(); ++c) {
      Timer t;
      sieve_.push_back(build_host_sieve(model_.borders[c], enc_[c].ranks, cols_[c]));
      stats_.structures.push_back({fmt::format("sieve c{}", c), t.elapsed_ms(), sieve_.back().bytes(), 0});
    }
  }
  cubes_.resize(model_.groups.size());
  for (uint32_t g = 0; g < model_.groups.size(); ++g) {
    rt::mapping::ScanCubes& s = cubes_[g];
    s = {};
    for (size_t d = 0; d < model_.groups[g].size(); ++d) s.ranks[d] = enc_[model_.groups[g][d]].ranks.data();
    s.layout = model_.layouts[g];
    s.rows = static_cast<uint32_t>(model_.rows);
  }
  if (o.build_rt && tracer != nullptr) build_rt(*tracer);
  stats_.total_ms = total.elapsed_ms();
}

namespace {

struct CellEntry {
  uint64_t key;
  uint32_t row;
  bool operator<(const CellEntry& o) const { return key != o.key ? key < o.key : row < o.row; }
};

}  // namespace

// The occupied cells of a group: rows sorted by packed cell (21 bits per axis), the
// first row of every cell, and the cell's cube.
void HostScanIndex::build_cells(uint32_t g, std::vector<rt::Aabb>& boxes) {
  const int64_t n = static_cast<int64_t>(model_.rows);
  const rt::mapping::ScanCubes& s = cubes_[g];
  std::vector<CellEntry> e(n);
#pragma omp parallel for schedule(static) if(n > kParallelMin)
  for (int64_t i = 0; i < n; ++i) {
    uint32_t c[3];
    s.cell_of(static_cast<uint32_t>(i), c);
    e[i] = {uint64_t{c[0]} | (uint64_t{c[1]} << 21) | (uint64_t{c[2]} << 42), static_cast<uint32_t>(i)};
  }
  __gnu_parallel::sort(e.begin(), e.end());
  CellList& cl = cells_[g];
  cl.rows.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    cl.rows[i] = e[i].row;
    if (i == 0 || e[i].key != e[i - 1].key) {
      cl.start.push_back(static_cast<uint32_t>(i));
      uint32_t c[3];
      s.cell_of(e[i].row, c);
      boxes.push_back(rt::mapping::cell_cube(c));
    }
  }
  cl.start.push_back(static_cast<uint32_t>(n));
  rt::mapping::ScanCubes& out = cubes_[g];
  out.cell_rows = cl.rows.data();
  out.cell_start = cl.start.data();
  out.cells = static_cast<uint32_t>(cl.start.size() - 1);
}

void HostScanIndex::build_rt(rt::Tracer& tracer) {
  if (tracer.on_gpu()) fail(ErrorKind::kInvalidInput, "rt scan: the host index takes a CPU tracer");
  tracer_ = &tracer;
  cells_.resize(cubes_.size());
  for (uint32_t g = 0; g < cubes_.size(); ++g) {
    Timer t;
    std::vector<rt::Aabb> boxes;
    build_cells(g, boxes);
    accels_.push_back(tracer.build(rt::GeometryInput::of_scan_cubes(boxes, &cubes_[g]), rt::BuildOptions{}));
    const uint64_t bytes = accels_.back()->memory_bytes() + (cells_[g].rows.size() + cells_[g].start.size()) * 4;
    stats_.structures.push_back({fmt::format("bvh g{} ({} cells)", g, cubes_[g].cells), t.elapsed_ms(), bytes, 0});
  }
}

BitVector HostScanIndex::group_job(const GroupJob& job, ScanMethod method, ScanQueryStats& st) const {
  std::vector<SieveTermView> views;
  for (uint32_t d = 0; d < job.dims; ++d) {
    if (!job.dim[d].constrained) continue;
    const uint32_t c = job.columns[d];
    views.push_back({sieve_.empty() ? nullptr : &sieve_[c], &model_.borders[c], &job.dim[d].sieve});
  }
  BitVector bits = host_sieve_and(views, rows());
  st.groups += 1;
  st.sieve_rows += job.residual_rows();
  if (job.slabs.empty()) return bits;
  if (method == ScanMethod::kRt)
    refine_rt(job, bits, st);
  else
    refine_cpu(job, bits, st);
  return bits;
}

void HostScanIndex::refine_rt(const GroupJob& job, BitVector& bits, ScanQueryStats& st) const {
  std::vector<rt::mapping::CellBox> boxes;
  std::vector<uint64_t> first;
  model_.cell_boxes(job, boxes, first);
  uint64_t counters[2] = {0, 0};
  rt::mapping::ScanRefineParams p{};
  p.cubes = cubes_[job.group];
  p.check = job.check();
  p.boxes = boxes.data();
  p.first_item = first.data();
  p.n_boxes = static_cast<uint32_t>(boxes.size());
  p.segment_cells = model_.options.segment_cells;
  p.n = static_cast<uint32_t>(first.back());
  p.bits = bits.words.data();
  p.stats = st.count_rays ? counters : nullptr;
  const rt::Accel* slots[1] = {accels_[job.group].get()};
  tracer_->launch(rt::mapping::Program::kScanRefine, slots, &p, sizeof(p), p.n);
  st.cell_boxes += boxes.size();
  st.rays += counters[1];
  st.rows_refined += counters[0];
}

void HostScanIndex::refine_cpu(const GroupJob& job, BitVector& bits, ScanQueryStats& st) const {
  const rt::mapping::ScanCubes& s = cubes_[job.group];
  const rt::mapping::ScanCheck check = job.check();
  for (uint32_t d = 0; d < job.dims; ++d) {
    if (!job.dim[d].constrained) continue;
    const uint32_t* by_rank = enc_[job.columns[d]].rows_by_rank.data();
    for (const RankRange& r : job.dim[d].sieve.residual) {
      const int64_t lo = r.lo, hi = r.hi;
#pragma omp parallel for schedule(static) if(hi - lo > kParallelMin)
      for (int64_t k = lo; k < hi; ++k) {
        const uint32_t row = by_rank[k];
        rt::mapping::write_exact_bit(bits.words.data(), row, check.matches(s, row));
      }
      st.rows_refined += r.hi - r.lo;
    }
  }
}

void HostScanIndex::evaluate(const ScanExpr& e, ScanMethod method, BitVector& out, ScanQueryStats* stats) const {
  Timer t;
  const bool ok = method == ScanMethod::kCpuScan || (method == ScanMethod::kRt && !accels_.empty()) ||
                  (method == ScanMethod::kCpuSieve && sieve_methods());
  if (!ok) fail(ErrorKind::kInvalidInput, "rt scan: method {} not built in {}", scan_method_name(method), name());
  ScanQueryStats st;
  st.count_rays = stats != nullptr;
  HostEngine engine{*this, method, st};
  out = evaluate_tree(engine, model_.normalize(e));
  st.total_ms = t.elapsed_ms();
  if (stats) *stats = st;
}

}  // namespace

std::unique_ptr<ScanIndex> make_host_scan_index(std::span<const ScanColumn> columns, const RtScanOptions& options,
                                                rt::Tracer* tracer) {
  return std::make_unique<HostScanIndex>(columns, options, tracer);
}

}  // namespace raydb::access::rt_scan
