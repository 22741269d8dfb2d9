#include "bench/ops_bench.h"

#include <cmath>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "bench/run_context.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "exec/cuda/ops/order_statistics_bench.h"
#include "raydb/system.h"

namespace raydb::bench {

namespace {

namespace os = exec::orderstat;

// radix-general: radix select with every GPU pass on the general pass kernel (on the
// CPU the same as radix), to set the plain kernel's gain beside it.
os::Algorithm parse_algorithm(const std::string& a) {
  if (a == "bitwise") return os::Algorithm::kBitwise;
  if (a == "radix" || a == "radix-general") return os::Algorithm::kRadix;
  if (a == "sort") return os::Algorithm::kSort;
  fail(ErrorKind::kInvalidInput, "unknown algorithm '{}' (expected bitwise, radix, radix-general or sort)", a);
}

os::RankSpec parse_spec(const std::string& s) {
  if (s == "median") return os::RankSpec::median();
  if (s.rfind("q=", 0) == 0) return os::RankSpec::disc(os::Quantile::of(std::stod(s.substr(2))));
  if (s.rfind("k=", 0) == 0) return os::RankSpec::kth_smallest(std::stoll(s.substr(2)));
  fail(ErrorKind::kInvalidInput, "unknown --spec '{}' (expected median, q=<0..1> or k=<n>)", s);
}

// One configuration's row and JSON line; the answer it found.
double run_one(const OpsBenchOptions& o, uint64_t n, int bits, double sel, const std::string& algo,
               const std::string& device, const MachineInfo& machine, const std::string& gpu, std::ofstream& json) {
  exec::cuda::ops::OrderStatBenchConfig c;
  c.n = n;
  c.key_bits = bits;
  c.algorithm = parse_algorithm(algo);
  c.gpu_plain_pass = algo != "radix-general";
  c.device = device;
  c.threads = o.threads;
  c.reps = o.reps;
  c.warmup = o.warmup;
  c.selectivity = sel;
  c.groups = o.groups;
  c.spec = parse_spec(o.spec);
  const auto r = exec::cuda::ops::bench_order_statistics(c);
  // Bytes a pass reads: the keys, plus the mask when there is one.
  const double pass_bytes = double(n) * (bits / 8 + (sel < 1.0 ? 1 : 0));
  std::printf("%-10llu %4d %6.3f %-13s %-5s %10.3f %10.3f %10.3f %8.2f  %.17g\n", (unsigned long long)n, bits, sel,
              algo.c_str(), device.c_str(), r.median_ms, r.best_ms, r.upload_ms, pass_bytes / 1e6 / r.median_ms,
              r.answer);
  if (json.is_open()) {
    nlohmann::ordered_json j;
    j["suite"] = "ops";
    j["op"] = o.spec;
    j["n"] = n;
    j["key_bits"] = bits;
    j["selectivity"] = sel;
    j["groups"] = o.groups;
    j["algorithm"] = algo;
    j["backend"] = device;
    j["median_ms"] = r.median_ms;
    j["min_ms"] = r.best_ms;
    j["times_ms"] = r.ms;
    j["upload_ms"] = r.upload_ms;
    j["pass_gb_per_s"] = pass_bytes / 1e6 / r.median_ms;
    j["answer"] = std::isnan(r.answer) ? nlohmann::ordered_json() : nlohmann::ordered_json(r.answer);
    add_run_context(j, machine, device == "cuda" ? gpu : "");
    json << j.dump() << "\n";
  }
  return r.answer;
}

}  // namespace

void run_ops_bench(const OpsBenchOptions& o) {
  std::ofstream json;
  if (!o.json.empty()) {
    json.open(o.json, std::ios::app);
    if (!json) fail(ErrorKind::kIO, "cannot write {}", o.json);
  }
  const MachineInfo machine = machine_info();
  std::string gpu;
  if (const SystemInfo sys = system_info(); !sys.gpus.empty()) gpu = sys.gpus[0].name;
  std::printf("%-10s %4s %6s %-13s %-5s %10s %10s %10s %8s  %s\n", "n", "bits", "sel", "algo", "dev", "median_ms",
              "min_ms", "upload_ms", "GB/s/pass", "answer");
  bool all_equal = true;
  for (uint64_t n : o.sizes)
    for (int bits : o.key_bits)
      for (double sel : o.selectivities) {
        bool first = true;
        double answer = 0;
        for (const auto& device : o.devices)
          for (const auto& algo : o.algorithms) {
            const double a = run_one(o, n, bits, sel, algo, device, machine, gpu, json);
            const bool same = first || a == answer || (std::isnan(a) && std::isnan(answer));
            if (!same) std::printf("  DIFFERS: %s on %s gave %.17g, first %.17g\n", algo.c_str(), device.c_str(), a, answer);
            all_equal = all_equal && same;
            if (first) answer = a, first = false;
          }
      }
  if (!all_equal) fail(ErrorKind::kExecution, "order-statistic algorithms disagree (see DIFFERS above)");
}

}  // namespace raydb::bench
