#pragma once
// Summaries of repeated timings. Two medians on purpose: the query benchmarks report
// the mean of the two middle values of an even count, the index benchmark and the
// calibration the upper middle value (what their published numbers were made with).
#include <vector>

namespace raydb::bench {

struct TimingStats {
  double median = 0, min = 0, max = 0;
};

// Median (mean of the middle two for an even count), minimum and maximum; zeros for
// no timings.
TimingStats summarize(std::vector<double> times);

// The upper middle value (v[n / 2] of the sorted values); 0 for no timings.
double upper_median(std::vector<double> times);

}  // namespace raydb::bench
