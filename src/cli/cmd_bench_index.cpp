// raydb bench index: the RT index against its baselines along the RX paper's
// dimensions (keys, lookups, hit rate, sorted probes, duplicates, range hits, key
// width), one JSON line per measurement; every method's results are checked against
// the sorted array's (itself tested against brute force).
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <random>

#include <nlohmann/json.hpp>

#include "access/rt_index/baselines.h"
#include "access/rt_index/rt_index.h"
#include "cli/commands.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "common/timer.h"
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

std::unique_ptr<access::KeyIndex> make_index(const std::string& method, rt::Tracer& tracer,
                                             std::span<const uint64_t> keys, std::span<const int64_t> values,
                                             bool sorted_probes, int partitions, int bucket) {
  if (method == "sa") return std::make_unique<access::SortedArrayIndex>(keys, values, access::BaselineOptions{sorted_probes});
  if (method == "hash") return std::make_unique<access::HashIndex>(keys, values, access::BaselineOptions{sorted_probes});
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
    fail(ErrorKind::kInvalidInput, "bench index: unknown method '{}' (rt, rx, cgrx, rt-box, sa, hash)", method);
  }
  return std::make_unique<access::RtIndex>(tracer, keys, values, o);
}

}  // namespace

void register_bench_index(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("index", "RT index vs sorted array vs hash table (JSON lines)");
  struct Args {
    std::string log_keys = "16,20", log_lookups = "20", hit_rates = "1.0", range_hits = "0", dups = "0",
                key_bits = "32", sorted = "0,1", methods = "rt,rx,cgrx,sa,hash", json, tracer = "embree";
    int reps = 3, warmup = 1, threads = 0, partitions = 1, bucket = 32;
    uint64_t seed = 42;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--log-keys", a->log_keys, "log2 of indexed keys, comma-separated (16..26)");
  cmd->add_option("--log-lookups", a->log_lookups, "log2 of lookups per batch, comma-separated");
  cmd->add_option("--hit-rates", a->hit_rates, "fractions of point lookups that hit, comma-separated");
  cmd->add_option("--range-hits", a->range_hits, "0: point lookups; h > 0: ranges over h distinct keys");
  cmd->add_option("--log-dups", a->dups, "log2 of copies per key, comma-separated");
  cmd->add_option("--key-bits", a->key_bits, "32 and/or 64");
  cmd->add_option("--sorted-probes", a->sorted, "0 and/or 1");
  cmd->add_option("--methods", a->methods, "rt, rx, cgrx, rt-box, sa, hash");
  cmd->add_option("--partitions", a->partitions, "RT index partitions (instance structure when > 1)");
  cmd->add_option("--bucket", a->bucket, "cgrx bucket size");
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
    auto tracer = a->tracer == "optix" ? rt::make_optix_tracer() : rt::make_embree_tracer();
    std::printf("%-7s %3s %3s %4s %4s %5s %4s %3s %10s %10s %10s %10s %10s %s\n", "method", "kb", "lk", "ll", "hit",
                "range", "dup", "sp", "build_ms", "lookup_ms", "launch_ms", "Mlookup/s", "mem_MB", "ok");
    bool all_ok = true;
    for (int bits : parse_ints(a->key_bits))
      for (int lk : parse_ints(a->log_keys))
        for (int dup : parse_ints(a->dups))
          for (int ll : parse_ints(a->log_lookups))
            for (int hits : parse_ints(a->range_hits))
              for (const std::string& hr_s : parse_words(a->hit_rates)) {
                const double hit_rate = std::stod(hr_s);
                if (bits != 32 && bits != 64) fail(ErrorKind::kInvalidInput, "--key-bits: 32 or 64");
                if (lk < 1 || lk > 30 || ll < 0 || ll > 30 || dup < 0 || dup > lk)
                  fail(ErrorKind::kInvalidInput, "bench index: sizes out of range");
                // Distinct keys 2k (+ 2^40 for 64-bit: keys span planes), each 2^dup times,
                // shuffled; misses are odd values. Row id = position.
                std::mt19937_64 rng(a->seed);
                const uint64_t n = uint64_t{1} << lk, distinct = n >> dup;
                const uint64_t base = bits == 64 ? (uint64_t{1} << 40) - (uint64_t{1} << 20) : 0;
                std::vector<uint64_t> keys(n);
                for (uint64_t i = 0; i < n; ++i) keys[i] = base + 2 * (i >> dup);
                std::shuffle(keys.begin(), keys.end(), rng);
                std::vector<int64_t> values(n);
                for (uint64_t i = 0; i < n; ++i) values[i] = static_cast<int64_t>(i % 1000);
                const uint64_t nl = uint64_t{1} << ll;
                std::vector<access::KeyRange> lookups(nl);
                std::uniform_int_distribution<uint64_t> pick(0, distinct - 1);
                std::uniform_real_distribution<double> coin(0, 1);
                for (auto& q : lookups) {
                  const uint64_t k = base + 2 * pick(rng);
                  if (hits == 0) {
                    const uint64_t p = coin(rng) < hit_rate ? k : k + 1;
                    q = {p, p};
                  } else {
                    q = {k, k + 2 * static_cast<uint64_t>(hits - 1)};
                  }
                }
                access::AggregateResult reference;
                bool have_reference = false;
                for (int sp : parse_ints(a->sorted))
                  for (const std::string& method : parse_words(a->methods)) {
                    if (method == "hash" && hits > 0) continue;
                    auto index = make_index(method, *tracer, keys, values, sp != 0, a->partitions, a->bucket);
                    access::AggregateResult out;
                    for (int w = 0; w < a->warmup; ++w) index->aggregate(lookups, out);
                    const bool traced = method != "sa" && method != "hash";
                    std::vector<double> times, launch_times;
                    for (int r = 0; r < a->reps; ++r) {
                      Timer t;
                      index->aggregate(lookups, out);
                      times.push_back(t.elapsed_ms());
                      if (traced) launch_times.push_back(tracer->last_launch_ms());
                    }
                    std::sort(times.begin(), times.end());
                    std::sort(launch_times.begin(), launch_times.end());
                    // The launch alone (GPU: CUDA events, data resident); lookup_ms is end to
                    // end from host memory (uploads, sorted-probe permutation, downloads).
                    const double launch_med = traced ? launch_times[launch_times.size() / 2] : 0.0;
                    const double med = times[times.size() / 2];
                    if (!have_reference) {
                      access::SortedArrayIndex sa(keys, values);
                      sa.aggregate(lookups, reference);
                      have_reference = true;
                    }
                    const bool ok = out.count == reference.count && out.sum == reference.sum;
                    all_ok &= ok;
                    const auto& st = index->stats();
                    std::printf("%-7s %3d %3d %4d %4.2f %5d %4d %3d %10.1f %10.2f %10.2f %10.2f %10.1f %s\n",
                                method.c_str(), bits, lk, ll, hit_rate, hits, dup, sp, st.build_ms, med, launch_med,
                                nl / med / 1e3, st.memory_bytes / 1e6, ok ? "yes" : "NO");
                    std::fflush(stdout);
                    if (json.is_open()) {
                      nlohmann::ordered_json j;
                      j["suite"] = "index";
                      j["method"] = method;
                      j["index"] = index->name();
                      j["tracer"] = traced ? tracer->name() : "none";
                      j["launch_median_ms"] = launch_med;
                      j["key_bits"] = bits;
                      j["log_keys"] = lk;
                      j["log_lookups"] = ll;
                      j["hit_rate"] = hit_rate;
                      j["range_hits"] = hits;
                      j["log_dups"] = dup;
                      j["sorted_probes"] = sp != 0;
                      j["partitions"] = a->partitions;
                      j["bucket"] = a->bucket;
                      j["build_ms"] = st.build_ms;
                      j["lookup_median_ms"] = med;
                      j["lookup_min_ms"] = times.front();
                      j["lookup_max_ms"] = times.back();
                      j["times_ms"] = times;
                      j["memory_bytes"] = st.memory_bytes;
                      j["peak_build_bytes"] = st.peak_build_bytes;
                      j["verified"] = ok;
                      j["threads"] = omp_get_max_threads();
                      j["raydb_version"] = RAYDB_VERSION;
                      j["machine"] = {{"hostname", m.hostname}, {"cpu", m.cpu_model},
                                      {"hardware_threads", m.hardware_threads}, {"memory_gib", m.memory_gib}};
                      j["timestamp"] = std::time(nullptr);
                      json << j.dump() << "\n";
                    }
                  }
              }
    if (!all_ok) fail(ErrorKind::kExecution, "bench index: a method returned a result different from the sorted array");
  });
}

}  // namespace raydb::cli
