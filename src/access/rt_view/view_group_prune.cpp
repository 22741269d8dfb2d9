#include "access/rt_view/view_group_prune.h"

#include <algorithm>

#include "access/rt_view/z_intervals.h"
#include "rt/mapping/view_grid.h"

namespace raydb::rtview {

void derive_group_filter_codes(ViewRows& v) {
  constexpr uint32_t kNoRow = 0xFFFFFFFFu;
  v.group_filter_codes.assign(v.filter_codes.size(), {});
  v.groups_by_code.assign(v.filter_codes.size(), {});
  std::vector<uint32_t> rep(v.group_count, kNoRow);  // the first row of each group
  for (uint64_t r = 0; r < v.rows; ++r)
    if (rep[v.group_ids[r]] == kNoRow) rep[v.group_ids[r]] = static_cast<uint32_t>(r);
  const int64_t n = static_cast<int64_t>(v.rows);
  for (size_t a = 0; a < v.filter_codes.size(); ++a) {
    const uint32_t* codes = v.filter_codes[a].data();
    const uint32_t* gid = v.group_ids.data();
    bool mixed = false;
#pragma omp parallel for schedule(static) reduction(|| : mixed)
    for (int64_t r = 0; r < n; ++r) mixed = mixed || codes[r] != codes[rep[gid[r]]];
    if (mixed) continue;
    std::vector<uint32_t> per_group(v.group_count);
    for (uint32_t g = 0; g < v.group_count; ++g) per_group[g] = codes[rep[g]];
    ViewRows::GroupsByCode& by = v.groups_by_code[a];
    by.offsets.assign(size_t{v.filter_domains[a].size} + 1, 0);
    for (uint32_t c : per_group) ++by.offsets[c + 1];
    for (size_t c = 1; c < by.offsets.size(); ++c) by.offsets[c] += by.offsets[c - 1];
    by.groups.resize(v.group_count);
    std::vector<uint32_t> next(by.offsets.begin(), by.offsets.end() - 1);
    for (uint32_t g = 0; g < v.group_count; ++g) by.groups[next[per_group[g]]++] = g;  // ascending per code
    v.group_filter_codes[a] = std::move(per_group);
  }
}

// Candidates come from the decided filter that allows the fewest groups (its groups
// by code), each tested against the other decided filters: the work is that filter's
// groups, not all groups of the view (1.6 M for SSB q4.3's view at SF 1).
GroupPlan plan_groups(const ViewRows& v, const ViewRequest& r) {
  GroupPlan p;
  p.decided.assign(v.filter_domains.size(), false);
  struct Test {
    const std::vector<uint32_t>* codes;
    std::vector<bool> allowed;
    std::vector<CodeInterval> intervals;
    uint64_t groups = 0;  // groups whose code is allowed
  };
  std::vector<Test> tests;
  if (r.prune_groups) {
    for (const ViewFilter& f : r.filters) {
      if (f.attr >= v.group_filter_codes.size() || v.group_filter_codes[f.attr].empty()) continue;
      Test t;
      t.codes = &v.group_filter_codes[f.attr];
      t.intervals = normalize_intervals(f.allowed, v.filter_domains[f.attr].size);
      t.allowed.assign(v.filter_domains[f.attr].size, false);
      const std::vector<uint32_t>& off = v.groups_by_code[f.attr].offsets;
      for (const CodeInterval& c : t.intervals) {
        for (uint64_t x = c.lo; x <= c.hi; ++x) t.allowed[x] = true;
        t.groups += off[size_t{c.hi} + 1] - off[c.lo];
      }
      tests.push_back(std::move(t));
      p.decided[f.attr] = true;
      ++p.decided_filters;
    }
  }
  if (tests.empty()) {
    p.traced.resize(v.group_count);
    for (uint32_t g = 0; g < v.group_count; ++g) p.traced[g] = g;
    return p;
  }
  size_t best = 0;
  for (size_t t = 1; t < tests.size(); ++t)
    if (tests[t].groups < tests[best].groups) best = t;
  const ViewRows::GroupsByCode* by = nullptr;
  for (size_t a = 0; a < v.group_filter_codes.size(); ++a)
    if (&v.group_filter_codes[a] == tests[best].codes) by = &v.groups_by_code[a];
  for (const CodeInterval& c : tests[best].intervals) {
    for (uint32_t i = by->offsets[c.lo]; i < by->offsets[size_t{c.hi} + 1]; ++i) {
      const uint32_t g = by->groups[i];
      bool keep = true;
      for (size_t t = 0; t < tests.size() && keep; ++t) keep = t == best || tests[t].allowed[(*tests[t].codes)[g]];
      if (keep) p.traced.push_back(g);
    }
  }
  std::sort(p.traced.begin(), p.traced.end());
  return p;
}

namespace {

uint64_t segments_of(const ViewRows& v, const ViewLayout& L, const ViewRequest& r) {
  const ZPlan z = plan_z(v, L, r);
  return z.empty ? 0 : cut_segments(z.intervals, rt::mapping::kViewMaxSegment).size();
}

// Digit position of a filter attribute in Z (least significant first = 0); residual
// attributes come first (they never change the intervals).
uint32_t significance(const ViewLayout& L, uint32_t attr) {
  for (size_t d = 0; d < L.z_attrs.size(); ++d)
    if (L.z_attrs[d] == attr) return static_cast<uint32_t>(L.z_attrs.size() - d);
  return 0;
}

}  // namespace

ViewRequest z_request(const ViewRows& v, const ViewLayout& L, const ViewRequest& r, const GroupPlan& g) {
  ViewRequest out = r;  // every filter kept; drop decided ones greedily, lowest digit first
  std::vector<size_t> decided;
  for (size_t i = 0; i < r.filters.size(); ++i)
    if (r.filters[i].attr < g.decided.size() && g.decided[r.filters[i].attr]) decided.push_back(i);
  std::stable_sort(decided.begin(), decided.end(), [&](size_t a, size_t b) {
    return significance(L, r.filters[a].attr) < significance(L, r.filters[b].attr);
  });
  std::vector<bool> keep(r.filters.size(), true);
  auto build = [&](const std::vector<bool>& k) {
    ViewRequest q = r;
    q.filters.clear();
    for (size_t i = 0; i < r.filters.size(); ++i)
      if (k[i]) q.filters.push_back(r.filters[i]);
    return q;
  };
  uint64_t best = segments_of(v, L, out);
  for (size_t i : decided) {
    keep[i] = false;
    ViewRequest q = build(keep);
    const uint64_t n = segments_of(v, L, q);
    if (n <= best) {
      best = n;
      out = std::move(q);
    } else {
      keep[i] = true;
    }
  }
  return out;
}

}  // namespace raydb::rtview
