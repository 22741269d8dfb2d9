// The micro-adaptive choice of an RT scan method (exec/index/scan_method_timings) with
// fake timings: a near-tie is explored once (the runner-up), then the pick is timed,
// then the faster measured method is kept and follows later measurements; beyond the
// margin nothing is explored; margin 0 turns it off.
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

TEST(ScanMethodTimings, PickKeptWhenItMeasuresFaster) {
  ScanMethodTimings t;
  auto fake = [](const std::string& m) { return m == "gpu-sieve" ? 0.255 : 0.241; };
  run_once(t, "k", kNear, 0.15, fake);
  run_once(t, "k", kNear, 0.15, fake);
  MethodChoice c = run_once(t, "k", kNear, 0.15, fake);
  EXPECT_EQ(c.method, "gpu-scan");
  EXPECT_EQ(c.source, ChoiceSource::kMeasured);
  EXPECT_EQ(c.note, "measured 0.241 ms vs gpu-sieve 0.255 ms");
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
