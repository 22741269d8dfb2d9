#pragma once
// The first occurrence of a byte string in a long buffer (a dictionary's bytes), as
// memmem returns it, about twice as fast over long buffers: vector compares of the
// needle's first and last bytes at 32 (AVX2, chosen at run time) or 16 (SSE2) starts
// at once, memcmp only where both match. Other CPUs use memmem.
#include <cstddef>
#include <string_view>

namespace raydb::exec {

// The leftmost start of `needle` in [hay, hay + n), or nullptr; `hay` for an empty needle.
const char* find_literal(const char* hay, size_t n, std::string_view needle);

#if defined(__x86_64__)
// The same on SSE2 only (any x86-64): what CPUs without AVX2 run, for tests on those with.
const char* find_literal_sse2(const char* hay, size_t n, std::string_view needle);
#endif

}  // namespace raydb::exec
