#pragma once
// Probing one built join step with the current batch of the CPU pipeline.
#include <cstdint>
#include <vector>

#include "exec/core/memory_budget.h"
#include "exec/cpu/join_build.h"
#include "exec/cpu/joined_rows.h"

namespace raydb::exec::cpu {

// Probes join `j` for the current rows; afterwards rows.of[j.table] is bound and only
// matching combinations remain (a probe row repeats for duplicate build keys).
// sel, words and valid are the calling thread's scratch. A batch whose duplicate-key
// matches would not fit `budget` beside what it holds is Error(kOutOfMemory) before
// they are expanded (held only for the batch, so checked, not charged).
void probe_join(const BuiltJoin& j, const plan::LogicalQuery& q, JoinedRows& rows, std::vector<uint32_t>& sel,
                std::vector<int64_t>& words, std::vector<uint8_t>& valid, const MemoryBudget& budget);

}  // namespace raydb::exec::cpu
