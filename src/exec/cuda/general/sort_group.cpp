// GROUP BY ids by sorting every row (cuda_group = sort), and the radix order both
// ways of grouping number their groups in (group_ids.h).
#include <cstdlib>
#include <cstring>

#include "common/error.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/group_ids.h"
#include "exec/cuda/general/group_kernels.h"

namespace raydb::exec::cuda::general {

void sort_rows_by_group_keys(const std::vector<GroupKeyColumn>& keys, uint32_t* perm, uint64_t m, cudaStream_t s) {
  if (m == 0) return;
  // Stable LSD passes, least significant first: per key its value (128-bit keys: low
  // word, then high word), then its NULL flag (so NULLs form their own group); the
  // first key is most significant.
  gpu::DeviceBuffer perm2(m * 4, "group order");
  gpu::DeviceBuffer k1(m * 8, "group keys"), k2(m * 8, "group keys"), n1(m, "group keys"), n2(m, "group keys");
  uint32_t* a = perm;
  uint32_t* b = perm2.get<uint32_t>();
  for (size_t k = keys.size(); k-- > 0;) {
    const GroupKeyColumn& c = keys[k];
    launch_gather_key(c.values, c.nulls, a, m, k1.get<long long>(), n1.get<uint8_t>(), s);
    sort_pairs_i64(k1.get<long long>(), k2.get<long long>(), a, b, m, s);
    std::swap(a, b);
    if (c.huge) {
      launch_gather_key_hi(c.values, c.nulls, a, m, k1.get<long long>(), s);
      sort_pairs_i64(k1.get<long long>(), k2.get<long long>(), a, b, m, s);
      std::swap(a, b);
    }
    if (c.nullable) {
      launch_gather_key(c.values, c.nulls, a, m, k1.get<long long>(), n1.get<uint8_t>(), s);
      sort_pairs_u8(n1.get<uint8_t>(), n2.get<uint8_t>(), a, b, m, s);
      std::swap(a, b);
    }
  }
  if (a != perm) gpu::check_cuda(cudaMemcpyAsync(perm, a, m * 4, cudaMemcpyDeviceToDevice, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "group order");  // the scratch above is released on return
}

GroupIds sort_group_ids(const std::vector<GroupKeyColumn>& keys, uint64_t n, cudaStream_t s) {
  GroupIds r;
  r.order = gpu::DeviceBuffer(n * 4, "group order");
  launch_iota(r.order.get<uint32_t>(), n, 0, s);
  sort_rows_by_group_keys(keys, r.order.get<uint32_t>(), n, s);
  KeyColumns kc;
  kc.width = int(keys.size());
  for (size_t k = 0; k < keys.size(); k++) kc.values[k] = keys[k].values, kc.nulls[k] = keys[k].nulls;
  gpu::DeviceBuffer head(n * 4, "group heads"), scan(n * 4, "group ids");
  launch_group_heads(kc, r.order.get<uint32_t>(), n, head.get<uint32_t>(), s);
  r.groups = inclusive_sum_u32(head.get<uint32_t>(), scan.get<uint32_t>(), n, s);
  r.gid = gpu::DeviceBuffer(n * 4, "group ids");
  r.first = gpu::DeviceBuffer(std::max<uint64_t>(r.groups, 1) * 4, "group representatives");
  launch_group_ids(r.order.get<uint32_t>(), head.get<uint32_t>(), scan.get<uint32_t>(), n, r.gid.get<uint32_t>(),
                   r.first.get<uint32_t>(), s);
  gpu::check_cuda(cudaStreamSynchronize(s), "group ids");
  return r;
}

}  // namespace raydb::exec::cuda::general
