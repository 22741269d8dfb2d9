#include "exec/core/literal_search.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace raydb::exec {

namespace {

// Starts [i, last] tested one by one (the tail a vector step does not cover).
const char* find_scalar(const char* hay, size_t i, size_t last, std::string_view needle) {
  for (; i <= last; i++)
    if (hay[i] == needle[0] && std::memcmp(hay + i, needle.data(), needle.size()) == 0) return hay + i;
  return nullptr;
}

#if defined(__x86_64__)
// `mask` bit k set: start i + k has the needle's first and last bytes.
const char* check_candidates(const char* hay, size_t i, unsigned mask, std::string_view needle) {
  while (mask) {
    const char* at = hay + i + unsigned(__builtin_ctz(mask));
    if (std::memcmp(at, needle.data(), needle.size()) == 0) return at;
    mask &= mask - 1;
  }
  return nullptr;
}

// n >= needle.size() >= 1 in both.
const char* find_sse2(const char* hay, size_t n, std::string_view needle) {
  const size_t m = needle.size(), last = n - m;  // starts 0..last
  const __m128i first_byte = _mm_set1_epi8(needle[0]), last_byte = _mm_set1_epi8(needle[m - 1]);
  size_t i = 0;
  for (; i + 16 <= last + 1; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(hay + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(hay + i + m - 1));
    const unsigned mask =
        unsigned(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first_byte), _mm_cmpeq_epi8(b, last_byte))));
    if (const char* at = check_candidates(hay, i, mask, needle)) return at;
  }
  return find_scalar(hay, i, last, needle);
}

__attribute__((target("avx2"))) const char* find_avx2(const char* hay, size_t n, std::string_view needle) {
  const size_t m = needle.size(), last = n - m;
  const __m256i first_byte = _mm256_set1_epi8(needle[0]), last_byte = _mm256_set1_epi8(needle[m - 1]);
  size_t i = 0;
  for (; i + 32 <= last + 1; i += 32) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hay + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hay + i + m - 1));
    const unsigned mask = unsigned(
        _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, first_byte), _mm256_cmpeq_epi8(b, last_byte))));
    if (const char* at = check_candidates(hay, i, mask, needle)) return at;
  }
  return find_scalar(hay, i, last, needle);
}

bool have_avx2() {
  static const bool yes = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
  return yes;
}
#endif

}  // namespace

const char* find_literal(const char* hay, size_t n, std::string_view needle) {
  if (needle.empty()) return hay;
  if (n < needle.size()) return nullptr;
  if (needle.size() == 1) return static_cast<const char*>(std::memchr(hay, needle[0], n));
#if defined(__x86_64__)
  return have_avx2() ? find_avx2(hay, n, needle) : find_sse2(hay, n, needle);
#else
  return static_cast<const char*>(memmem(hay, n, needle.data(), needle.size()));
#endif
}

#if defined(__x86_64__)
const char* find_literal_sse2(const char* hay, size_t n, std::string_view needle) {
  if (needle.empty()) return hay;
  if (n < needle.size()) return nullptr;
  return find_sse2(hay, n, needle);
}
#endif

}  // namespace raydb::exec
