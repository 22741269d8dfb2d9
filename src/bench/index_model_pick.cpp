#include "bench/index_model_pick.h"

#include <cstdio>

#include <fmt/format.h>

#include "bench/index_methods.h"

namespace raydb::bench {

namespace {

// A candidate of the comparison: est < 0 when the model did not choose this mode
// (it competes for "fastest measured" only).
struct Choice {
  std::string method;
  int sp = 0;
  double est = 0;
  Measured m;
};

std::vector<Choice> collect_choices(const std::vector<std::string>& methods, const MeasuredTimes& measured, int sp,
                                    uint64_t keys, const plan::LookupBatch& batch) {
  std::vector<Choice> choices;
  for (const std::string& method : methods) {
    if (!plannable(method)) continue;
    const plan::ExecDevice dev = on_gpu(method) ? plan::ExecDevice::kGpu : plan::ExecDevice::kCpu;
    const plan::LookupEstimate e = plan::estimate_lookup(kind_of(method), dev, keys, batch);
    const int used = sp == 1 && !e.sort_first ? 0 : sp;  // the mode the model chose
    auto it = measured.find({method, used});
    if (it == measured.end()) {
      if (sp != 1) continue;
      // Not sorting was not measured (no sp 0 in this run): compare the sorted runs,
      // at the model's estimate of its own choice.
      it = measured.find({method, 1});
      if (it == measured.end()) continue;
      choices.push_back({method, 1, e.ms, it->second});
      continue;
    }
    choices.push_back({method, used, e.ms, it->second});
    if (sp == 1) {  // the other mode competes for "fastest measured"
      auto other = measured.find({method, used == 1 ? 0 : 1});
      if (other != measured.end()) choices.push_back({method, used == 1 ? 0 : 1, -1, other->second});
    }
  }
  return choices;
}

nlohmann::ordered_json pick_record(int sp, const Choice& pick, const Choice& fastest, bool same, bool noise, double gap,
                                   const std::vector<Choice>& choices) {
  nlohmann::ordered_json j;
  j["suite"] = "index-auto";
  j["probes"] = probes_name(sp);
  j["calibrated"] = plan::active_calibration() != nullptr;
  j["planner_method"] = pick.method;
  j["planner_probes"] = probes_name(pick.sp);
  j["planner_estimate_ms"] = pick.est;
  j["planner_measured_ms"] = pick.m.ms;
  j["fastest_method"] = fastest.method;
  j["fastest_probes"] = probes_name(fastest.sp);
  j["fastest_ms"] = fastest.m.ms;
  j["match"] = same;
  j["within_noise"] = same || noise;
  j["gap_pct"] = gap;
  nlohmann::ordered_json cs = nlohmann::ordered_json::array();
  for (const Choice& c : choices)
    cs.push_back({{"method", c.method}, {"probes", probes_name(c.sp)}, {"estimate_ms", c.est}, {"measured_ms", c.m.ms},
                  {"min_ms", c.m.lo}, {"max_ms", c.m.hi}});
  j["choices"] = cs;
  return j;
}

}  // namespace

void report_model_pick(const std::vector<std::string>& methods, const MeasuredTimes& measured, int sp, uint64_t keys,
                       const plan::LookupBatch& batch, const std::function<void(nlohmann::ordered_json)>& emit) {
  const std::vector<Choice> choices = collect_choices(methods, measured, sp, keys, batch);
  const Choice* pick = nullptr;
  const Choice* fastest = nullptr;
  for (const Choice& c : choices) {
    if (c.est >= 0 && (!pick || c.est < pick->est)) pick = &c;
    if (!fastest || c.m.ms < fastest->m.ms) fastest = &c;
  }
  if (!pick || !fastest) return;
  const bool same = pick->method == fastest->method && pick->sp == fastest->sp;
  const bool noise = !same && pick->m.lo <= fastest->m.hi;
  const double gap = (pick->m.ms / fastest->m.ms - 1) * 100;
  const std::string flag = same    ? ""
                           : noise ? fmt::format("  <- differs by {:.1f}%, within noise", gap)
                                   : fmt::format("  <- DIFFERS by {:.1f}%", gap);
  std::printf("auto (sp %d): model picks %s %s (est %.3f ms, measured %.3f); fastest measured: %s %s (%.3f ms)%s\n", sp,
              pick->method.c_str(), probes_name(pick->sp), pick->est, pick->m.ms, fastest->method.c_str(),
              probes_name(fastest->sp), fastest->m.ms, flag.c_str());
  emit(pick_record(sp, *pick, *fastest, same, noise, gap, choices));
}

}  // namespace raydb::bench
