#include "access/rt_view/view_layout.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "access/rt_view/view_primitives.h"
#include "common/error.h"
#include "rt/mapping/view_grid.h"

namespace raydb::rtview {
namespace {

namespace mp = rt::mapping;

uint32_t bits_for(uint64_t range) {  // bits to hold 0..range
  uint32_t b = 0;
  while (b < 64 && (range >> b) != 0) ++b;
  return b;
}

void place_z(const ViewRows& v, const LayoutOptions& o, ViewLayout& L) {
  const uint32_t limit = std::min(o.z_limit, mp::kViewZLimit);
  uint64_t product = 1;
  bool open = true;  // attributes join Z in order while they fit (then the rest are residual)
  for (uint32_t a = 0; a < v.filter_domains.size(); ++a) {
    const uint64_t k = std::max<uint32_t>(1, v.filter_domains[a].size);
    const bool fits = open && product * k <= limit && (o.z_mode == ZMode::kEncode || a == 0);
    if (fits) {
      L.z_attrs.push_back(a);
      product *= k;
    } else {
      open = false;
      L.residual.push_back(a);
    }
  }
  L.z_size = static_cast<uint32_t>(product);
  L.z_div.assign(L.z_attrs.size(), 1);
  uint64_t m = 1;
  for (size_t i = L.z_attrs.size(); i-- > 0;) {
    L.z_div[i] = static_cast<uint32_t>(m);
    m *= std::max<uint32_t>(1, v.filter_domains[L.z_attrs[i]].size);
  }
}

void place_inputs(const ViewRows& v, const LayoutOptions& o, ViewLayout& L) {
  if (L.merged) {  // sums, minima and maxima per primitive: nothing packed into X
    L.inputs.assign(v.inputs.size(), InputPlacement{});
    return;
  }
  const uint32_t budget = std::min(o.x_bits, mp::kViewXBitsMax);
  uint32_t used = 0;
  for (const auto& col : v.inputs) {
    InputPlacement p;
    int64_t mn = 0, mx = -1;
    if (!col.empty()) {
      const auto [a, b] = std::minmax_element(col.begin(), col.end());
      mn = *a;
      mx = *b;
    }
    p.base = mn;
    const uint64_t range = mx >= mn ? static_cast<uint64_t>(mx) - static_cast<uint64_t>(mn) : 0;
    const uint32_t bits = bits_for(range);
    if (used + bits <= budget) {
      p.in_x = true;
      p.shift = used;
      p.bits = bits;
      used += bits;
    } else {
      p.u32 = range < (uint64_t{1} << 32);
    }
    L.inputs.push_back(p);
  }
  L.x_bits = used;
}

void choose_lanes(const ViewRows& v, const LayoutOptions& o, ViewLayout& L) {
  const uint64_t groups = std::max<uint32_t>(1, v.group_count);
  const uint64_t max_lanes = mp::kViewXLimit >> L.x_bits;
  uint64_t lanes = 1;
  if (L.merged) {  // few primitives: lanes only until a full-range ray of a group meets ~256 of them
    while (lanes * 2 <= max_lanes && lanes * groups * 256 < L.primitives) lanes *= 2;
    L.lanes = static_cast<uint32_t>(lanes);
    return;
  }
  // Enough rays for parallelism, but not lanes with (almost) no rows in them.
  while (lanes * 2 <= max_lanes && lanes * groups * 2 <= o.target_rays && lanes * 2 * 16 <= L.primitives) lanes *= 2;
  L.lanes = static_cast<uint32_t>(lanes);
}

}  // namespace

ViewLayout plan_layout(const ViewRows& v, const LayoutOptions& o) {
  ViewLayout L;
  place_z(v, o, L);
  L.primitives = v.rows;
  const uint64_t most = o.merge == MergeMode::kAlways ? v.rows : v.rows - v.rows / 4;  // kAuto: view_layout.h
  if (o.merge != MergeMode::kNever && v.rows != 0)
    if (const std::optional<uint64_t> k = count_primitives(v, most)) {
      L.merged = true;
      L.primitives = *k;
    }
  place_inputs(v, o, L);
  choose_lanes(v, o, L);
  return L;
}

std::string ViewLayout::describe() const {
  std::string s = fmt::format("Z {} digits (size {}), {} residual, X {} bits, {} lanes", z_attrs.size(), z_size,
                              residual.size(), x_bits, lanes);
  if (merged) s += fmt::format(", merged: {} primitives", primitives);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const InputPlacement& p = inputs[i];
    const std::string where = merged ? "sum/min/max per primitive"
                              : p.in_x ? fmt::format("X[{}:{}]", p.shift, p.bits)
                                       : std::string(p.u32 ? "side u32" : "side i64");
    s += fmt::format("; input {} {}", i, where);
  }
  return s;
}

std::vector<uint32_t> choose_digit_order(const std::vector<double>& f) {
  std::vector<uint32_t> order(f.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return f[a] < f[b]; });
  return order;
}

}  // namespace raydb::rtview
