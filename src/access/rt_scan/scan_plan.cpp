#include "access/rt_scan/scan_plan.h"

#include <fmt/format.h>

#include "common/error.h"

namespace raydb::access::rt_scan {

namespace {

using Kind = NormExpr::Kind;

NormExpr constant(bool v) {
  NormExpr n;
  n.kind = v ? Kind::kTrue : Kind::kFalse;
  return n;
}

// ANDs b's terms into a's (intersection per column); false when one becomes empty.
bool merge_terms(std::vector<Term>& a, const std::vector<Term>& b) {
  for (const Term& t : b) {
    auto it = std::find_if(a.begin(), a.end(), [&](const Term& x) { return x.column == t.column; });
    if (it == a.end())
      a.push_back(t);
    else
      it->set = intersect(it->set, t.set);
  }
  std::sort(a.begin(), a.end(), [](const Term& x, const Term& y) { return x.column < y.column; });
  for (const Term& t : a)
    if (t.set.empty()) return false;
  return true;
}

NormExpr norm(const ScanExpr& e, bool neg, std::span<const MappingTable* const> tables);

NormExpr leaf(const ColumnPredicate& p, bool neg, std::span<const MappingTable* const> tables) {
  if (p.column >= tables.size()) fail(ErrorKind::kInvalidInput, "rt scan: no column {}", p.column);
  const MappingTable& t = *tables[p.column];
  RankSet s = t.rewrite(p.op, p.values);
  if (neg) s = complement(s, t.valid);
  if (s.empty()) return constant(false);
  // Every non-NULL row of a column without NULLs: the predicate holds for every row.
  if (t.valid == t.rows && s.size() == 1 && s[0].lo == 0 && s[0].hi == t.valid) return constant(true);
  NormExpr n;
  n.kind = Kind::kAnd;
  n.terms.push_back(Term{p.column, std::move(s)});
  return n;
}

NormExpr conj(const std::vector<ScanExpr>& cs, bool neg, std::span<const MappingTable* const> tables) {
  NormExpr out;
  out.kind = Kind::kAnd;
  for (const ScanExpr& c : cs) {
    NormExpr n = norm(c, neg, tables);
    if (n.kind == Kind::kFalse) return n;
    if (n.kind == Kind::kTrue) continue;
    if (n.kind == Kind::kOr) {
      out.children.push_back(std::move(n));
      continue;
    }
    if (!merge_terms(out.terms, n.terms)) return constant(false);
    for (NormExpr& g : n.children) out.children.push_back(std::move(g));
  }
  if (out.terms.empty() && out.children.empty()) return constant(true);
  if (out.terms.empty() && out.children.size() == 1) return std::move(out.children[0]);
  return out;
}

NormExpr disj(const std::vector<ScanExpr>& cs, bool neg, std::span<const MappingTable* const> tables) {
  NormExpr out;
  out.kind = Kind::kOr;
  auto single = [](const NormExpr& n) { return n.kind == Kind::kAnd && n.terms.size() == 1 && n.children.empty(); };
  auto add = [&](NormExpr n) {
    if (single(n)) {  // x in S1 OR x in S2 -> x in S1 | S2
      for (NormExpr& o : out.children) {
        if (single(o) && o.terms[0].column == n.terms[0].column) {
          o.terms[0].set = unite(o.terms[0].set, n.terms[0].set);
          return;
        }
      }
    }
    out.children.push_back(std::move(n));
  };
  for (const ScanExpr& c : cs) {
    NormExpr n = norm(c, neg, tables);
    if (n.kind == Kind::kTrue) return n;
    if (n.kind == Kind::kFalse) continue;
    if (n.kind == Kind::kOr) {
      for (NormExpr& g : n.children) add(std::move(g));
    } else {
      add(std::move(n));
    }
  }
  if (out.children.empty()) return constant(false);
  if (out.children.size() == 1) return std::move(out.children[0]);
  return out;
}

NormExpr norm(const ScanExpr& e, bool neg, std::span<const MappingTable* const> tables) {
  switch (e.kind) {
    case ScanExpr::Kind::kTrue: return constant(!neg);
    case ScanExpr::Kind::kFalse: return constant(neg);
    case ScanExpr::Kind::kPredicate: return leaf(e.predicate, neg, tables);
    case ScanExpr::Kind::kNot:
      if (e.children.size() != 1) fail(ErrorKind::kInvalidInput, "rt scan: NOT takes one operand");
      return norm(e.children[0], !neg, tables);
    case ScanExpr::Kind::kAnd: return neg ? disj(e.children, true, tables) : conj(e.children, false, tables);
    case ScanExpr::Kind::kOr: return neg ? conj(e.children, true, tables) : disj(e.children, false, tables);
  }
  return constant(false);
}

}  // namespace

std::vector<const MappingTable*> table_list(std::span<const ColumnEncoding> encodings) {
  std::vector<const MappingTable*> t;
  for (const ColumnEncoding& e : encodings) t.push_back(&e.table);
  return t;
}

NormExpr normalize(const ScanExpr& e, std::span<const MappingTable* const> tables) { return norm(e, false, tables); }

uint64_t GroupJob::residual_rows() const {
  uint64_t n = 0;
  for (uint32_t d = 0; d < dims; ++d)
    if (dim[d].constrained) n += ranks_in(dim[d].sieve.residual);
  return n;
}

rt::mapping::ScanCheck GroupJob::check(const RankRange* device_ranges) const {
  rt::mapping::ScanCheck c{};
  c.ranges = device_ranges != nullptr ? device_ranges : ranges.data();
  for (int i = 0; i < 4; ++i) c.begin[i] = begin[i];
  c.constrained = constrained;
  return c;
}

void ScanModel::set_groups(const RtScanOptions& o, uint32_t columns, uint32_t default_segment_cells) {
  options = o;
  if (options.segment_cells == 0) options.segment_cells = default_segment_cells;
  groups = o.groups;
  if (groups.empty())
    for (uint32_t c = 0; c < columns; c += 3) {
      groups.emplace_back();
      for (uint32_t k = c; k < std::min(columns, c + 3); ++k) groups.back().push_back(k);
    }
  std::vector<int> seen(columns, 0);
  for (const auto& g : groups) {
    if (g.empty() || g.size() > 3) fail(ErrorKind::kInvalidInput, "rt scan: a column group holds 1 to 3 columns");
    for (uint32_t c : g) {
      if (c >= columns || seen[c]++) fail(ErrorKind::kInvalidInput, "rt scan: bad or repeated column {} in groups", c);
    }
  }
  for (uint32_t c = 0; c < columns; ++c)
    if (!seen[c]) groups.push_back({c});  // a column left out gets a 1-D group
  if (options.segment_cells == 0 || options.segment_cells > rt::mapping::kScanMaxCells)
    fail(ErrorKind::kInvalidInput, "rt scan: segment_cells must be in 1..2^21");
  layouts.clear();
  for (const auto& g : groups) {
    const uint32_t dims = static_cast<uint32_t>(g.size());
    rt::mapping::ScanLayout l = rt::mapping::scan_default_layout(dims, rows);
    if (o.cell_shift >= 0) l = {dims, static_cast<uint32_t>(o.cell_shift), 0};
    if (!rt::mapping::scan_layout_exact(l, rows))
      fail(ErrorKind::kInvalidInput, "rt scan: cell shift {} leaves more than 2^21 cells per axis for {} rows", l.shift,
           rows);
    layouts.push_back(l);
  }
}

std::vector<const MappingTable*> ScanModel::table_ptrs() const {
  std::vector<const MappingTable*> t;
  for (const MappingTable& m : tables) t.push_back(&m);
  return t;
}

NormExpr ScanModel::normalize(const ScanExpr& e) const {
  auto t = table_ptrs();
  return rt_scan::normalize(e, t);
}

}  // namespace raydb::access::rt_scan
