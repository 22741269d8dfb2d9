#include "bench/decode_bench.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench/star_result_synth.h"
#include "common/error.h"
#include "common/timer.h"

namespace raydb::bench {

namespace {

using exec::cuda::DecodeMode;
using exec::cuda::DecodeSteps;

struct Case {
  const char* name;
  SynthShape shape;
};

std::vector<Case> cases(const DecodeBenchOptions& o) {
  using A = SynthAgg;
  std::vector<Case> out;
  SynthShape one;
  one.groups = o.groups;
  one.root_range = o.range;
  one.seed = o.seed;
  one.aggs = {A::kCountStar};
  out.push_back({"1 key, count(*), ids shuffled", one});
  SynthShape windows = one;
  windows.window = 4096;
  out.push_back({"1 key, count(*), ids shuffled in 4096s", windows});
  SynthShape sorted = one;
  sorted.shuffled = false;
  out.push_back({"1 key, count(*), ids ascending", sorted});
  SynthShape sum = one;
  sum.aggs = {A::kCountStar, A::kSumInt};
  out.push_back({"1 key, count(*) + sum", sum});
  SynthShape having = sum;
  having.having = true;
  out.push_back({"1 key, count + sum, HAVING", having});
  SynthShape two = sum;
  two.dim_codes = 25;
  two.dim_local = 25;
  two.root_range = std::max<uint64_t>(o.range / 25, 1);
  out.push_back({"2 keys (dim, root), count + sum", two});
  SynthShape swapped = two;
  swapped.dim_first = false;
  out.push_back({"2 keys (root, dim), count + sum", swapped});
  return out;
}

// The result as the device's compaction leaves it in the host staging buffer: each
// field's words, then the group ids (exec::cuda::read_staged_groups).
std::vector<unsigned long long> staging_of(const SynthStarResult& s) {
  std::vector<unsigned long long> out;
  for (auto& f : s.fields) out.insert(out.end(), f.begin(), f.end());
  out.insert(out.end(), s.present.begin(), s.present.end());
  return out;
}

// One decode mode of one shape, `reps` times: per step and in total.
exec::ResultTable time_mode(const SynthStarResult& s, DecodeMode mode, int reps, const char* label) {
  std::map<std::string, std::vector<double>> steps;
  std::vector<std::string> names;
  std::vector<double> total, copy;
  exec::ResultTable result;
  const std::vector<unsigned long long> staged = staging_of(s);
  for (int i = 0; i < reps; i++) {
    exec::cuda::GroupIds present;
    exec::cuda::GroupFields fields;
    Timer c;
    exec::cuda::read_staged_groups(staged.data(), s.present.size(), int(s.fields.size()), true, present, fields);
    copy.push_back(c.elapsed_ms());
    exec::cuda::StarGroups g = s.view(&present, &fields);
    exec::ResultTable r;
    r.interner = std::make_shared<exec::StringInterner>();
    DecodeSteps st;
    Timer t;
    exec::cuda::decode_star_groups(g, r, mode, &st);
    total.push_back(t.elapsed_ms());
    for (auto& [name, ms] : st.ms) {
      if (!steps.count(name)) names.push_back(name);
      steps[name].push_back(ms);
    }
    result = std::move(r);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::sort(total.begin(), total.end());
  std::printf("  %-8s total median %8.2f ms  min %8.2f  max %8.2f  (%zu rows)\n", label, median(total), total.front(),
              total.back(), result.rows);
  std::printf("    %-30s %8.2f ms  (from the staging copy, before the decode)\n", "copy back", median(copy));
  for (auto& n : names) std::printf("    %-30s %8.2f ms\n", n.c_str(), median(steps[n]));
  std::fflush(stdout);
  return result;
}

// The zero fill the decode's result vectors get before their parallel fill: `vectors`
// exec::Vectors of n BIGINTs made as the decode makes them (the size constructor: pages
// populated on all threads, then zeroed on one), all alive at once as the decode's are;
// median of `reps`.
double zero_fill_ms(size_t vectors, size_t n, int reps) {
  std::vector<double> ms;
  for (int i = 0; i < reps; i++) {
    std::vector<exec::Vector> v;
    Timer t;
    for (size_t k = 0; k < vectors; k++) v.emplace_back(Type::bigint(), n);
    ms.push_back(t.elapsed_ms());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

bool same_rows(const exec::ResultTable& a, const exec::ResultTable& b) {
  if (a.rows != b.rows || a.columns.size() != b.columns.size()) return false;
  for (size_t c = 0; c < a.columns.size(); c++)
    for (size_t i = 0; i < a.rows; i++)
      if (!(a.columns[c].value_at(i) == b.columns[c].value_at(i))) return false;
  return true;
}

}  // namespace

void run_decode_bench(const DecodeBenchOptions& o) {
  if (o.groups == 0 || o.range < o.groups || o.range >= (uint64_t(1) << 31) || o.reps < 1)
    fail(ErrorKind::kInvalidInput, "bench decode needs 0 < --groups <= --range < 2^31 and --reps >= 1");
  std::printf("decode: %llu present groups of %llu group ids, %d reps\n", (unsigned long long)o.groups,
              (unsigned long long)o.range, o.reps);
  for (const Case& c : cases(o)) {
    const SynthStarResult s = make_synth_star_result(c.shape);
    std::printf("%s\n", c.name);
    const exec::ResultTable general = time_mode(s, DecodeMode::kGeneral, o.reps, "general");
    const exec::ResultTable fast = time_mode(s, DecodeMode::kFast, o.reps, "fast");
    if (!same_rows(general, fast)) fail(ErrorKind::kInternal, "bench decode: the decodes differ on {}", c.name);
    std::printf("  result vectors' zero fill (%zu x %zu ints, prefaulted; inside the fast steps) %.2f ms\n",
                fast.columns.size(), fast.rows, zero_fill_ms(fast.columns.size(), fast.rows, o.reps));
  }
}

}  // namespace raydb::bench
