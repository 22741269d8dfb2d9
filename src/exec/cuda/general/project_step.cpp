#include "exec/cuda/general/project_step.h"

#include <atomic>

#include "exec/core/result_finisher.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/general/arrow_columns.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/host_values.h"

namespace raydb::exec::cuda::general {

using plan::ExprKind;

namespace {

// Non-aggregate results of this many rows or more are ordered on the device; with a
// LIMIT keeping at most an eighth of them, from kDeviceTopMinRows (the host turned all
// 9,429 candidate rows of TPC-H q2, strings included, into values to keep 100).
constexpr uint64_t kDeviceSortMinRows = 65536;
constexpr uint64_t kDeviceTopMinRows = 4096;

std::atomic<uint64_t>& device_sorts() {
  static std::atomic<uint64_t> n{0};
  return n;
}

// ORDER BY (+ OFFSET/LIMIT) on the device for large non-DISTINCT results whose keys
// all have a radix encoding in the CPU comparator's order: integers, decimals,
// dates, dictionary codes, HUGEINT, DOUBLE without NaNs (checked there). Elsewhere
// (small results, DISTINCT, string-constant CASE keys, NaNs) the host finisher.
bool sorts_on_device(const GeneralQuery& g, uint64_t n) {
  if (g.q.order_by.empty() || g.q.distinct) return false;
  const bool few_kept = g.q.limit >= 0 && (uint64_t(g.q.limit) + uint64_t(g.q.offset)) * 8 <= n;
  return n >= kDeviceSortMinRows || (few_kept && n >= kDeviceTopMinRows);
}

// Per ORDER BY item, its column among gp.outputs (as the CPU: SELECT columns, then
// one per ORDER BY item not naming an output).
std::vector<size_t> order_columns(const GeneralQuery& g) {
  std::vector<size_t> r;
  size_t h = 0;
  for (auto& o : g.q.order_by)
    r.push_back(o.expr->kind == ExprKind::kOutputRef ? size_t(o.expr->ref_index) : g.q.select.size() + h++);
  return r;
}

// True when a DOUBLE sort key holds a NaN: the radix key below orders NaNs by their
// bits, the CPU's comparator puts every NaN above +inf (PostgreSQL), so those go to it.
bool any_nan_key(GeneralQuery& g, const std::vector<Column128>& cols, const std::vector<size_t>& oc, uint64_t n) {
  gpu::DeviceBuffer flag(sizeof(int), "NaN flag");
  gpu::check_cuda(cudaMemsetAsync(flag.get(), 0, sizeof(int), g.s), "cudaMemset");
  bool any_double = false;
  for (size_t i : oc)
    if (g.gp.outputs[i].kind == VectorKind::kDouble) {
      launch_any_nan(cols[i].v(), cols[i].nl(), n, flag.get<int>(), g.s);
      any_double = true;
    }
  if (!any_double) return false;
  int h = 0;
  gpu::check_cuda(cudaMemcpyAsync(&h, flag.get(), sizeof(int), cudaMemcpyDeviceToHost, g.s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(g.s), "NaN check");
  return h != 0;
}

// The sorted row permutation: stable LSD radix passes, last key first; per key its
// value word(s), then its NULL flag. Ties keep the input order, as the CPU's
// comparator (row index last).
gpu::DeviceBuffer sort_permutation(GeneralQuery& g, const std::vector<Column128>& cols, const std::vector<size_t>& oc,
                                   uint64_t n) {
  gpu::DeviceBuffer perm(n * 4, "sort order"), perm2(n * 4, "sort order");
  gpu::DeviceBuffer k1(n * 8, "sort keys"), k2(n * 8, "sort keys"), n1(n, "sort keys"), n2(n, "sort keys");
  launch_iota(perm.get<uint32_t>(), n, 0, g.s);
  auto pass64 = [&](const Column128& c, int mode, bool desc) {
    launch_order_key(c.v(), c.nl(), perm.get<uint32_t>(), n, mode, desc, k1.get<unsigned long long>(), g.s);
    sort_pairs_u64(k1.get<unsigned long long>(), k2.get<unsigned long long>(), perm.get<uint32_t>(),
                   perm2.get<uint32_t>(), n, g.s);
    std::swap(perm, perm2);
  };
  for (size_t k = oc.size(); k-- > 0;) {
    const Column128& c = cols[oc[k]];
    const bool desc = g.q.order_by[k].descending;
    switch (g.gp.outputs[oc[k]].kind) {
      case VectorKind::kHuge:
        pass64(c, 1, desc);
        pass64(c, 2, desc);
        break;
      case VectorKind::kDouble: pass64(c, 3, desc); break;
      default: pass64(c, 0, desc); break;
    }
    launch_order_null(c.nl(), perm.get<uint32_t>(), n, g.q.order_by[k].nulls_first, n1.get<uint8_t>(), g.s);
    sort_pairs_u8(n1.get<uint8_t>(), n2.get<uint8_t>(), perm.get<uint32_t>(), perm2.get<uint32_t>(), n, g.s);
    std::swap(perm, perm2);
  }
  return perm;
}

// With keep_result_on_device: whether the SELECT columns, as the device holds them, are
// the final result (the host finisher would not reorder, drop or decode a row) and each
// has an Arrow layout on the device. `sorted`: ORDER BY, OFFSET and LIMIT ran on the device.
bool keeps_on_device(const GeneralQuery& g, bool sorted) {
  if (!g.keep_on_device || g.q.distinct) return false;
  if (!sorted && (!g.q.order_by.empty() || g.q.limit >= 0 || g.q.offset != 0 ||
                  g.gp.outputs.size() != g.q.select.size()))
    return false;
  for (size_t i = 0; i < g.q.select.size(); i++)
    if (!has_device_arrow_layout(g.gp.outputs[i])) return false;
  return true;
}

// The SELECT columns `cols` (n rows) also in Arrow's layout on the device.
void keep_on_device(GeneralQuery& g, const std::vector<const Column128*>& cols, uint64_t n, ResultTable& result) {
  std::vector<const CompiledProgram*> programs;
  for (size_t i = 0; i < cols.size(); i++) programs.push_back(&g.gp.outputs[i]);
  result.device_columns = arrow_columns(programs, cols, n, g.s);
  // The sources go back to the pool when the caller returns: the kernels must be done.
  gpu::check_cuda(cudaStreamSynchronize(g.s), "result layout");
}

// Sorts on the device and copies back only rows [offset, offset + limit) of the
// SELECT columns. False when a DOUBLE key holds a NaN (nothing copied back then).
bool sort_on_device(GeneralQuery& g, const std::vector<Column128>& cols, uint64_t n, ResultTable& result) {
  const std::vector<size_t> oc = order_columns(g);
  if (any_nan_key(g, cols, oc, n)) return false;
  const gpu::DeviceBuffer perm = sort_permutation(g, cols, oc, n);
  const uint64_t from = std::min<uint64_t>(uint64_t(g.q.offset), n);
  const uint64_t to = g.q.limit >= 0 ? std::min<uint64_t>(n, from + uint64_t(g.q.limit)) : n;
  const uint64_t m = to - from;
  const uint32_t* window = perm.get<uint32_t>() + from;
  const bool keep = keeps_on_device(g, true);
  std::vector<Column128> sorted;  // kept until their Arrow copies are written
  for (size_t i = 0; i < g.q.select.size(); i++) {
    Column128 c;
    c.values = gpu::DeviceBuffer(std::max<uint64_t>(m, 1) * 16, "sorted output");
    c.nulls = gpu::DeviceBuffer(std::max<uint64_t>(m, 1), "sorted output");
    launch_gather_i128(cols[i].v(), cols[i].nl(), window, m, c.values.get<__int128>(), c.nulls.get<uint8_t>(), g.s);
    result.columns.push_back(host_vector(g.gp.outputs[i], c, m, *result.interner, g.s));
    if (keep) sorted.push_back(std::move(c));
  }
  if (keep) {
    std::vector<const Column128*> ptrs;
    for (auto& c : sorted) ptrs.push_back(&c);
    keep_on_device(g, ptrs, m, result);
  }
  result.rows = m;
  for (auto& c : result.columns) c.size = m;
  device_sorts().fetch_add(1);
  return true;
}

}  // namespace

void project_rows(GeneralQuery& g, const Tuples& cur, ResultTable& result) {
  const uint64_t n = cur.n;
  std::vector<Vector> outputs;
  if (sorts_on_device(g, n)) {
    // All columns stay on the device for the sort and the gather.
    std::vector<Column128> cols;
    for (auto& p : g.gp.outputs) cols.push_back(g.programs.eval(p, cur));
    if (sort_on_device(g, cols, n, result)) return;
    for (size_t i = 0; i < cols.size(); i++)
      outputs.push_back(host_vector(g.gp.outputs[i], cols[i], n, *result.interner, g.s));
  } else if (keeps_on_device(g, false)) {
    // A plain projection: the SELECT columns are the result as they are.
    std::vector<Column128> cols;
    std::vector<const Column128*> ptrs;
    for (auto& p : g.gp.outputs) cols.push_back(g.programs.eval(p, cur));
    for (size_t i = 0; i < cols.size(); i++) {
      outputs.push_back(host_vector(g.gp.outputs[i], cols[i], n, *result.interner, g.s));
      ptrs.push_back(&cols[i]);
    }
    keep_on_device(g, ptrs, n, result);
  } else {
    for (auto& p : g.gp.outputs) {
      Column128 c = g.programs.eval(p, cur);
      outputs.push_back(host_vector(p, c, n, *result.interner, g.s));
    }
  }
  g.marks.mark("outputs to host");
  // As the CPU: SELECT columns, then one column per ORDER BY item.
  if (!g.q.order_by.empty()) {
    std::vector<Vector> keys;
    for (size_t i : order_columns(g)) keys.push_back(outputs[i]);
    outputs.resize(g.q.select.size());
    for (auto& k : keys) outputs.push_back(std::move(k));
  }
  finish_rows(g.q, std::move(outputs), n, result);
  g.marks.mark("finish");
}

}  // namespace raydb::exec::cuda::general

namespace raydb::exec::cuda {
uint64_t device_sorted_queries() { return general::device_sorts().load(); }
}  // namespace raydb::exec::cuda
