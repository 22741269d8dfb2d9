#include "bench/index_bench.h"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <parallel/algorithm>
#include <random>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/index_methods.h"
#include "bench/index_model_pick.h"
#include "bench/index_oracle.h"
#include "bench/run_context.h"
#include "bench/timing_stats.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "common/timer.h"

namespace raydb::bench {

namespace {

std::vector<int> parse_ints(const std::string& s) {
  std::vector<int> out;
  size_t p = 0;
  while (p < s.size()) {
    size_t c = s.find(',', p);
    if (c == std::string::npos) c = s.size();
    out.push_back(std::stoi(s.substr(p, c - p)));
    p = c + 1;
  }
  return out;
}
std::vector<std::string> parse_words(const std::string& s) {
  std::vector<std::string> out;
  size_t p = 0;
  while (p < s.size()) {
    size_t c = s.find(',', p);
    if (c == std::string::npos) c = s.size();
    out.push_back(s.substr(p, c - p));
    p = c + 1;
  }
  return out;
}

// The indexed data of one point of the sweep: distinct keys base + 2j (base = 2^40 -
// 2^20 for 64-bit keys, so keys span planes), each 2^dup times, shuffled; misses are
// odd values. Row id = position.
struct KeySet {
  int bits = 32, lk = 0, dup = 0;
  uint64_t n = 0, distinct = 0, base = 0;
  std::vector<uint64_t> keys;
  std::vector<int64_t> values;
};

KeySet make_key_set(int bits, int lk, int dup, uint64_t seed) {
  KeySet ks;
  ks.bits = bits;
  ks.lk = lk;
  ks.dup = dup;
  std::mt19937_64 rng(seed);
  ks.n = uint64_t{1} << lk;
  ks.distinct = ks.n >> dup;
  ks.base = bits == 64 ? (uint64_t{1} << 40) - (uint64_t{1} << 20) : 0;
  ks.keys.resize(ks.n);
  for (uint64_t i = 0; i < ks.n; ++i) ks.keys[i] = ks.base + 2 * (i >> dup);
  std::shuffle(ks.keys.begin(), ks.keys.end(), rng);
  ks.values.resize(ks.n);
  for (uint64_t i = 0; i < ks.n; ++i) ks.values[i] = static_cast<int64_t>(i % 1000);
  return ks;
}

// One batch of lookups over a key set: points (hits 0; a hit with probability
// hit_rate, else the odd value after a key) or ranges over `hits` distinct keys.
struct LookupSet {
  int ll = 0, hits = 0;
  double hit_rate = 1;
  uint64_t nl = 0;
  std::vector<access::KeyRange> lookups;
  std::vector<access::KeyRange> presorted;  // --sorted-probes 2, sorted on first use
};

void make_lookups(const KeySet& ks, uint64_t seed, LookupSet& ls) {
  ls.nl = uint64_t{1} << ls.ll;
  ls.lookups.resize(ls.nl);
  // Chunks with their own generators: parallel and reproducible.
  const uint64_t chunk = 1 << 16;
  const uint64_t nl = ls.nl;
  const int hits = ls.hits;
#pragma omp parallel for schedule(dynamic, 1)
  for (uint64_t c0 = 0; c0 < nl; c0 += chunk) {
    std::mt19937_64 r(seed * 7919 + c0 + static_cast<uint64_t>(hits) * 31 + ls.ll);
    std::uniform_int_distribution<uint64_t> pick(0, ks.distinct - 1);
    std::uniform_real_distribution<double> coin(0, 1);
    for (uint64_t i = c0; i < std::min(nl, c0 + chunk); ++i) {
      const uint64_t k = ks.base + 2 * pick(r);
      if (hits == 0) {
        const uint64_t p = coin(r) < ls.hit_rate ? k : k + 1;
        ls.lookups[i] = {p, p};
      } else {
        ls.lookups[i] = {k, k + 2 * static_cast<uint64_t>(hits - 1)};
      }
    }
  }
}

std::span<const access::KeyRange> batch_in_order(LookupSet& ls, int sp) {
  if (sp == 2 && ls.presorted.empty()) {
    ls.presorted = ls.lookups;
    __gnu_parallel::sort(ls.presorted.begin(), ls.presorted.end(), [](const auto& x, const auto& y) {
      return x.lo != y.lo ? x.lo < y.lo : x.hi < y.hi;
    });
  }
  return sp == 2 ? ls.presorted : ls.lookups;
}

// The timings of one method on one batch.
struct MethodRun {
  std::string method;
  int bucket = 0, sp = 0;
  std::vector<double> times, launch_times, sort_times;
  double med = 0, launch_med = 0, sort_med = 0;
  access::AggregateResult out;  // of the last repetition
  bool ok = false;
};

class IndexBench {
 public:
  explicit IndexBench(const IndexBenchOptions& o) : o_(o) {}
  void run();

