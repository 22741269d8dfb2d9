#pragma once
// Dense ids of code tuples, built one attribute at a time: shared by the group ids of
// a view (view_rows.cpp) and its merged primitives (view_primitives.h).
#include <cstdint>
#include <vector>

namespace raydb::rtview {

// ids[r] * radix + code[r] (lexicographic order of the tuple prefix) renumbered densely
// in that order; returns the number of distinct values. Linear (a mark array) while
// the combined range is small, else a sort of the row keys.
uint64_t densify(std::vector<uint32_t>& ids, const std::vector<uint32_t>& code, uint64_t count, uint64_t radix);

}  // namespace raydb::rtview
