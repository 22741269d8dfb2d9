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

namespace {

// One candidate as the choice sees it (in the order of the estimates): its kept times.
struct Candidate {
  const CostedMethod* method;
  size_t runs;
  std::optional<double> ms;
};

// Where every candidate has been timed: the fastest by its median (ties: the better
// estimate); but while another candidate lies within kUndecided of it, whichever of
// those has fewer than kSettleRuns times runs next (the fewest first, then by estimate).
MethodChoice settle(const std::vector<Candidate>& cands) {
  const Candidate* best = &cands[0];
  for (const Candidate& c : cands)
    if (*c.ms < *best->ms) best = &c;
  auto undecided = [&](const Candidate& c) { return *c.ms <= *best->ms * (1 + ScanMethodTimings::kUndecided); };
  const Candidate* next = nullptr;
  if (std::count_if(cands.begin(), cands.end(), undecided) > 1)  // the fastest has a rival inside the noise
    for (const Candidate& c : cands)
      if (undecided(c) && c.runs < ScanMethodTimings::kSettleRuns && (!next || c.runs < next->runs)) next = &c;
  MethodChoice out{best->method->method, ChoiceSource::kMeasured, true, ""};
  const Candidate* other = nullptr;  // the runner-up by measured time, for the note
  for (const Candidate& c : cands)
    if (&c != best && (!other || *c.ms < *other->ms)) other = &c;
  if (next) {
    out.method = next->method->method;
    out.source = ChoiceSource::kExplore;
    out.note = fmt::format("explore: measured {:.3f} ms within {:.0f}% of {:.3f} ms, run {} of {}", *next->ms,
                           100 * ScanMethodTimings::kUndecided, *(next == best ? other : best)->ms, next->runs + 1,
                           ScanMethodTimings::kSettleRuns);
    return out;
  }
  out.note = fmt::format("measured {:.3f} ms vs {} {:.3f} ms", *best->ms, other->method->method, *other->ms);
  return out;
}

}  // namespace

MethodChoice ScanMethodTimings::choose(const std::string& key, const std::vector<CostedMethod>& ranked,
                                       double margin) const {
  const CostedMethod& pick = ranked.at(0);
  MethodChoice c{pick.method, ChoiceSource::kModel, false, "model"};
  std::vector<Candidate> cands;
  for (size_t i = 0; i < ranked.size() && margin > 0; i++)
    if (ranked[i].model_ms <= pick.model_ms * (1 + margin))
      cands.push_back({&ranked[i], runs(key, ranked[i].method), measured(key, ranked[i].method)});
  if (cands.size() < 2) return c;
  c.adaptive = true;
  // Each runner-up once, in the order of the estimates, then the pick.
  for (size_t i = 1; i < cands.size(); i++)
    if (!cands[i].ms) {
      c.method = cands[i].method->method;
      c.source = ChoiceSource::kExplore;
      c.note = fmt::format("explore: estimate {:.3f} ms within {:.0f}% of {}'s {:.3f} ms", cands[i].method->model_ms,
                           100 * margin, pick.method, pick.model_ms);
      return c;
    }
  if (!cands[0].ms) {
    c.note = fmt::format("model; {} measured {:.3f} ms", cands[1].method->method, *cands[1].ms);
    return c;
  }
  return settle(cands);
}

MethodChoice ScanMethodTimings::choose(const std::string& key, const CostedMethod& pick,
                                       const std::optional<CostedMethod>& runner_up, double margin) const {
  std::vector<CostedMethod> ranked{pick};
  if (runner_up) ranked.push_back(*runner_up);
  return choose(key, ranked, margin);
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

size_t ScanMethodTimings::runs(const std::string& key, const std::string& method) const {
  std::lock_guard lock(mu_);
  auto k = times_.find(key);
  if (k == times_.end()) return 0;
  auto m = k->second.find(method);
  return m == k->second.end() ? 0 : m->second.size();
}

void ScanMethodTimings::clear() {
  std::lock_guard lock(mu_);
  times_.clear();
}

}  // namespace raydb::exec
