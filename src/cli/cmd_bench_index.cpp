// raydb bench index: the RT index against its baselines along the RX paper's
// dimensions (keys, lookups, hit rate, sorted probes, duplicates, range hits, key
// width), one JSON line per measurement. Every result is checked against an oracle
// computed from how the data is generated (distinct key j = base + 2j with 2^dup
// copies: per-key counts and sums, prefix sums over j), O(keys + lookups) and
// independent of every index, so checking costs little even at 2^27 lookups.
//
// Methods: rt, rx, cgrx, rt-box, rt-bucket (host-built RT indexes on --tracer),
// sa, hash (CPU baselines), and the GPU-resident indexes rt-gpu (RT index built on
// the device, OptiX), sa-gpu, hash-gpu. GPU rows report launch_ms (the lookup pass
// alone, lookups and results on the device, CUDA events), sort_ms (sorting the probes
// on the device, sorted probes only, not in launch_ms), build_ms (data already on
// the device) and upload_ms separately; lookup_ms is end to end from host memory.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <parallel/algorithm>
#include <random>

#include <nlohmann/json.hpp>

#include "access/gpu/gpu_indexes.h"
#include "access/rt_index/baselines.h"
#include "access/rt_index/bucket_rt_index.h"
#include "access/rt_index/rt_index.h"
#include "cli/commands.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "common/timer.h"
#include "plan/physical/cost_model.h"
#include "raydb/build_config.h"

namespace raydb::cli {
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

bool on_gpu(const std::string& method) {
  return method.size() > 4 && method.compare(method.size() - 4, 4, "-gpu") == 0;
}
bool uses_buckets(const std::string& method) { return method == "cgrx" || method == "rt-bucket" || method == "rt-gpu"; }
bool traced(const std::string& method) { return method != "sa" && method != "hash" && !on_gpu(method); }

// The methods the planner can choose: the index kinds of CREATE INDEX with their
// default options, on the CPU and on the GPU (what `raydb calibrate` measures).
bool plannable(const std::string& method) {
  return method == "rt" || method == "sa" || method == "hash" || method == "rt-gpu" || method == "sa-gpu" ||
         method == "hash-gpu";
}
int default_bucket(const std::string& method) {
  return method == "cgrx" ? 32 : static_cast<int>(access::GpuIndexOptions{}.bucket_size);
}
const char* probes_name(int sp) { return sp == 0 ? "unsorted" : sp == 1 ? "index-sorts" : "presorted"; }

// The index kind of the SQL planner (plan::IndexKind) each method implements.
plan::IndexKind kind_of(const std::string& method) {
  if (method == "sa" || method == "sa-gpu") return plan::IndexKind::kSorted;
  if (method == "hash" || method == "hash-gpu") return plan::IndexKind::kHash;
  return plan::IndexKind::kRt;
}

// One method's time in one probe order: median and the spread of the repetitions.
struct Measured {
  double ms = 0, lo = 0, hi = 0;
};

// Prints (and hands to `emit` as JSON) the cost model's pick for a batch against the
// fastest measured. Probe order sp 0: the batch is used as it comes; 1: the index may
// sort it first or not (not sorting is measured in sp 0, when that ran); 2: presorted.
// "Within noise": the pick's fastest repetition is no slower than the fastest
// method's slowest one.
void report_auto(const std::vector<std::string>& methods, const std::map<std::pair<std::string, int>, Measured>& measured,
                 int sp, uint64_t keys, const plan::LookupBatch& batch,
                 const std::function<void(nlohmann::ordered_json)>& emit) {
  struct Choice {
    std::string method;
    int sp = 0;
    double est = 0;
    Measured m;
  };
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
  nlohmann::ordered_json j;
  j["suite"] = "index-auto";
  j["probes"] = probes_name(sp);
  j["calibrated"] = plan::active_calibration() != nullptr;
  j["planner_method"] = pick->method;
  j["planner_probes"] = probes_name(pick->sp);
  j["planner_estimate_ms"] = pick->est;
  j["planner_measured_ms"] = pick->m.ms;
  j["fastest_method"] = fastest->method;
  j["fastest_probes"] = probes_name(fastest->sp);
  j["fastest_ms"] = fastest->m.ms;
  j["match"] = same;
  j["within_noise"] = same || noise;
  j["gap_pct"] = gap;
  nlohmann::ordered_json cs = nlohmann::ordered_json::array();
  for (const Choice& c : choices)
    cs.push_back({{"method", c.method}, {"probes", probes_name(c.sp)}, {"estimate_ms", c.est}, {"measured_ms", c.m.ms},
                  {"min_ms", c.m.lo}, {"max_ms", c.m.hi}});
  j["choices"] = cs;
  emit(std::move(j));
}

std::unique_ptr<access::KeyIndex> make_index(const std::string& method, rt::Tracer* tracer,
                                             std::span<const uint64_t> keys, std::span<const int64_t> values,
                                             bool sorted_probes, int partitions, int bucket) {
  if (method == "sa") return std::make_unique<access::SortedArrayIndex>(keys, values, access::BaselineOptions{sorted_probes});
  if (method == "hash") return std::make_unique<access::HashIndex>(keys, values, access::BaselineOptions{sorted_probes});
  access::GpuIndexOptions g;
  g.sorted_probes = sorted_probes;
  g.bucket_size = static_cast<uint32_t>(bucket);
  if (method == "sa-gpu") return access::make_gpu_sorted_array(keys, values, g);
  if (method == "hash-gpu") return access::make_gpu_hash(keys, values, g);
  if (tracer == nullptr) fail(ErrorKind::kInternal, "bench index: no tracer for {}", method);
  if (method == "rt-gpu") return access::make_gpu_rt(*tracer, keys, values, g);
  if (method == "rt-bucket")
    return std::make_unique<access::BucketRtIndex>(*tracer, keys, values, static_cast<uint32_t>(bucket), sorted_probes);
  access::RtIndexOptions o;
  o.sorted_probes = sorted_probes;
  o.partitions = static_cast<uint32_t>(partitions);
  if (method == "rx") {
    o.sort_keys = false;
  } else if (method == "cgrx") {
    o.bucket_size = static_cast<uint32_t>(bucket);
  } else if (method == "rt-box") {
    o.primitive = access::RtPrimitive::kBox;
  } else if (method != "rt") {
    fail(ErrorKind::kInvalidInput,
         "bench index: unknown method '{}' (rt, rx, cgrx, rt-box, rt-bucket, rt-gpu, sa, hash, sa-gpu, hash-gpu)", method);
  }
  return std::make_unique<access::RtIndex>(*tracer, keys, values, o);
}

// Expected results of the generated data (see the top of this file).
struct Oracle {
  uint64_t base = 0, distinct = 0;
  std::vector<uint64_t> count_prefix;  // keys with j' < j
  std::vector<int64_t> sum_prefix;     // their value sum

