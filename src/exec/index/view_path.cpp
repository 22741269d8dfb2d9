#include "exec/index/view_path.h"

#include <fmt/format.h>

#include <deque>

#include "access/rt_view/view_group_prune.h"
#include "access/rt_view/z_intervals.h"
#include "common/error.h"
#include "exec/core/result_finisher.h"
#include "plan/physical/cost_model.h"
#include "rt/mapping/view_grid.h"

namespace raydb::exec {
namespace {

// What the launch would do, without building the BVH: the layout RtView would choose,
// the request's Z intervals and ray grid, and an estimate of the rows hit (each
// filter's allowed fraction of its domain, as independent).
struct ViewEstimate {
  double rays = 0, hits = 0, groups = 0;
  std::string detail;
};

ViewEstimate estimate(const ViewMatch& m) {
  const rtview::ViewRows& v = *m.rows;
  const rtview::ViewLayout& L = m.view->layout();
  const rtview::GroupPlan gp = rtview::plan_groups(v, m.request);
  const rtview::ZPlan z = rtview::plan_z(v, L, rtview::z_request(v, L, m.request, gp));
  ViewEstimate e;
  const size_t segs = z.empty ? 0 : rtview::cut_segments(z.intervals, rt::mapping::kViewMaxSegment).size();
  e.rays = double(segs) * double(gp.traced.size()) * L.lanes;
  e.groups = double(gp.traced.size());
  // Decided filters: the traced groups' share; the others as independent fractions.
  double frac = z.empty || v.group_count == 0 ? 0 : double(gp.traced.size()) / v.group_count;
  for (const rtview::ViewFilter& f : m.request.filters) {
    if (gp.decided[f.attr]) continue;
    uint64_t n = 0;
    for (const rtview::CodeInterval& c : z.allowed[f.attr]) n += uint64_t(c.hi) - c.lo + 1;
    frac *= v.filter_domains[f.attr].size ? double(n) / v.filter_domains[f.attr].size : 0;
  }
  e.hits = frac * double(L.primitives);  // primitives hit (merged tuples or rows)
  std::string iv;
  for (size_t i = 0; i < z.intervals.size() && i < 4; ++i) iv += fmt::format(" [{}, {}]", z.intervals[i].lo, z.intervals[i].hi);
  if (z.intervals.size() > 4) iv += " ...";
  std::string checks;
  for (uint32_t d : z.checked_digits)
    if (!gp.decided[L.z_attrs[d]]) checks += " " + v.filter_domains[L.z_attrs[d]].name;
  std::string decided;
  for (uint32_t a : L.residual)
    for (const rtview::ViewFilter& f : m.request.filters)
      if (f.attr == a && !gp.decided[a]) checks += " " + v.filter_domains[a].name;
  for (const rtview::ViewFilter& f : m.request.filters)
    if (gp.decided[f.attr]) decided += " " + v.filter_domains[f.attr].name;
  e.detail = fmt::format("{} Z intervals{}; groups pruned by{}: {} of {} traced; ray grid {} segments x {} groups x {} "
                         "lanes = {:.0f} rays; ~{:.0f} of {} rows hit; checked per hit:{}; {}",
                         z.intervals.size(), iv, decided.empty() ? " nothing" : decided, gp.traced.size(),
                         v.group_count, segs, gp.traced.size(), L.lanes, e.rays, e.hits, v.rows,
                         checks.empty() ? " none" : checks, L.describe());
  return e;
}

// The star path the view would replace: scan the fact table with its filters, build and
// probe a join table per dimension.
double star_cost_ms(const plan::PhysicalPlan& plan) {
  const plan::LogicalQuery& q = *plan.query;
  const uint64_t fact = q.tables[size_t(plan.root_table)].table->row_count();
  double ms = plan::scan_cost_ms(fact, int(plan.table_filters[size_t(plan.root_table)].size()));
  for (const plan::JoinStep& j : plan.joins) {
    const uint64_t rows = q.tables[size_t(j.build_table)].table->row_count();
    ms += plan::hash_join_cost_ms(rows, int(plan.table_filters[size_t(j.build_table)].size()), double(rows), double(fact));
  }
  return ms;
}

}  // namespace

bool rt_view_per_hit(const Settings& settings) {
  const std::string v = settings.get("rt_view_accumulate");
  if (v.empty() || v == "per_ray") return false;
  if (v == "per_hit") return true;
  fail(ErrorKind::kInvalidInput, "RAYDB_RT_VIEW_ACCUMULATE='{}' (expected per_ray or per_hit)", v);
}

void choose_view(plan::PhysicalPlan& plan, const ViewCatalog& views, AccessPolicy policy, plan::ExecDevice device,
                 bool per_hit_atomics) {
  plan.view_scan.reset();
  plan.rejected_views.clear();
  for (const std::shared_ptr<const CatalogView>& view : views.views()) {
    const std::string& name = view->entry().name;
    if (policy == AccessPolicy::kNoRt) {
      plan.rejected_views.push_back(name + ": --backend cpu runs no RT path");
      continue;
    }
    auto matched = match_view(*plan.query, view);
    if (auto* why = std::get_if<std::string>(&matched)) {
      plan.rejected_views.push_back(name + ": " + *why);
      continue;
    }
    // Without a calibrated view cost the view is rejected before its estimate (which
    // enumerates the traced groups): star-path queries do not pay for it.
    if (policy != AccessPolicy::kForceRt && !plan::view_cost_ms(device, 0, 0)) {
      plan.rejected_views.push_back(name + ": views are not calibrated on this device (no RT cores: the star path "
                                           "wins); --backend rt forces the view");
      continue;
    }
    auto chosen = std::make_shared<ChosenView>();
    chosen->name = name;
    chosen->match = std::move(std::get<ViewMatch>(matched));
    chosen->match.request.per_hit_atomics = per_hit_atomics;
    const ViewEstimate e = estimate(chosen->match);
    plan::ViewScan scan;
    scan.detail = e.detail;
    scan.star_cost_ms = plan::view_star_cost_ms(device, star_cost_ms(plan));
    const std::optional<double> cost = plan::view_cost_ms(device, e.rays, e.hits, e.groups);
    if (cost) scan.cost_ms = *cost;
    if (policy == AccessPolicy::kForceRt) {
      scan.forced = true;
    } else {
      if (!cost) {
        plan.rejected_views.push_back(name + ": views are not calibrated on this device (no RT cores: the star path "
                                             "wins); --backend rt forces the view");
        continue;
      }
      if (*cost >= scan.star_cost_ms) {
        plan.rejected_views.push_back(fmt::format("{}: cost {:.3f} ms vs star path {:.3f} ms", name, *cost, scan.star_cost_ms));
        continue;
      }
    }
    if (plan.view_scan) {
      plan.rejected_views.push_back(name + ": answers too, " + plan.view_scan->view->name + " was taken first");
      continue;
    }
    scan.view = std::move(chosen);
    plan.view_scan = std::move(scan);
  }
}

namespace {

// The view's group codes of output column k as a vector of the GROUP BY key's type.
Vector key_vector(const rtview::ViewResult& res, const rtview::AttrDomain& d, size_t k, const Type& type) {
  const size_t n = res.rows.size();
  Vector out(type, n);
  std::deque<std::string>* arena = out.kind == VectorKind::kString ? &out.new_arena() : nullptr;
  for (size_t i = 0; i < n; ++i) {
    const Value v = d.decode(res.rows[i].group_codes[k]);
    if (arena) {
      arena->push_back(v.as_string());
      out.strings[i] = arena->back();
    } else {
      out.ints[i] = v.as_int();
    }
  }
  return out;
}

// Query aggregate `a` from the view's rows: COUNT from the group count, SUM / MIN /
// MAX from the request's values, AVG as the aggregate states compute it.
Vector agg_vector(const rtview::ViewResult& res, const plan::AggregateExpr& a, int slot) {
  const size_t n = res.rows.size();
  Vector out(a.type, n);
  for (size_t i = 0; i < n; ++i) {
    const rtview::ViewResultRow& row = res.rows[i];
    if (slot < 0) {
      out.ints[i] = int64_t(row.count);
      continue;
    }
    const rtview::AggValue& v = row.values[size_t(slot)];
    if (v.null || row.count == 0) {
      out.set_null(i);
      continue;
    }
    if (a.func == plan::AggFunc::kAvg) {
      long double x = (long double)v.i / (long double)row.count;
      if (a.arg->type.id == TypeId::kDecimal)
        for (int s = 0; s < a.arg->type.scale; ++s) x /= 10;
      out.doubles[i] = double(x);
    } else if (out.kind == VectorKind::kHuge) {
      out.huge[i] = v.i;
    } else if (out.kind == VectorKind::kDouble) {
      out.doubles[i] = double(v.i);
    } else {
      if (v.i > INT64_MAX || v.i < INT64_MIN) fail(ErrorKind::kExecution, "numeric overflow in {}", a.name);
      out.ints[i] = int64_t(v.i);
    }
  }
  return out;
}

}  // namespace

ResultTable run_view(const plan::PhysicalPlan& plan, rt::Tracer& tracer) {
  const plan::LogicalQuery& q = *plan.query;
  const auto& chosen = static_cast<const ChosenView&>(*plan.view_scan->view);
  const ViewMatch& m = chosen.match;
  const rtview::RtView& view = m.view->built(tracer);
  const rtview::ViewResult res = view.query(m.request);
  std::vector<Vector> keys, aggs;
  for (size_t k = 0; k < q.group_keys.size(); ++k)
    keys.push_back(key_vector(res, m.rows->group_domains[m.request.group_by[k]], k, q.group_keys[k]->type));
  for (size_t a = 0; a < q.aggregates.size(); ++a) aggs.push_back(agg_vector(res, q.aggregates[a], m.request_agg[a]));
  size_t n = res.rows.size();
  ResultTable out;
  out.interner = std::make_shared<StringInterner>();
  std::vector<Vector> outputs = finish_aggregation(q, std::move(keys), std::move(aggs), n);
  finish_rows(q, std::move(outputs), n, out);
  out.names = q.output_names;
  out.profile = fmt::format("rt view {}: {} ({:.3f} ms launch, {:.3f} ms total, {} hits, {} accumulator flushes, "
                            "{} groups traced)",
                            chosen.name, res.stats.plan, res.stats.launch_ms, res.stats.total_ms, res.stats.hits,
                            res.stats.flushes, res.stats.groups_traced);
  return out;
}

}  // namespace raydb::exec