 private:
  void run_key_set(int bits, int lk, int dup);
  void run_lookup_set(const KeySet& ks, const IndexOracle& oracle, LookupSet& ls);
  void measure(const KeySet& ks, const IndexOracle& oracle, LookupSet& ls, const std::string& method, int bucket,
               int sp, MeasuredTimes& measured);
  void time_index(const access::KeyIndex& index, std::span<const access::KeyRange> batch, MethodRun& mr) const;
  void print_row(const KeySet& ks, const LookupSet& ls, const MethodRun& mr, const access::IndexStats& st) const;
  nlohmann::ordered_json row_record(const KeySet& ks, const LookupSet& ls, const MethodRun& mr,
                                    const access::KeyIndex& index) const;
  void report_pick(const KeySet& ks, const LookupSet& ls, int sp, const MeasuredTimes& measured);
  void emit(nlohmann::ordered_json j);

  const IndexBenchOptions& o_;
  MachineInfo machine_;
  std::ofstream json_;
  std::vector<std::string> methods_;
  std::unique_ptr<rt::Tracer> tracer_;
  bool all_ok_ = true;
};

void IndexBench::run() {
  if (o_.reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
  if (o_.threads > 0) omp_set_num_threads(o_.threads);
  if (!o_.json.empty()) {
    json_.open(o_.json, std::ios::app);
    if (!json_) fail(ErrorKind::kIO, "cannot write {}", o_.json);
  }
  machine_ = machine_info();
  methods_ = parse_words(o_.methods);
  for (const std::string& method : methods_) {
    if (method == "rt-gpu" && o_.tracer != "optix") fail(ErrorKind::kInvalidInput, "bench index: rt-gpu needs --tracer optix");
    if ((traced(method) || method == "rt-gpu") && !tracer_)
      tracer_ = o_.tracer == "optix" ? rt::make_optix_tracer() : rt::make_embree_tracer();
  }
  std::printf("%-9s %4s %3s %3s %4s %4s %5s %4s %3s %9s %8s %10s %10s %8s %10s %9s %s\n", "method", "bkt", "kb", "lk",
              "ll", "hit", "range", "dup", "sp", "build_ms", "upl_ms", "lookup_ms", "launch_ms", "sort_ms",
              "Mlookup/s", "mem_MB", "ok");
  for (int bits : parse_ints(o_.key_bits))
    for (int lk : parse_ints(o_.log_keys))
      for (int dup : parse_ints(o_.log_dups)) run_key_set(bits, lk, dup);
  if (!all_ok_) fail(ErrorKind::kExecution, "bench index: a method returned a result different from the oracle");
}

void IndexBench::run_key_set(int bits, int lk, int dup) {
  if (bits != 32 && bits != 64) fail(ErrorKind::kInvalidInput, "--key-bits: 32 or 64");
  if (lk < 1 || lk > 30 || dup < 0 || dup > lk) fail(ErrorKind::kInvalidInput, "bench index: sizes out of range");
  const KeySet ks = make_key_set(bits, lk, dup, o_.seed);
  const IndexOracle oracle(ks.keys, ks.values, ks.base, ks.distinct);
  for (int ll : parse_ints(o_.log_lookups))
    for (int hits : parse_ints(o_.range_hits))
      for (const std::string& hr_s : parse_words(o_.hit_rates)) {
        LookupSet ls;
        ls.ll = ll;
        ls.hits = hits;
        ls.hit_rate = std::stod(hr_s);
        if (ll < 0 || ll > 30) fail(ErrorKind::kInvalidInput, "bench index: sizes out of range");
        make_lookups(ks, o_.seed, ls);
        run_lookup_set(ks, oracle, ls);
      }
}

void IndexBench::run_lookup_set(const KeySet& ks, const IndexOracle& oracle, LookupSet& ls) {
  // Device times of the planner's methods at their default bucket, by (method, probe
  // order), for the cost model's pick.
  MeasuredTimes measured;
  for (int sp : parse_ints(o_.sorted_probes)) {
    for (const std::string& method : methods_)
      for (int bucket : parse_ints(o_.buckets)) {
        if (!uses_buckets(method) && bucket != parse_ints(o_.buckets).front()) continue;
        if ((method == "hash" || method == "hash-gpu") && ls.hits > 0) continue;
        measure(ks, oracle, ls, method, bucket == 0 ? default_bucket(method) : bucket, sp, measured);
      }
    report_pick(ks, ls, sp, measured);
  }
}

void IndexBench::measure(const KeySet& ks, const IndexOracle& oracle, LookupSet& ls, const std::string& method,
                         int bucket, int sp, MeasuredTimes& measured) {
  const std::span<const access::KeyRange> batch = batch_in_order(ls, sp);
  auto index = make_index(method, tracer_.get(), ks.keys, ks.values, sp == 1, o_.partitions, bucket);
  MethodRun mr;
  mr.method = method;
  mr.bucket = bucket;
  mr.sp = sp;
  time_index(*index, batch, mr);
  mr.ok = oracle.check(batch, mr.out);
  all_ok_ &= mr.ok;
  // GPU-resident methods compete on their device time (launch + probe sort), the
  // others on the end-to-end time (host tracers sort probes on the host).
  if (mr.ok && plannable(method) && (!uses_buckets(method) || bucket == default_bucket(method))) {
    std::vector<double> per_rep = mr.times;
    if (on_gpu(method))
      for (size_t r = 0; r < per_rep.size(); ++r) per_rep[r] = mr.launch_times[r] + mr.sort_times[r];
    measured[{method, sp}] = {on_gpu(method) ? mr.launch_med + mr.sort_med : mr.med,
                              *std::min_element(per_rep.begin(), per_rep.end()),
                              *std::max_element(per_rep.begin(), per_rep.end())};
  }
  print_row(ks, ls, mr, index->stats());
  emit(row_record(ks, ls, mr, *index));
}

// Warm-up runs, then timed repetitions. The launch alone (GPU: CUDA events, data
// resident) comes from the tracer or the index; the wall time is end to end from host
// memory (uploads, sorted-probe permutation, downloads).
void IndexBench::time_index(const access::KeyIndex& index, std::span<const access::KeyRange> batch,
                            MethodRun& mr) const {
  for (int w = 0; w < o_.warmup; ++w) index.aggregate(batch, mr.out);
  for (int r = 0; r < o_.reps; ++r) {
    Timer t;
    index.aggregate(batch, mr.out);
    mr.times.push_back(t.elapsed_ms());
    if (traced(mr.method)) {
      mr.launch_times.push_back(tracer_->last_launch_ms());
    } else if (on_gpu(mr.method)) {
      mr.launch_times.push_back(index.last_lookup_times().launch_ms);
      mr.sort_times.push_back(index.last_lookup_times().sort_ms);
    }
  }
  mr.launch_med = upper_median(mr.launch_times);
  mr.sort_med = upper_median(mr.sort_times);
  mr.med = upper_median(mr.times);
}

void IndexBench::print_row(const KeySet& ks, const LookupSet& ls, const MethodRun& mr,
                           const access::IndexStats& st) const {
  std::printf("%-9s %4d %3d %3d %4d %4.2f %5d %4d %3d %9.1f %8.1f %10.2f %10.2f %8.2f %10.2f %9.1f %s\n",
              mr.method.c_str(), uses_buckets(mr.method) ? mr.bucket : 0, ks.bits, ks.lk, ls.ll, ls.hit_rate, ls.hits,
              ks.dup, mr.sp, st.build_ms, st.upload_ms, mr.med, mr.launch_med, mr.sort_med,
              ls.nl / (mr.launch_med > 0 ? mr.launch_med : mr.med) / 1e3, st.memory_bytes / 1e6, mr.ok ? "yes" : "NO");
  std::fflush(stdout);
}

nlohmann::ordered_json IndexBench::row_record(const KeySet& ks, const LookupSet& ls, const MethodRun& mr,
                                              const access::KeyIndex& index) const {
  const access::IndexStats& st = index.stats();
  nlohmann::ordered_json j;
  j["suite"] = "index";
  j["method"] = mr.method;
  j["index"] = index.name();
  j["tracer"] = traced(mr.method) || mr.method == "rt-gpu" ? tracer_->name() : "none";
  j["launch_median_ms"] = mr.launch_med;
  j["sort_median_ms"] = mr.sort_med;
  j["key_bits"] = ks.bits;
  j["log_keys"] = ks.lk;
  j["log_lookups"] = ls.ll;
  j["hit_rate"] = ls.hit_rate;
  j["range_hits"] = ls.hits;
  j["log_dups"] = ks.dup;
  j["sorted_probes"] = mr.sp != 0;
  j["probes"] = probes_name(mr.sp);
  j["partitions"] = o_.partitions;
  j["bucket"] = uses_buckets(mr.method) ? mr.bucket : 0;
  j["build_ms"] = st.build_ms;
  j["upload_ms"] = st.upload_ms;
  j["lookup_median_ms"] = mr.med;
  j["lookup_min_ms"] = *std::min_element(mr.times.begin(), mr.times.end());
  j["lookup_max_ms"] = *std::max_element(mr.times.begin(), mr.times.end());
  j["times_ms"] = mr.times;
  j["launch_times_ms"] = mr.launch_times;
  j["memory_bytes"] = st.memory_bytes;
  j["peak_build_bytes"] = st.peak_build_bytes;
  j["verified"] = mr.ok;
  j["threads"] = omp_get_max_threads();
  return j;
}

// What the cost model picks for this batch (method and whether to sort it first; sp 1
// = the index may sort, so not sorting is a choice too) next to the fastest measured
// of the same choices.
void IndexBench::report_pick(const KeySet& ks, const LookupSet& ls, int sp, const MeasuredTimes& measured) {
  plan::LookupBatch batch;
  batch.lookups = double(ls.nl);
  batch.ranges = ls.hits > 0;
  batch.hits_per_lookup = double(uint64_t{1} << ks.dup) * (ls.hits > 0 ? ls.hits : ls.hit_rate);
  batch.presorted = sp == 2;
  batch.may_sort = sp == 1;
  report_model_pick(methods_, measured, sp, ks.n, batch, [&](nlohmann::ordered_json j) {
    j["key_bits"] = ks.bits;
    j["log_keys"] = ks.lk;
    j["log_lookups"] = ls.ll;
    j["hit_rate"] = ls.hit_rate;
    j["range_hits"] = ls.hits;
    j["log_dups"] = ks.dup;
    emit(std::move(j));
  });
}

void IndexBench::emit(nlohmann::ordered_json j) {
  if (!json_.is_open()) return;
  add_run_context(j, machine_);
  json_ << j.dump() << "\n";
  json_.flush();
}

}  // namespace

void run_index_bench(const IndexBenchOptions& options) { IndexBench(options).run(); }

}  // namespace raydb::bench
