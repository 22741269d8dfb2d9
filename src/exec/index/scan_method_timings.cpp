#include "exec/index/scan_method_timings.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace raydb::exec {

namespace {

double median_of(const std::deque<double>& d) {
  std::vector<double> v(d.begin(), d.end());
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

const char* choice_source_name(ChoiceSource s) {
  switch (s) {
    case ChoiceSource::kModel: return "model";
    case ChoiceSource::kExplore: return "explore";
    case ChoiceSource::kMeasured: return "measured";
  }
  return "model";
}

ScanMethodTimings& ScanMethodTimings::shared() {
  static ScanMethodTimings store;
  return store;
}

MethodChoice ScanMethodTimings::choose(const std::string& key, const CostedMethod& pick,
                                       const std::optional<CostedMethod>& runner_up, double margin) const {
  MethodChoice c{pick.method, ChoiceSource::kModel, false, "model"};
  if (margin <= 0 || !runner_up || runner_up->model_ms > pick.model_ms * (1 + margin)) return c;
  c.adaptive = true;
  const auto p = measured(key, pick.method), r = measured(key, runner_up->method);
  if (!r) {
    c.method = runner_up->method;
    c.source = ChoiceSource::kExplore;
    c.note = fmt::format("explore: estimate {:.3f} ms within {:.0f}% of {}'s {:.3f} ms", runner_up->model_ms,
                         100 * margin, pick.method, pick.model_ms);
  } else if (!p) {
    c.note = fmt::format("model; {} measured {:.3f} ms", runner_up->method, *r);
  } else {
    // Ties keep the model's pick.
    const bool runner_faster = *r < *p;
    c.method = runner_faster ? runner_up->method : pick.method;
    c.source = ChoiceSource::kMeasured;
    c.note = fmt::format("measured {:.3f} ms vs {} {:.3f} ms", runner_faster ? *r : *p,
                         runner_faster ? pick.method : runner_up->method, runner_faster ? *p : *r);
  }
  return c;
}

void ScanMethodTimings::record(const std::string& key, const std::string& method, double ms) {
  std::lock_guard lock(mu_);
  std::deque<double>& d = times_[key][method];
  d.push_back(ms);
  while (d.size() > kKeep) d.pop_front();
}

std::optional<double> ScanMethodTimings::measured(const std::string& key, const std::string& method) const {
  std::lock_guard lock(mu_);
  auto k = times_.find(key);
  if (k == times_.end()) return std::nullopt;
  auto m = k->second.find(method);
  if (m == k->second.end() || m->second.empty()) return std::nullopt;
  return median_of(m->second);
}

void ScanMethodTimings::clear() {
  std::lock_guard lock(mu_);
  times_.clear();
}

}  // namespace raydb::exec
