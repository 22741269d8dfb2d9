#include "exec/cuda/general/distinct_step.h"

#include <algorithm>

#include "exec/core/expression_evaluator.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/group_ids.h"
#include "exec/cuda/general/host_values.h"

namespace raydb::exec::cuda::general {

namespace {

// Below this many rows the host's DISTINCT is as fast as the table's launches.
constexpr uint64_t kDeviceDistinctMinRows = 65536;

}  // namespace

bool distinct_on_device(const GeneralQuery& g, uint64_t n) {
  if (!g.q.distinct || n < kDeviceDistinctMinRows || n > uint64_t(INT32_MAX)) return false;
  if (!g.q.order_by.empty() || g.q.limit >= 0 || g.q.offset != 0) return false;
  if (g.gp.outputs.size() != g.q.select.size() || g.q.select.empty() || g.q.select.size() > size_t(kMaxKeyColumns))
    return false;
  for (auto& p : g.gp.outputs)
    if (p.kind != VectorKind::kInt && p.kind != VectorKind::kHuge && p.kind != VectorKind::kCode) return false;
  return true;
}

std::vector<Vector> distinct_rows(GeneralQuery& g, const std::vector<Column128>& cols, uint64_t n,
                                  StringInterner& interner, uint64_t& rows) {
  std::vector<GroupKeyColumn> keys(cols.size());
  for (size_t k = 0; k < cols.size(); k++) {
    keys[k].values = cols[k].v();
    keys[k].nulls = cols[k].nl();
    keys[k].huge = g.gp.outputs[k].kind == VectorKind::kHuge;
    keys[k].nullable = may_be_null(*g.q.select[k]);
  }
  const GroupIds ids = hash_group_ids(keys, n, false, g.s);
  rows = ids.groups;
  std::vector<Vector> out;
  for (size_t k = 0; k < cols.size(); k++) {
    Column128 c;
    c.values = gpu::DeviceBuffer(std::max<uint64_t>(rows, 1) * 16, "distinct rows");
    c.nulls = gpu::DeviceBuffer(std::max<uint64_t>(rows, 1), "distinct rows");
    launch_gather_i128(cols[k].v(), cols[k].nl(), ids.first.get<uint32_t>(), rows, c.values.get<__int128>(),
                       c.nulls.get<uint8_t>(), g.s);
    out.push_back(host_vector(g.gp.outputs[k], c, rows, interner, g.s));
  }
  return out;
}

}  // namespace raydb::exec::cuda::general
