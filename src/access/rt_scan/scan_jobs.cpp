// ScanModel: group jobs, their residual slabs and cell boxes, value ranges, EXPLAIN.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "access/rt_scan/scan_plan.h"
#include "common/error.h"

namespace raydb::access::rt_scan {

namespace {

// More boxes than this per slab: factors are replaced by their hulls (a superset of
// the slab, so still a cover; only more rows get re-checked), the other columns'
// first, so a long IN list keeps its thin residual pieces.
constexpr uint64_t kMaxBoxesPerSlab = 1024;

void add_slabs(GroupJob& job, uint32_t d, uint64_t rows) {
  std::array<RankSet, 3> f;
  const RankSet all = {{0, static_cast<uint32_t>(rows)}};
  for (uint32_t e = 0; e < job.dims; ++e) {
    const DimPlan& p = job.dim[e];
    if (e == d)
      f[e] = p.sieve.residual;
    else if (!p.constrained)
      f[e] = all;
    else if (e < d)
      f[e] = intersect(p.sieve.approx, p.p);
    else
      f[e] = unite(p.sieve.approx, p.p);
    if (f[e].empty()) return;
  }
  auto boxes = [&] {
    uint64_t count = 1;
    for (uint32_t e = 0; e < job.dims; ++e) count *= f[e].size();
    return count;
  };
  if (boxes() > kMaxBoxesPerSlab)
    for (uint32_t e = 0; e < job.dims; ++e)
      if (e != d) f[e] = hull(f[e]);
  if (boxes() > kMaxBoxesPerSlab) f[d] = hull(f[d]);
  for (const RankRange& a : f[0]) {
    for (size_t j = 0; j < (job.dims > 1 ? f[1].size() : 1); ++j) {
      for (size_t k = 0; k < (job.dims > 2 ? f[2].size() : 1); ++k) {
        RankBox b{{a.lo, 0, 0}, {a.hi, 1, 1}};
        if (job.dims > 1) b.lo[1] = f[1][j].lo, b.hi[1] = f[1][j].hi;
        if (job.dims > 2) b.lo[2] = f[2][k].lo, b.hi[2] = f[2][k].hi;
        job.slabs.push_back(b);
      }
    }
  }
}

// Fraction of the rows in a rank set (one row per rank).
double share(const RankSet& s, uint64_t rows) { return rows ? double(ranks_in(s)) / double(rows) : 0.0; }

}  // namespace

double touched_share(double r, double k) {
  if (!(r > 0)) return 0;  // also NaN
  if (r >= 1) return 1;
  return -std::expm1(k * std::log1p(-r));  // 1 - (1 - r)^k without cancellation for tiny r
}

// ScanEstimate::sieve_passes, refine_sectors and slab_rows of one job.
void ScanModel::add_memory_terms(const GroupJob& j, ScanEstimate& out) const {
  double q = 1;  // the fraction of rows the job's earlier approximations pass
  for (uint32_t d = 0; d < j.dims; ++d) {
    if (!j.dim[d].constrained) continue;
    out.sieve_passes += touched_share(q, 32);
    q *= share(j.dim[d].sieve.approx, rows);
  }
  const double r = rows ? double(j.residual_rows()) / double(rows) : 0.0;
  out.refine_sectors += double(j.dims) * std::ceil(double(rows) / 8) * touched_share(r, 8);
  for (const RankBox& b : j.slabs) {
    double v = double(rows);
    for (uint32_t e = 0; e < j.dims; ++e) v *= rows ? double(b.hi[e] - b.lo[e]) / double(rows) : 0.0;
    out.slab_rows += v;
  }
}

namespace {

std::string set_text(const RankSet& s) {
  std::string out;
  for (const RankRange& r : s) out += fmt::format("{}[{},{})", out.empty() ? "" : " ", r.lo, r.hi);
  return out.empty() ? "{}" : out;
}

}  // namespace

std::vector<GroupJob> ScanModel::plan(const std::vector<Term>& terms, SieveMode mode) const {
  std::vector<GroupJob> jobs;
  for (uint32_t g = 0; g < groups.size(); ++g) {
    GroupJob job;
    job.group = g;
    job.dims = static_cast<uint32_t>(groups[g].size());
    for (uint32_t d = 0; d < job.dims; ++d) {
      job.columns[d] = groups[g][d];
      for (const Term& t : terms) {
        if (t.column != groups[g][d]) continue;
        DimPlan& p = job.dim[d];
        p.constrained = true;
        p.p = t.set;
        const uint32_t valid = tables[t.column].valid;
        p.sieve = choose_sieve(borders[t.column], t.set, mode, valid);
        job.constrained |= 1u << d;
      }
    }
    if (job.constrained == 0) continue;
    for (uint32_t d = 0; d < 3; ++d) {
      job.begin[d] = static_cast<uint32_t>(job.ranges.size());
      if (d < job.dims) job.ranges.insert(job.ranges.end(), job.dim[d].p.begin(), job.dim[d].p.end());
    }
    job.begin[3] = static_cast<uint32_t>(job.ranges.size());
    for (uint32_t d = 0; d < job.dims; ++d)
      if (job.dim[d].constrained && !job.dim[d].sieve.residual.empty()) add_slabs(job, d, rows);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

void ScanModel::cell_boxes(const GroupJob& job, std::vector<rt::mapping::CellBox>& boxes,
                           std::vector<uint64_t>& first_item) const {
  boxes.clear();
  first_item.assign(1, 0);
  const rt::mapping::ScanLayout& l = layouts[job.group];
  for (const RankBox& s : job.slabs) {
    rt::mapping::CellBox b[3];
    const int n = rt::mapping::rank_box_cells(l, s.lo, s.hi, options.segment_cells, b);
    for (int i = 0; i < n; ++i) {
      boxes.push_back(b[i]);
      first_item.push_back(first_item.back() + b[i].items());
    }
  }
  if (first_item.back() >= (uint64_t{1} << 32))
    fail(ErrorKind::kInvalidInput, "rt scan: {} ray segments in one launch; use longer segments",
         first_item.back());
}

std::vector<std::pair<int64_t, int64_t>> ScanModel::value_ranges(const Term& t) const {
  std::vector<std::pair<int64_t, int64_t>> out;
  const MappingTable& m = tables[t.column];
  for (const RankRange& r : t.set) out.push_back({m.value_at(r.lo), m.value_at(r.hi - 1)});
  return out;
}

std::string ScanModel::explain(const ScanExpr& e, SieveMode mode) const {
  std::string out;
  std::function<void(const NormExpr&, int)> walk = [&](const NormExpr& n, int depth) {
    const std::string pad(2 * depth, ' ');
    if (n.kind == NormExpr::Kind::kTrue || n.kind == NormExpr::Kind::kFalse) {
      out += pad + (n.kind == NormExpr::Kind::kTrue ? "true\n" : "false\n");
      return;
    }
    if (n.kind == NormExpr::Kind::kOr) {
      out += pad + "or\n";
      for (const NormExpr& c : n.children) walk(c, depth + 1);
      return;
    }
    out += pad + "and\n";
    for (const GroupJob& j : plan(n.terms, mode)) {
      const rt::mapping::ScanLayout& l = layouts[j.group];
      std::string shifts = std::to_string(l.axis_shift(0));
      for (uint32_t d = 1; d < l.dims; ++d) shifts += "/" + std::to_string(l.axis_shift(d));
      out += fmt::format("{}  group {} ({}-D, shift {}):\n", pad, j.group, j.dims, shifts);
      for (uint32_t d = 0; d < j.dims; ++d) {
        if (!j.dim[d].constrained) continue;
        const SieveChoice& c = j.dim[d].sieve;
        std::string spans;
        for (auto [a, b] : c.spans) spans += fmt::format("{}F{}&~F{}", spans.empty() ? "" : "|", b, a);
        out += fmt::format("{}    c{} ranks {} sieve {} refine {} ({} rows)\n", pad, j.columns[d], set_text(j.dim[d].p),
                           spans.empty() ? "none" : spans, set_text(c.residual), ranks_in(c.residual));
      }
      out += fmt::format("{}    {} residual slabs\n", pad, j.slabs.size());
    }
    for (const NormExpr& c : n.children) walk(c, depth + 1);
  };
  walk(normalize(e), 0);
  return out;
}

// Walks the normalized tree like explain(); an AND multiplies its terms' fractions
// (independent columns), an OR adds its children's (capped at 1).
ScanEstimate ScanModel::estimate(const ScanExpr& e, SieveMode mode) const {
  ScanEstimate out;
  std::function<double(const NormExpr&)> walk = [&](const NormExpr& n) -> double {
    if (n.kind == NormExpr::Kind::kTrue) return 1.0;
    if (n.kind == NormExpr::Kind::kFalse) return 0.0;
    if (n.kind == NormExpr::Kind::kOr) {
      double f = 0;
      for (const NormExpr& c : n.children) f += walk(c);
      return std::min(1.0, f);
    }
    std::vector<double> fractions;
    for (const Term& t : n.terms) {
      out.predicates++;
      fractions.push_back(rows ? double(ranks_in(t.set)) / double(rows) : 0.0);
    }
    std::sort(fractions.begin(), fractions.end());  // the plain GPU scan's order (by_selectivity)
    double f = 1;
    for (const double x : fractions) {
      out.scan_columns += touched_share(f, 32);  // ScanEstimate::scan_columns
      f *= x;
    }
    for (const GroupJob& j : plan(n.terms, mode)) {
      out.jobs++;
      out.slabs += j.slabs.size();
      out.residual_rows += j.residual_rows();
      if (j.residual_rows() > 0) out.refine_jobs++;
      for (uint32_t d = 0; d < j.dims; ++d)
        if (j.dim[d].constrained) out.sieve_vectors += uint32_t(2 * j.dim[d].sieve.spans.size());
      add_memory_terms(j, out);
    }
    for (const NormExpr& c : n.children) f *= walk(c);
    return f;
  };
  out.match_fraction = walk(normalize(e));
  return out;
}

}  // namespace raydb::access::rt_scan
