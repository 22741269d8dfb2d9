#include "access/rt_view/z_intervals.h"

#include <algorithm>

#include "common/error.h"

namespace raydb::rtview {

std::vector<CodeInterval> normalize_intervals(std::vector<CodeInterval> v, uint32_t size) {
  std::vector<CodeInterval> out;
  if (size == 0) return out;
  for (CodeInterval& c : v) c.hi = std::min(c.hi, size - 1);
  v.erase(std::remove_if(v.begin(), v.end(), [](const CodeInterval& c) { return c.lo > c.hi; }), v.end());
  std::sort(v.begin(), v.end(), [](const CodeInterval& a, const CodeInterval& b) { return a.lo < b.lo; });
  for (const CodeInterval& c : v) {
    if (!out.empty() && static_cast<uint64_t>(c.lo) <= static_cast<uint64_t>(out.back().hi) + 1) {
      out.back().hi = std::max(out.back().hi, c.hi);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

uint64_t values_in(const std::vector<CodeInterval>& v) {
  uint64_t n = 0;
  for (const CodeInterval& c : v) n += uint64_t{c.hi} - c.lo + 1;
  return n;
}

bool is_full(const std::vector<CodeInterval>& v, uint64_t size) {
  return v.size() == 1 && v[0].lo == 0 && uint64_t{v[0].hi} + 1 == size;
}

}  // namespace

// Digits from least to most significant. While the suffix (the lower digits) is
// unrestricted, each allowed interval [a, b] of the next digit is ONE Z interval
// [a*P, (b+1)*P - 1]; once the suffix is restricted, every allowed value of the digit
// repeats the suffix's intervals. If that would pass the cap, the lower digits are
// widened to their full range and checked per hit instead (exact either way).
ZPlan plan_z(const ViewRows& v, const ViewLayout& L, const ViewRequest& r) {
  ZPlan z;
  const size_t nf = v.filter_domains.size();
  z.allowed.resize(nf);
  std::vector<bool> restricted(nf, false);
  for (size_t a = 0; a < nf; ++a) z.allowed[a] = {CodeInterval{0, v.filter_domains[a].size - 1}};
  for (const ViewFilter& f : r.filters) {
    if (f.attr >= nf) fail(ErrorKind::kInvalidInput, "rt view: no filter attribute {}", f.attr);
    z.allowed[f.attr] = normalize_intervals(f.allowed, v.filter_domains[f.attr].size);
    restricted[f.attr] = !is_full(z.allowed[f.attr], v.filter_domains[f.attr].size);
    if (z.allowed[f.attr].empty()) z.empty = true;
  }
  if (z.empty) return z;
  std::vector<CodeInterval> cur{CodeInterval{0, 0}};
  uint64_t P = 1;
  bool suffix_full = true;
  for (size_t d = L.z_attrs.size(); d-- > 0;) {
    const uint32_t a = L.z_attrs[d];
    const uint64_t k = v.filter_domains[a].size;
    const std::vector<CodeInterval>& A = z.allowed[a];
    if (!suffix_full && values_in(A) * cur.size() > r.max_intervals) {
      for (size_t e = d + 1; e < L.z_attrs.size(); ++e)
        if (restricted[L.z_attrs[e]]) z.checked_digits.push_back(static_cast<uint32_t>(e));
      cur = {CodeInterval{0, static_cast<uint32_t>(P - 1)}};
      suffix_full = true;
    }
    std::vector<CodeInterval> next;
    if (suffix_full) {
      for (const CodeInterval& c : A)
        next.push_back(CodeInterval{static_cast<uint32_t>(c.lo * P), static_cast<uint32_t>((uint64_t{c.hi} + 1) * P - 1)});
    } else {
      for (const CodeInterval& c : A)
        for (uint64_t x = c.lo; x <= c.hi; ++x)
          for (const CodeInterval& s : cur)
            next.push_back(CodeInterval{static_cast<uint32_t>(x * P + s.lo), static_cast<uint32_t>(x * P + s.hi)});
    }
    suffix_full = suffix_full && !restricted[a];
    cur = normalize_intervals(std::move(next), static_cast<uint32_t>(P * k));
    P *= k;
  }
  z.intervals = std::move(cur);
  return z;
}

std::vector<CodeInterval> cut_segments(const std::vector<CodeInterval>& iv, uint32_t max_len) {
  std::vector<CodeInterval> out;
  for (const CodeInterval& c : iv)
    for (uint64_t lo = c.lo; lo <= c.hi; lo += max_len)
      out.push_back(CodeInterval{static_cast<uint32_t>(lo), static_cast<uint32_t>(std::min<uint64_t>(c.hi, lo + max_len - 1))});
  return out;
}

}  // namespace raydb::rtview
