// The micro-adaptive choice of an RT scan method (exec/index/scan_method_timings) with
// fake timings: every method within the margin is explored once (the runners-up, then
// the pick); measured times within kUndecided of each other run until each has
// kSettleRuns times; then the fastest measured method is kept and follows later
// measurements; beyond the margin nothing is explored; margin 0 turns it off.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "exec/index/scan_method_timings.h"

namespace raydb::exec {
namespace {

const CostedMethod kPick{"gpu-scan", 0.241};
const CostedMethod kNear{"gpu-sieve", 0.255};  // within 15% of the pick's estimate
const CostedMethod kFar{"rt", 0.400};          // 66% above it

// Runs the choice once for `key` and records `ms(method)` for what it ran, as the
// executors do; returns the choice.
template <class F>
MethodChoice run_once(ScanMethodTimings& t, const std::string& key, const CostedMethod& runner, double margin, F ms) {
  MethodChoice c = t.choose(key, kPick, runner, margin);
  if (c.adaptive) t.record(key, c.method, ms(c.method));
  return c;
}

TEST(ScanMethodTimings, NearTieExploredOnceThenFasterKept) {
  ScanMethodTimings t;
  auto fake = [](const std::string& m) { return m == "gpu-sieve" ? 0.214 : 0.245; };
  MethodChoice c1 = run_once(t, "k", kNear, 0.15, fake);
  EXPECT_EQ(c1.method, "gpu-sieve");
  EXPECT_EQ(c1.source, ChoiceSource::kExplore);
  MethodChoice c2 = run_once(t, "k", kNear, 0.15, fake);
  EXPECT_EQ(c2.method, "gpu-scan");  // the pick, timed now
  EXPECT_EQ(c2.source, ChoiceSource::kModel);
  for (int i = 0; i < 4; i++) {
    MethodChoice c = run_once(t, "k", kNear, 0.15, fake);
    EXPECT_EQ(c.method, "gpu-sieve");
    EXPECT_EQ(c.source, ChoiceSource::kMeasured);
    EXPECT_EQ(c.note, "measured 0.214 ms vs gpu-scan 0.245 ms");
  }
  EXPECT_DOUBLE_EQ(*t.measured("k", "gpu-scan"), 0.245);
  // Another key knows nothing yet.
  EXPECT_EQ(t.choose("other", kPick, kNear, 0.15).source, ChoiceSource::kExplore);
}

// 0.241 against 0.255 ms is inside kUndecided: one run each does not settle it, so both
// run in turn (the fewer times first) until each has kSettleRuns, then the faster.
TEST(ScanMethodTimings, PickKeptWhenItMeasuresFasterAfterSettling) {
  ScanMethodTimings t;
  auto fake = [](const std::string& m) { return m == "gpu-sieve" ? 0.255 : 0.241; };
  EXPECT_EQ(run_once(t, "k", kNear, 0.15, fake).method, "gpu-sieve");  // explore
  EXPECT_EQ(run_once(t, "k", kNear, 0.15, fake).method, "gpu-scan");   // the pick, timed
  std::vector<std::string> settling;
  MethodChoice c;
  for (int i = 0; i < 10; i++) {
    c = run_once(t, "k", kNear, 0.15, fake);
    if (c.source != ChoiceSource::kExplore) break;
    EXPECT_NE(c.note.find("run "), std::string::npos) << c.note;
    settling.push_back(c.method);
  }
  EXPECT_EQ(settling, (std::vector<std::string>{"gpu-scan", "gpu-sieve", "gpu-scan", "gpu-sieve"}));
  EXPECT_EQ(t.runs("k", "gpu-sieve"), ScanMethodTimings::kSettleRuns);
  EXPECT_EQ(c.method, "gpu-scan");
  EXPECT_EQ(c.source, ChoiceSource::kMeasured);
  EXPECT_EQ(c.note, "measured 0.241 ms vs gpu-sieve 0.255 ms");
  // Settled: the slower one is not run again.
  for (int i = 0; i < 5; i++) EXPECT_EQ(run_once(t, "k", kNear, 0.15, fake).method, "gpu-scan");
  EXPECT_EQ(t.runs("k", "gpu-sieve"), ScanMethodTimings::kSettleRuns);
}

// Every method within the margin is a candidate, not only the runner-up: the third
// estimate can be the fastest.
TEST(ScanMethodTimings, EveryMethodWithinTheMarginIsTried) {
  ScanMethodTimings t;
  const std::vector<CostedMethod> ranked{{"gpu-scan", 0.20}, {"gpu-sieve", 0.22}, {"rt", 0.24}, {"far", 0.40}};
  auto fake = [](const std::string& m) { return m == "rt" ? 0.10 : m == "far" ? 0.01 : 0.30; };
  std::vector<std::string> ran;
  MethodChoice c;
  for (int i = 0; i < 8; i++) {
    c = t.choose("k", ranked, 0.25);
    ASSERT_TRUE(c.adaptive);
    t.record("k", c.method, fake(c.method));
    ran.push_back(c.method);
  }
  // The runners-up in estimate order, then the pick; rt measured 3x faster settles at once.
  EXPECT_EQ(ran, (std::vector<std::string>{"gpu-sieve", "rt", "gpu-scan", "rt", "rt", "rt", "rt", "rt"}));
  EXPECT_EQ(c.source, ChoiceSource::kMeasured);
  EXPECT_FALSE(t.measured("k", "far"));  // beyond the margin: never run, however fast it would be
}

// The CPU case of this machine: the model may rank the Embree RT method first, but where
// it measures clearly slower than a plain method it runs once and never again.
TEST(ScanMethodTimings, MeasuredSlowerRtNotChosen) {
  ScanMethodTimings t;
  const std::vector<CostedMethod> ranked{{"rt", 1.14}, {"cpu-sieve", 1.26}, {"cpu-scan", 1.30}};
  auto fake = [](const std::string& m) { return m == "rt" ? 35.0 : m == "cpu-sieve" ? 1.8 : 16.0; };
  int rt_runs = 0;
  for (int i = 0; i < 20; i++) {
    const MethodChoice c = t.choose("k", ranked, 0.25);
    t.record("k", c.method, fake(c.method));
    rt_runs += c.method == "rt";
    if (i >= 3) {
      EXPECT_EQ(c.method, "cpu-sieve") << i;
      EXPECT_EQ(c.source, ChoiceSource::kMeasured) << i;
    }
  }
  EXPECT_EQ(rt_runs, 1);
}

TEST(ScanMethodTimings, MedianOfRecentRunsFollowsAChange) {
  ScanMethodTimings t;
  t.record("k", "gpu-sieve", 0.20);
  t.record("k", "gpu-sieve", 0.21);
  t.record("k", "gpu-scan", 0.25);
  EXPECT_EQ(t.choose("k", kPick, kNear, 0.15).method, "gpu-sieve");
  // One slow run does not flip the choice (the median of the last runs).
  t.record("k", "gpu-sieve", 5.0);
  EXPECT_DOUBLE_EQ(*t.measured("k", "gpu-sieve"), 0.21);
  EXPECT_EQ(t.choose("k", kPick, kNear, 0.15).method, "gpu-sieve");
  // It became slower for good: after a majority of the kept runs the pick wins back.
  for (int i = 0; i < 3; i++) t.record("k", "gpu-sieve", 0.30);
  EXPECT_EQ(t.choose("k", kPick, kNear, 0.15).method, "gpu-scan");
  // Only the last kKeep runs count.
  for (size_t i = 0; i < ScanMethodTimings::kKeep; i++) t.record("k", "gpu-sieve", 0.10);
  EXPECT_DOUBLE_EQ(*t.measured("k", "gpu-sieve"), 0.10);
}

TEST(ScanMethodTimings, BeyondTheMarginNeverExplored) {
  ScanMethodTimings t;
  auto fake = [](const std::string& m) { return m == "rt" ? 0.01 : 0.3; };  // rt would be faster
  for (int i = 0; i < 5; i++) {
    MethodChoice c = run_once(t, "k", kFar, 0.15, fake);
    EXPECT_EQ(c.method, "gpu-scan");
    EXPECT_EQ(c.source, ChoiceSource::kModel);
    EXPECT_FALSE(c.adaptive);
  }
  EXPECT_FALSE(t.measured("k", "rt"));
  // A wider margin reaches it.
  EXPECT_EQ(t.choose("k", kPick, kFar, 0.7).source, ChoiceSource::kExplore);
}

TEST(ScanMethodTimings, MarginZeroIsOff) {
  ScanMethodTimings t;
  t.record("k", "gpu-sieve", 0.1);
  t.record("k", "gpu-scan", 0.3);
  const CostedMethod equal{"gpu-sieve", kPick.model_ms};  // an exact tie in the estimates
  for (const CostedMethod& r : {kNear, equal}) {
    MethodChoice c = t.choose("k", kPick, r, 0);
    EXPECT_EQ(c.method, "gpu-scan");
    EXPECT_FALSE(c.adaptive);
    EXPECT_EQ(c.note, "model");
  }
  // One method only: nothing to compare.
  EXPECT_EQ(t.choose("k", kPick, std::nullopt, 0.15).method, "gpu-scan");
}

TEST(ScanMethodTimings, SharedAcrossThreads) {
  ScanMethodTimings t;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; i++)
    threads.emplace_back([&t, i] {
      for (int j = 0; j < 1000; j++) {
        t.record("k" + std::to_string(j % 3), i % 2 ? "a" : "b", double(j));
        (void)t.choose("k1", {"a", 1}, CostedMethod{"b", 1.1}, 0.15);
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_TRUE(t.measured("k0", "a"));
  EXPECT_TRUE(t.measured("k2", "b"));
}

}  // namespace
}  // namespace raydb::exec
