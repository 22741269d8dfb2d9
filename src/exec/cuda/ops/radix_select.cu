// Host side of the GPU radix select (radix_select.h): buffers, the pass schedule and
// the launches, all on the default stream.
#include "exec/cuda/ops/radix_select.h"

#include <algorithm>

#include "exec/core/order_statistics/selection.h"
#include "exec/cuda/ops/radix_select_kernels.cuh"
#include "exec/cuda/ops/resident_grid.cuh"
#include "gpu/cuda_check.h"
#include "gpu/device_buffer.h"

namespace raydb::exec::cuda::ops {

using namespace orderstat;
using raydb::gpu::DeviceBuffer;
using raydb::gpu::kThreads;

namespace {

// 32-bit counters in shared memory: 48 KiB (the default per-block limit) less 256 bytes
// for the pass kernels' static shared variables.
constexpr uint32_t kMaxShared = 12 * 1024 - 64;
constexpr int kMaxDigit = 11, kMinDigit = 8;

void check(cudaError_t e, const char* what) { raydb::gpu::check_cuda(e, what); }

template <typename T>
DeviceBuffer upload(const std::vector<T>& v, const char* what) {
  DeviceBuffer d(std::max<uint64_t>(v.size() * sizeof(T), 8), what);
  if (!v.empty()) check(cudaMemcpy(d.get(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), what);
  return d;
}

struct RadixPassArgs {
  ColumnInput in;
  uint32_t m;
  RadixState st;
  int shift, w;
  bool check_prefix;
  uint32_t counters;
  size_t shared;  // bytes: the counters and the per-group table
};

template <typename KeyT, bool kMasked, bool kGrouped>
void launch_plain(const RadixPassArgs& a, KeyT flip) {
  auto* k = radix_pass_plain_kernel<true, KeyT, kMasked, kGrouped>;
  k<<<resident_grid(k, a.shared, a.in.n), kThreads, a.shared>>>(a.in, a.m, a.st, a.shift, a.w, a.check_prefix,
                                                                 a.counters, flip);
}

// The plain pass kernel compiled for the input's shape: a mask or NULLs, groups.
template <typename KeyT>
void launch_plain_pass(const RadixPassArgs& a, KeyT flip) {
  const bool masked = a.in.select || a.in.nulls, grouped = a.in.groups > 1;
  if (masked && grouped) launch_plain<KeyT, true, true>(a, flip);
  else if (masked) launch_plain<KeyT, true, false>(a, flip);
  else if (grouped) launch_plain<KeyT, false, true>(a, flip);
  else launch_plain<KeyT, false, false>(a, flip);
}

}  // namespace

std::vector<uint64_t> gpu_radix_select(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m,
                                       RadixStats* stats, bool plain_allowed) {
  const uint32_t slots = uint32_t(ranks.size()), groups = in.groups;
  const int bits = key_bits(in.type);
  uint64_t lead_value = 0;
  const int lead = promised_lead_bits(in, &lead_value);
  // Initial owners: every slot of a group starts with the same prefix.
  std::vector<uint64_t> prefix(slots, lead_value);
  std::vector<uint32_t> owner(slots), hidx(slots, kNoHistogram);
  uint32_t owners = 0, valid = 0;
  for (uint32_t g = 0; g < groups; g++) {
    uint32_t first = kNoHistogram;
    for (uint32_t j = 0; j < m; j++) {
      const uint32_t s = g * m + j;
      owner[s] = s;
      if (ranks[s] == kNoRank) continue;
      valid++;
      if (first == kNoHistogram) {
        first = s;
        hidx[s] = owners++;
      } else {
        owner[s] = first;
      }
    }
  }
  if (stats) *stats = {};
  std::vector<uint64_t> out(slots, 0);
  if (valid == 0) return out;
  if (lead == bits) {  // every key is key_lo
    for (uint32_t s = 0; s < slots; s++) out[s] = ranks[s] == kNoRank ? 0 : lead_value;
    return out;
  }
  const int first_width = [&] {
    int w = kMaxDigit;
    while (w > kMinDigit && (uint64_t(owners) << w) > kMaxShared) w--;
    return w;
  }();
  DeviceBuffer d_ranks = upload(ranks, "radix ranks"), d_prefix = upload(prefix, "radix prefixes");
  DeviceBuffer d_owner = upload(owner, "radix owners"), d_hidx = upload(hidx, "radix histogram rows");
  DeviceBuffer d_bucket(uint64_t(slots) * 8, "radix buckets");
  DeviceBuffer d_hist((uint64_t(valid) << kMaxDigit) * 8, "radix histograms");
  // The candidate buffer: a sixteenth of the rows (at least 64 Ki): after an 11-bit
  // first pass the rows still in play are usually far fewer.
  const uint64_t cap = std::min<uint64_t>(in.n, std::max<uint64_t>(in.n / 16, uint64_t(1) << 16));
  DeviceBuffer d_cand_keys(cap * 8 + 8, "radix candidates");
  DeviceBuffer d_cand_groups(groups > 1 ? cap * 4 + 8 : 8, "radix candidate groups");
  DeviceBuffer d_state(16, "radix state");
  check(cudaMemset(d_state.get(), 0, 16), "radix state");
  RadixState st;
  st.ranks = d_ranks.get<u64>();
  st.prefix = d_prefix.get<u64>();
  st.bucket = d_bucket.get<u64>();
  st.owner = d_owner.get<uint32_t>();
  st.hidx = d_hidx.get<uint32_t>();
  st.hist = d_hist.get<u64>();
  st.cand_keys = d_cand_keys.get<u64>();
  st.cand_groups = groups > 1 ? d_cand_groups.get<uint32_t>() : nullptr;
  st.cand_n = d_state.get<u64>();
  st.cand_cap = cap;
  st.mode = reinterpret_cast<int*>(d_state.get<uint8_t>() + 8);
  if (in.n <= cap) {  // small inputs: copy every row out in the first pass
    const int copy = kFullRowsAndCopy;
    check(cudaMemcpy(st.mode, &copy, sizeof copy, cudaMemcpyHostToDevice), "radix state");
  }
  // Integer keys and few groups, every array aligned for its vector loads: the plain
  // pass kernel (radix_pass_plain_kernel), with or without a mask and groups.
  auto aligned = [](const void* p, uintptr_t to) { return reinterpret_cast<uintptr_t>(p) % to == 0; };
  const bool plain = plain_allowed && in.type != KeyType::kDouble && groups <= kPlainMaxGroups &&
                     aligned(in.values, 16) && aligned(in.select, 4) && aligned(in.nulls, 4) &&
                     (groups == 1 || (in.group_ids && aligned(in.group_ids, 16)));
  const uint32_t table_words = plain_table_words(groups);
  const unsigned long long flip = in.type == KeyType::kInt32   ? 0x80000000ull
                                  : in.type == KeyType::kInt64 ? 0x8000000000000000ull
                                                               : 0ull;
  int passes = 0, plain_passes = 0;
  for (int done = lead; done < bits;) {
    const uint32_t owners_bound = done == lead ? owners : valid;
    int w = done == lead ? first_width : kMaxDigit;
    while (w > kMinDigit && (uint64_t(owners_bound) << w) > kMaxShared) w--;
    w = std::min(w, bits - done);
    const int shift = bits - done - w;
    const uint32_t counters = owners_bound << w;
    check(cudaMemsetAsync(st.hist, 0, uint64_t(counters) * 8), "radix histograms");
    const bool check_prefix = done > 0;
    if (plain && counters + table_words <= kMaxShared) {
      const RadixPassArgs args{in, m, st, shift, w, check_prefix, counters, (size_t(counters) + table_words) * 4};
      if (bits == 32)
        launch_plain_pass<uint32_t>(args, uint32_t(flip));
      else
        launch_plain_pass<unsigned long long>(args, flip);
      plain_passes++;
    } else if (counters <= kMaxShared) {
      const size_t shared = size_t(counters) * 4;
      radix_pass_kernel<true><<<resident_grid(radix_pass_kernel<true>, shared, in.n), kThreads, shared>>>(
          in, m, st, shift, w, check_prefix, counters);
    } else {
      radix_pass_kernel<false><<<resident_grid(radix_pass_kernel<false>, 0, in.n), kThreads>>>(
          in, m, st, shift, w, check_prefix, counters);
    }
    radix_choose_kernel<<<slots, kRadixChooseThreads>>>(slots, w, st);
    done += w;
    passes++;
    if (done < bits) radix_plan_kernel<<<1, 1>>>(groups, m, st);
  }
  check(cudaGetLastError(), "radix selection");
  check(cudaMemcpy(out.data(), st.prefix, uint64_t(slots) * 8, cudaMemcpyDeviceToHost), "radix answers");
  for (uint32_t s = 0; s < slots; s++)
    if (ranks[s] == kNoRank) out[s] = 0;
  if (stats) stats->passes = passes, stats->plain_passes = plain_passes;
  return out;
}

}  // namespace raydb::exec::cuda::ops
