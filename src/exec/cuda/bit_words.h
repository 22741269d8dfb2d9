#pragma once
// The words of a star predicate's host bitmap (fact_set.h), left unwritten when sized
// without a value: a builder that writes every word itself (key_set_fact_set.cpp) then
// touches a 15 MB bitmap's fresh pages first in its own threads, instead of after one
// thread zeroed them all (the first touch of 15 MB of fresh pages took 5-9 ms on a
// 2-core VM; huge pages by madvise took 0.8 ms when free, but up to 75 ms where the
// kernel compacted memory for them first, so they are not asked for).
#include <cstdint>

#include "common/default_init_allocator.h"

namespace raydb::exec::cuda {

using BitWords = FillVector<uint32_t>;

}  // namespace raydb::exec::cuda