  Oracle(std::span<const uint64_t> keys, std::span<const int64_t> values, uint64_t base_, uint64_t distinct_)
      : base(base_), distinct(distinct_) {
    std::vector<uint64_t> c(distinct, 0);
    std::vector<int64_t> s(distinct, 0);
    for (size_t i = 0; i < keys.size(); ++i) {
      const uint64_t j = (keys[i] - base) / 2;
      ++c[j];
      s[j] += values[i];
    }
    count_prefix.assign(distinct + 1, 0);
    sum_prefix.assign(distinct + 1, 0);
    for (uint64_t j = 0; j < distinct; ++j) {
      count_prefix[j + 1] = count_prefix[j] + c[j];
      sum_prefix[j + 1] = sum_prefix[j] + s[j];
    }
  }
  // Distinct keys j in [j0, j1) with lo <= base + 2j <= hi.
  void expect(const access::KeyRange& q, uint64_t* count, int64_t* sum) const {
    *count = 0;
    *sum = 0;
    if (q.lo > q.hi || q.hi < base) return;
    const uint64_t j0 = q.lo <= base ? 0 : (q.lo - base + 1) / 2;
    const uint64_t j1 = std::min<uint64_t>(distinct, (q.hi - base) / 2 + 1);
    if (j0 >= j1) return;
    *count = count_prefix[j1] - count_prefix[j0];
    *sum = sum_prefix[j1] - sum_prefix[j0];
  }
  bool check(std::span<const access::KeyRange> lookups, const access::AggregateResult& out) const {
    if (out.count.size() != lookups.size() || out.sum.size() != lookups.size()) return false;
    bool ok = true;
#pragma omp parallel for schedule(static) reduction(&& : ok)
    for (size_t i = 0; i < lookups.size(); ++i) {
      uint64_t c;
      int64_t s;
      expect(lookups[i], &c, &s);
      ok = ok && c == out.count[i] && s == out.sum[i];
    }
    return ok;
  }
};

}  // namespace

