#pragma once
// Probing one built join step with the current batch of the CPU pipeline.
#include <cstdint>
#include <vector>

#include "exec/cpu/join_build.h"
#include "exec/cpu/joined_rows.h"

namespace raydb::exec::cpu {

// Probes join `j` for the current rows; afterwards rows.of[j.table] is bound and only
// matching combinations remain (a probe row repeats for duplicate build keys).
// sel, words and valid are the calling thread's scratch.
void probe_join(const BuiltJoin& j, const plan::LogicalQuery& q, JoinedRows& rows, std::vector<uint32_t>& sel,
                std::vector<int64_t>& words, std::vector<uint8_t>& valid);

}  // namespace raydb::exec::cpu
