// The star path's compaction of group accumulators (exec/cuda/kernels.h launch_compact)
// against a brute-force one on the host: the kept groups (count > 0 and HAVING's terms
// by group_kept) in ascending group order, each with its fields, and their number;
// group ranges with partial warps and blocks, sparse and dense groups, with and
// without terms. Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "exec/cuda/cuda_device.h"
#include "exec/cuda/group_keep.h"

#if RAYDB_HAVE_CUDA
#include <cuda_runtime.h>

#include "exec/cuda/kernels.h"
#endif

namespace raydb::exec::cuda {
namespace {

#if RAYDB_HAVE_CUDA
using u64 = unsigned long long;

// Device copy of `bytes`, freed with the object; moved, never copied (a copy would free
// the memory twice, and cudaFree's error would surface at a later launch).
struct DeviceCopy {
  void* p = nullptr;
  DeviceCopy(const DeviceCopy&) = delete;
  DeviceCopy& operator=(const DeviceCopy&) = delete;
  DeviceCopy(DeviceCopy&& o) noexcept : p(o.p) { o.p = nullptr; }
  DeviceCopy(const void* host, size_t bytes) {
    EXPECT_EQ(cudaMalloc(&p, bytes > 0 ? bytes : 8), cudaSuccess);
    if (host && bytes) {
      EXPECT_EQ(cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    }
    if (!host) {
      EXPECT_EQ(cudaMemset(p, 0, bytes > 0 ? bytes : 8), cudaSuccess);
    }
  }
  ~DeviceCopy() {
    if (p) cudaFree(p);
  }
  template <typename T>
  T* get() const { return static_cast<T*>(p); }
};

void expect_compaction_equals_brute_force(uint64_t groups, double density, const DevGroupKeep& keep, uint64_t seed) {
  const int nfields = 3;
  std::mt19937_64 rng(seed);
  std::vector<std::vector<u64>> fields(nfields, std::vector<u64>(groups));
  for (uint64_t g = 0; g < groups; g++) {
    fields[0][g] = double(rng() % 1000000) < density * 1000000 ? 1 + rng() % 9 : 0;
    fields[1][g] = u64(int64_t(rng() % 2001) - 1000);
    fields[2][g] = rng() % 2 ? fields[1][g] : rng();  // equal to field 1 half the time (the pair term)
  }
  std::vector<const u64*> host_ptrs;
  for (auto& f : fields) host_ptrs.push_back(f.data());
  std::vector<u64> want_ids;
  for (uint64_t g = 0; g < groups; g++)
    if (fields[0][g] != 0 && group_kept(keep, host_ptrs.data(), g)) want_ids.push_back(g);

  std::vector<DeviceCopy> dev;
  dev.reserve(fields.size());
  for (auto& f : fields) dev.emplace_back(f.data(), groups * 8);
  std::vector<const u64*> dev_ptrs;
  for (auto& d : dev) dev_ptrs.push_back(d.get<const u64>());
  DeviceCopy ptrs(dev_ptrs.data(), dev_ptrs.size() * 8);
  DeviceCopy out(nullptr, groups * nfields * 8), ids(nullptr, groups * 8), n(nullptr, 8);
  DeviceCopy scratch(nullptr, compact_scratch_bytes(groups));
  ASSERT_EQ(launch_compact(ptrs.get<const u64* const>(), nfields, groups, groups, keep, out.get<u64>(), ids.get<u64>(),
                           n.get<u64>(), scratch.get<void>(), 0),
            cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  u64 got_n = 0;
  ASSERT_EQ(cudaMemcpy(&got_n, n.get<u64>(), 8, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(got_n, want_ids.size()) << groups << " groups";
  std::vector<u64> got_ids(got_n), got_out(groups * nfields);
  if (got_n) {
    ASSERT_EQ(cudaMemcpy(got_ids.data(), ids.get<u64>(), got_n * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  }
  if (groups) {
    ASSERT_EQ(cudaMemcpy(got_out.data(), out.get<u64>(), groups * nfields * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  }
  for (size_t i = 0; i < got_n; i++) {
    ASSERT_EQ(got_ids[i], want_ids[i]) << groups << " groups, kept group " << i;
    for (int f = 0; f < nfields; f++)
      ASSERT_EQ(got_out[uint64_t(f) * groups + i], fields[size_t(f)][want_ids[i]]) << "field " << f << " of " << i;
  }
}
#endif

TEST(GpuCompaction, KeptGroupsInOrderEqualBruteForce) {
  if (device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
#if RAYDB_HAVE_CUDA
  DevGroupKeep none;
  DevGroupKeep positive;  // field 1 (a sum's low word) > 0
  positive.nterms = 1;
  positive.terms[0].lo = 1;
  positive.terms[0].op = kCmpGt;
  positive.terms[0].k_lo = 0;
  DevGroupKeep pair;  // field 1 <> field 2 (two accumulators compared, TPC-H Q21's min <> max)
  pair.nterms = 1;
  pair.terms[0].lo = 1;
  pair.terms[0].op = kCmpNe;
  pair.terms[0].rlo = 2;
  uint64_t seed = 1;
  for (uint64_t groups : {uint64_t(0), uint64_t(1), uint64_t(31), uint64_t(33), uint64_t(255), uint64_t(256),
                          uint64_t(257), uint64_t(100003), uint64_t(3000017)})
    for (double density : {0.01, 0.5, 1.0})
      for (const DevGroupKeep* keep : {&none, &positive, &pair}) {
        expect_compaction_equals_brute_force(groups, density, *keep, seed++);
        if (HasFatalFailure()) return;
      }
#endif
}

}  // namespace
}  // namespace raydb::exec::cuda