void register_bench_index(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("index", "RT index vs sorted array vs hash table (JSON lines)");
  struct Args {
    std::string log_keys = "16,20", log_lookups = "20", hit_rates = "1.0", range_hits = "0", dups = "0",
                key_bits = "32", sorted = "0,1", methods = "rt,rx,cgrx,sa,hash", buckets = "0", json, tracer = "embree";
    int reps = 3, warmup = 1, threads = 0, partitions = 1;
    uint64_t seed = 42;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--log-keys", a->log_keys, "log2 of indexed keys, comma-separated (16..26)");
  cmd->add_option("--log-lookups", a->log_lookups, "log2 of lookups per batch, comma-separated");
  cmd->add_option("--hit-rates", a->hit_rates, "fractions of point lookups that hit, comma-separated");
  cmd->add_option("--range-hits", a->range_hits, "0: point lookups; h > 0: ranges over h distinct keys");
  cmd->add_option("--log-dups", a->dups, "log2 of copies per key, comma-separated");
  cmd->add_option("--key-bits", a->key_bits, "32 and/or 64");
  cmd->add_option("--sorted-probes", a->sorted,
                  "0: unsorted batch; 1: the index sorts each batch by lower bound; 2: the batch arrives sorted "
                  "(sorted before timing, as RX measures sorted probes); comma-separated");
  cmd->add_option("--methods", a->methods, "rt, rx, cgrx, rt-box, rt-bucket, rt-gpu, sa, hash, sa-gpu, hash-gpu");
  cmd->add_option("--partitions", a->partitions, "RT index partitions (instance structure when > 1)");
  cmd->add_option("--bucket", a->buckets,
                  "bucket sizes of cgrx, rt-bucket, rt-gpu, comma-separated (0: each method's default)");
  cmd->add_option("--reps", a->reps, "timed repetitions (median reported)");
  cmd->add_option("--warmup", a->warmup, "untimed runs first");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--seed", a->seed, "data seed");
  cmd->add_option("--json", a->json, "append one JSON object per measurement to FILE");
  cmd->add_option("--tracer", a->tracer, "tracer of the RT methods: embree (CPU) or optix (GPU)")
      ->check(CLI::IsMember({"embree", "optix"}));
  cmd->callback([a]() {
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (a->threads > 0) omp_set_num_threads(a->threads);
    std::ofstream json;
    if (!a->json.empty()) {
      json.open(a->json, std::ios::app);
      if (!json) fail(ErrorKind::kIO, "cannot write {}", a->json);
    }
    const MachineInfo m = machine_info();
    const std::vector<std::string> methods = parse_words(a->methods);
    std::unique_ptr<rt::Tracer> tracer;
    for (const std::string& method : methods) {
      if (method == "rt-gpu" && a->tracer != "optix") fail(ErrorKind::kInvalidInput, "bench index: rt-gpu needs --tracer optix");
      if ((traced(method) || method == "rt-gpu") && !tracer)
        tracer = a->tracer == "optix" ? rt::make_optix_tracer() : rt::make_embree_tracer();
    }
    std::printf("%-9s %4s %3s %3s %4s %4s %5s %4s %3s %9s %8s %10s %10s %8s %10s %9s %s\n", "method", "bkt", "kb", "lk",
                "ll", "hit", "range", "dup", "sp", "build_ms", "upl_ms", "lookup_ms", "launch_ms", "sort_ms",
                "Mlookup/s", "mem_MB", "ok");
    bool all_ok = true;
    auto emit_json = [&](nlohmann::ordered_json j) {
      if (!json.is_open()) return;
      j["raydb_version"] = RAYDB_VERSION;
      j["machine"] = {{"hostname", m.hostname}, {"cpu", m.cpu_model}, {"hardware_threads", m.hardware_threads},
                      {"memory_gib", m.memory_gib}};
      j["timestamp"] = std::time(nullptr);
      json << j.dump() << "\n";
      json.flush();
    };
    for (int bits : parse_ints(a->key_bits))
      for (int lk : parse_ints(a->log_keys))
        for (int dup : parse_ints(a->dups)) {
          if (bits != 32 && bits != 64) fail(ErrorKind::kInvalidInput, "--key-bits: 32 or 64");
          if (lk < 1 || lk > 30 || dup < 0 || dup > lk) fail(ErrorKind::kInvalidInput, "bench index: sizes out of range");
          // Distinct keys base + 2j (base = 2^40 - 2^20 for 64-bit: keys span planes), each
          // 2^dup times, shuffled; misses are odd values. Row id = position.
          std::mt19937_64 rng(a->seed);
          const uint64_t n = uint64_t{1} << lk, distinct = n >> dup;
          const uint64_t base = bits == 64 ? (uint64_t{1} << 40) - (uint64_t{1} << 20) : 0;
          std::vector<uint64_t> keys(n);
          for (uint64_t i = 0; i < n; ++i) keys[i] = base + 2 * (i >> dup);
          std::shuffle(keys.begin(), keys.end(), rng);
          std::vector<int64_t> values(n);
          for (uint64_t i = 0; i < n; ++i) values[i] = static_cast<int64_t>(i % 1000);
          const Oracle oracle(keys, values, base, distinct);
          for (int ll : parse_ints(a->log_lookups))
            for (int hits : parse_ints(a->range_hits))
              for (const std::string& hr_s : parse_words(a->hit_rates)) {
                const double hit_rate = std::stod(hr_s);
                if (ll < 0 || ll > 30) fail(ErrorKind::kInvalidInput, "bench index: sizes out of range");
                const uint64_t nl = uint64_t{1} << ll;
                std::vector<access::KeyRange> lookups(nl);
                // Chunks with their own generators: parallel and reproducible.
                const uint64_t chunk = 1 << 16;
#pragma omp parallel for schedule(dynamic, 1)
                for (uint64_t c0 = 0; c0 < nl; c0 += chunk) {
                  std::mt19937_64 r(a->seed * 7919 + c0 + static_cast<uint64_t>(hits) * 31 + ll);
                  std::uniform_int_distribution<uint64_t> pick(0, distinct - 1);
                  std::uniform_real_distribution<double> coin(0, 1);
                  for (uint64_t i = c0; i < std::min(nl, c0 + chunk); ++i) {
                    const uint64_t k = base + 2 * pick(r);
                    if (hits == 0) {
                      const uint64_t p = coin(r) < hit_rate ? k : k + 1;
                      lookups[i] = {p, p};
                    } else {
                      lookups[i] = {k, k + 2 * static_cast<uint64_t>(hits - 1)};
                    }
                  }
                }
                std::vector<access::KeyRange> presorted;  // --sorted-probes 2
                // Device times of the planner's methods at their default bucket, by (method,
                // probe order), for the cost model's pick below.
                std::map<std::pair<std::string, int>, Measured> measured;
                for (int sp : parse_ints(a->sorted)) {
                  for (const std::string& method : methods)
                    for (int bucket : parse_ints(a->buckets)) {
                      if (!uses_buckets(method) && bucket != parse_ints(a->buckets).front()) continue;
                      if ((method == "hash" || method == "hash-gpu") && hits > 0) continue;
                      int b = bucket;
                      if (b == 0) b = default_bucket(method);
                      if (sp == 2 && presorted.empty()) {
                        presorted = lookups;
                        __gnu_parallel::sort(presorted.begin(), presorted.end(), [](const auto& x, const auto& y) {
                          return x.lo != y.lo ? x.lo < y.lo : x.hi < y.hi;
                        });
                      }
                      const std::span<const access::KeyRange> batch = sp == 2 ? presorted : lookups;
                      auto index = make_index(method, tracer.get(), keys, values, sp == 1, a->partitions, b);
                      access::AggregateResult out;
                      for (int w = 0; w < a->warmup; ++w) index->aggregate(batch, out);
                      std::vector<double> times, launch_times, sort_times;
                      for (int r = 0; r < a->reps; ++r) {
                        Timer t;
                        index->aggregate(batch, out);
                        times.push_back(t.elapsed_ms());
                        if (traced(method)) {
                          launch_times.push_back(tracer->last_launch_ms());
                        } else if (on_gpu(method)) {
                          launch_times.push_back(index->last_lookup_times().launch_ms);
                          sort_times.push_back(index->last_lookup_times().sort_ms);
                        }
                      }
                      auto median = [](std::vector<double> v) {
                        std::sort(v.begin(), v.end());
                        return v.empty() ? 0.0 : v[v.size() / 2];
                      };
                      // The launch alone (GPU: CUDA events, data resident); lookup_ms is end to
                      // end from host memory (uploads, sorted-probe permutation, downloads).
                      const double launch_med = median(launch_times), sort_med = median(sort_times);
                      const double med = median(times);
                      const bool ok = oracle.check(batch, out);
                      all_ok &= ok;
                      // GPU-resident methods compete on their device time (launch + probe sort),
                      // the others on the end-to-end time (host tracers sort probes on the host).
                      if (ok && plannable(method) && (!uses_buckets(method) || b == default_bucket(method))) {
                        std::vector<double> per_rep = times;
                        if (on_gpu(method))
                          for (size_t r = 0; r < per_rep.size(); ++r) per_rep[r] = launch_times[r] + sort_times[r];
                        measured[{method, sp}] = {on_gpu(method) ? launch_med + sort_med : med,
                                                  *std::min_element(per_rep.begin(), per_rep.end()),
                                                  *std::max_element(per_rep.begin(), per_rep.end())};
                      }
                      const auto& st = index->stats();
                      const bool bucketed = uses_buckets(method);
                      std::printf("%-9s %4d %3d %3d %4d %4.2f %5d %4d %3d %9.1f %8.1f %10.2f %10.2f %8.2f %10.2f %9.1f %s\n",
                                  method.c_str(), bucketed ? b : 0, bits, lk, ll, hit_rate, hits, dup, sp, st.build_ms,
                                  st.upload_ms, med, launch_med, sort_med, nl / (launch_med > 0 ? launch_med : med) / 1e3,
                                  st.memory_bytes / 1e6, ok ? "yes" : "NO");
                      std::fflush(stdout);
                      nlohmann::ordered_json j;
                      j["suite"] = "index";
                      j["method"] = method;
                      j["index"] = index->name();
                      j["tracer"] = traced(method) || method == "rt-gpu" ? tracer->name() : "none";
                      j["launch_median_ms"] = launch_med;
                      j["sort_median_ms"] = sort_med;
                      j["key_bits"] = bits;
                      j["log_keys"] = lk;
                      j["log_lookups"] = ll;
                      j["hit_rate"] = hit_rate;
                      j["range_hits"] = hits;
                      j["log_dups"] = dup;
                      j["sorted_probes"] = sp != 0;
                      j["probes"] = sp == 0 ? "unsorted" : sp == 1 ? "index-sorts" : "presorted";
                      j["partitions"] = a->partitions;
                      j["bucket"] = bucketed ? b : 0;
                      j["build_ms"] = st.build_ms;
                      j["upload_ms"] = st.upload_ms;
                      j["lookup_median_ms"] = med;
                      j["lookup_min_ms"] = *std::min_element(times.begin(), times.end());
                      j["lookup_max_ms"] = *std::max_element(times.begin(), times.end());
                      j["times_ms"] = times;
                      j["launch_times_ms"] = launch_times;
                      j["memory_bytes"] = st.memory_bytes;
                      j["peak_build_bytes"] = st.peak_build_bytes;
                      j["verified"] = ok;
                      j["threads"] = omp_get_max_threads();
                      emit_json(j);
                    }
                  // What the cost model picks for this batch (method and whether to sort it
                  // first; sp 1 = the index may sort, so not sorting is a choice too) next to
                  // the fastest measured of the same choices.
                  plan::LookupBatch batch;
                  batch.lookups = double(nl);
                  batch.ranges = hits > 0;
                  batch.hits_per_lookup = double(uint64_t{1} << dup) * (hits > 0 ? hits : hit_rate);
                  batch.presorted = sp == 2;
                  batch.may_sort = sp == 1;
                  report_auto(methods, measured, sp, n, batch, [&](nlohmann::ordered_json j) {
                    j["key_bits"] = bits;
                    j["log_keys"] = lk;
                    j["log_lookups"] = ll;
                    j["hit_rate"] = hit_rate;
                    j["range_hits"] = hits;
                    j["log_dups"] = dup;
                    emit_json(std::move(j));
                  });
                }
              }
        }
    if (!all_ok) fail(ErrorKind::kExecution, "bench index: a method returned a result different from the oracle");
  });
}

}  // namespace raydb::cli
