#include "exec/cuda/ops/order_statistics_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <random>

#include "common/error.h"
#include "exec/cuda/ops/order_statistics_gpu.h"

namespace raydb::exec::cuda::ops {

using namespace orderstat;

namespace {

struct BenchData {
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<uint8_t> select;
  std::vector<uint32_t> groups;
  ColumnInput input;
};

// Uniformly random values (and mask and groups), generated in parallel chunks with
// one seeded generator each, so the data depends only on the config.
void generate(const OrderStatBenchConfig& c, BenchData& d) {
  const uint64_t n = c.n, chunk = uint64_t(1) << 20;
  if (c.key_bits == 32) d.i32.resize(n);
  else d.i64.resize(n);
  if (c.selectivity < 1) d.select.resize(n);
  if (c.groups > 1) d.groups.resize(n);
  const int64_t chunks = int64_t((n + chunk - 1) / chunk);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < chunks; k++) {
    std::mt19937_64 rng(c.seed * 1000003 + uint64_t(k));
    const uint64_t e = std::min(n, uint64_t(k + 1) * chunk);
    for (uint64_t i = uint64_t(k) * chunk; i < e; i++) {
      const uint64_t r = rng();
      if (c.key_bits == 32) d.i32[i] = int32_t(uint32_t(r));
      else d.i64[i] = int64_t(r);
      if (!d.select.empty()) d.select[i] = double(rng() >> 11) * 0x1.0p-53 < c.selectivity;
      if (!d.groups.empty()) d.groups[i] = uint32_t(rng() % c.groups);
    }
  }
  d.input.type = c.key_bits == 32 ? KeyType::kInt32 : KeyType::kInt64;
  d.input.values = c.key_bits == 32 ? (const void*)d.i32.data() : (const void*)d.i64.data();
  d.input.n = n;
  d.input.select = d.select.empty() ? nullptr : d.select.data();
  d.input.group_ids = d.groups.empty() ? nullptr : d.groups.data();
  d.input.groups = std::max<uint32_t>(1, c.groups);
}

}  // namespace

OrderStatBenchResult bench_order_statistics(const OrderStatBenchConfig& c) {
  if (c.key_bits != 32 && c.key_bits != 64) fail(ErrorKind::kInvalidInput, "key bits must be 32 or 64");
  if (c.device != "cpu" && c.device != "cuda") fail(ErrorKind::kInvalidInput, "device '{}' is not cpu or cuda", c.device);
  BenchData d;
  generate(c, d);
  OrderStatBenchResult r;
  std::optional<DeviceColumnCopy> on_device;
  if (c.device == "cuda") on_device.emplace(d.input, &r.upload_ms);
  SelectOptions o;
  o.algorithm = c.algorithm;
  o.threads = c.threads;
  o.gpu_plain_pass = c.gpu_plain_pass;
  OrderStats last;
  for (int i = 0; i < c.warmup + c.reps; i++) {
    const auto t0 = std::chrono::steady_clock::now();
    last = on_device ? gpu_order_statistics(on_device->input(), {c.spec}, o) : order_statistics(d.input, {c.spec}, o);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (i >= c.warmup) r.ms.push_back(ms);
  }
  std::vector<double> sorted = r.ms;
  std::sort(sorted.begin(), sorted.end());
  if (!sorted.empty()) {
    r.best_ms = sorted.front();
    r.median_ms = sorted[sorted.size() / 2];
  }
  r.answer = last.at(0, 0).is_null ? std::nan("") : as_double(d.input.type, last.at(0, 0));
  return r;
}

}  // namespace raydb::exec::cuda::ops
