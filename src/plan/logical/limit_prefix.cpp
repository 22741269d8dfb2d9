#include "plan/logical/limit_prefix.h"

namespace raydb::plan {

std::optional<uint64_t> scan_prefix_rows(const LogicalQuery& q) {
  if (q.limit < 0 || q.is_aggregate || !q.order_by.empty() || q.distinct || !q.windows.empty()) return std::nullopt;
  return uint64_t(q.limit) + uint64_t(q.offset);
}

}  // namespace raydb::plan
