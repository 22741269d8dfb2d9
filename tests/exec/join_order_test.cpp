// The shared join order (exec/core/join_order): greedy by selectivity, looking one step
// ahead through the filtering joins a step alone makes ready.
#include <gtest/gtest.h>

#include "exec/core/join_order.h"

namespace raydb::exec {
namespace {

TEST(JoinOrder, SmallestSelectivityFirstAmongReadySteps) {
  // root 0; steps bind tables 1, 2, 3 from the root.
  std::vector<JoinOrderStep> steps = {{1, 1, 0.5}, {2, 1, 0.1}, {3, 1, 0.9}};
  EXPECT_EQ(order_join_steps(steps, 0), (std::vector<size_t>{1, 0, 2}));
}

TEST(JoinOrder, UnfilteredStepGoesFirstWhenTheJoinItEnablesFilters) {
  // lineitem (0) -> orders (1, half kept); lineitem -> supplier (2, all kept) -> nation (3, 1/25 kept):
  // supplier then nation drop more rows than orders does.
  std::vector<JoinOrderStep> steps = {{1, 1, 0.49}, {2, 1, 1.0}, {3, 1 << 2, 0.04}};
  EXPECT_EQ(order_join_steps(steps, 0), (std::vector<size_t>{1, 2, 0}));
  // Without the filter on nation, orders (which filters) goes first.
  steps[2].selectivity = 1.0;
  EXPECT_EQ(order_join_steps(steps, 0), (std::vector<size_t>{0, 1, 2}));
}

TEST(JoinOrder, LookaheadCountsOnlyStepsMadeReadyByThatStep) {
  // Step for table 3 needs tables 1 and 2: binding 2 alone does not make it ready.
  std::vector<JoinOrderStep> steps = {{1, 1, 0.5}, {2, 1, 1.0}, {3, (1 << 1) | (1 << 2), 0.01}};
  EXPECT_EQ(order_join_steps(steps, 0), (std::vector<size_t>{0, 1, 2}));
}

TEST(JoinOrder, UnsatisfiableDependenciesAreAnError) {
  std::vector<JoinOrderStep> steps = {{1, 1 << 2, 0.5}};
  EXPECT_ANY_THROW(order_join_steps(steps, 0));
}

}  // namespace
}  // namespace raydb::exec
