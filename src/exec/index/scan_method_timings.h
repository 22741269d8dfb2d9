#pragma once
// Micro-adaptive choice of an RT scan method (after Raducanu et al., SIGMOD 2013): the
// cost model's estimates of two methods are often within its own error of each other,
// and which one runs faster can flip between two runs of the same workload on one card.
// Every method whose estimate is within a margin of the pick's is a candidate: each is
// run once and timed (the runners-up first, then the pick); candidates whose measured
// times lie within kUndecided of the fastest's are run in turn until each has
// kSettleRuns times (one run each cannot tell apart two methods inside the run-to-run
// noise); from then on the fastest by its median is taken. A method that measured
// clearly slower is dropped after its one run. Every method returns the identical bit
// vector, so trying one never changes a result.
//
// The store is keyed by the caller (exec/index/rt_scan_chooser: the index, the
// predicate shape, the estimate's selectivity bucket, the device) and holds the last
// few measured times per method; the median of those is the method's time, so one slow
// run does not flip a choice. Thread-safe: queries of several sessions share it.
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace raydb::exec {

// A method with the cost model's estimate for it.
struct CostedMethod {
  std::string method;
  double model_ms = 0;
};

enum class ChoiceSource {
  kModel,     // the cost model's pick (no near-tie, or the pick not timed yet)
  kExplore,   // the runner-up, run once to be timed
  kMeasured,  // the faster of the two by their measured times
};
const char* choice_source_name(ChoiceSource s);  // "model", "explore", "measured"

struct MethodChoice {
  std::string method;
  ChoiceSource source = ChoiceSource::kModel;
  bool adaptive = false;  // a near-tie: the method that runs should be timed and recorded
  std::string note;       // for EXPLAIN: "measured 0.214 ms vs gpu-scan 0.245 ms", ...
};

class ScanMethodTimings {
 public:
  static constexpr size_t kKeep = 5;  // runs per method the median is taken over
  // Measured medians within this share of the fastest's are not told apart by one run
  // each (on the H100 a method's median lay a median 6% above its minimum over five
  // runs); those candidates run until each has kSettleRuns times.
  static constexpr double kUndecided = 0.10;
  static constexpr size_t kSettleRuns = 3;

  // The process-wide store the planner and the executors share.
  static ScanMethodTimings& shared();

  // The method to run for `key` among `ranked` (ascending estimates; ranked[0] is the
  // model's pick): the pick unless another method's estimate is within `margin` of it
  // (model_ms <= pick.model_ms * (1 + margin)); then as the header says. margin <= 0
  // turns this off (always the pick).
  MethodChoice choose(const std::string& key, const std::vector<CostedMethod>& ranked, double margin) const;
  // The same with the pick and at most one runner-up.
  MethodChoice choose(const std::string& key, const CostedMethod& pick, const std::optional<CostedMethod>& runner_up,
                      double margin) const;
  void record(const std::string& key, const std::string& method, double ms);
  // The median of the method's last kKeep times, or nullopt when never timed.
  std::optional<double> measured(const std::string& key, const std::string& method) const;
  // How many times of the method are kept (at most kKeep).
  size_t runs(const std::string& key, const std::string& method) const;
  void clear();

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::map<std::string, std::deque<double>>> times_;
};

}  // namespace raydb::exec
