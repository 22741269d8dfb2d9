// ssb::varchar_from_strings (the dictionary encoding of every generated text column)
// against a std::set oracle: the dictionary is exactly the sorted distinct strings and
// every row's code names its own string. The strings stress the sort's 16-byte
// prefix keys: shared prefixes of every length around 8 and 16, embedded and trailing
// zero bytes, bytes >= 0x80 (std::string orders them after ASCII), the empty string
// and many duplicates; thread counts make the code assignment split into slices.
#include <gtest/gtest.h>
#include <omp.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "gen/ssb/columns.h"

namespace raydb::ssb {
namespace {

std::vector<std::string> tricky_strings(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  const std::string stems[] = {"", "furiously", "furiously regular", "carefully ironic pack", std::string(8, 'a'),
                               std::string(16, 'a'), std::string("ab\0", 3), std::string("ab\0\0", 4), "\xff\x80",
                               "z"};
  const std::string tail_bytes = std::string("az \x7f\x80\xff", 6) + std::string(1, '\0');
  std::vector<std::string> out;
  out.reserve(n);
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && rng() % 4 == 0) {  // a duplicate of an earlier row
      out.push_back(out[rng() % i]);
      continue;
    }
    std::string s = stems[rng() % std::size(stems)];
    const size_t extra = rng() % 24;  // lengths cross 8 and 16 from every stem
    for (size_t k = 0; k < extra; k++) s += tail_bytes[rng() % tail_bytes.size()];
    out.push_back(std::move(s));
  }
  return out;
}

void expect_exact_encoding(const std::vector<std::string>& values) {
  const ColumnPtr col = varchar_from_strings("c", values);
  const std::set<std::string> oracle(values.begin(), values.end());
  const Dictionary& dict = *col->dictionary();
  ASSERT_EQ(dict.size(), oracle.size());
  uint32_t code = 0;
  for (const std::string& s : oracle) ASSERT_EQ(dict.at(code++), s) << "entry " << code - 1;
  ASSERT_EQ(col->size(), values.size());
  const auto* codes = static_cast<const int32_t*>(col->buffer()->data());
  for (size_t r = 0; r < values.size(); r++) {
    ASSERT_GE(codes[r], 0);
    ASSERT_LT(uint32_t(codes[r]), dict.size());
    ASSERT_EQ(dict.at(uint32_t(codes[r])), values[r]) << "row " << r;
  }
}

TEST(VarcharFromStrings, DictionaryIsTheSortedDistinctStrings) {
  const std::vector<std::string> values = tricky_strings(60'000, 7);
  const int default_threads = omp_get_max_threads();
  for (int threads : {1, 2, 5}) {
    omp_set_num_threads(threads);
    SCOPED_TRACE(threads);
    expect_exact_encoding(values);
  }
  omp_set_num_threads(default_threads);
}

// Long strings that tie on many 16-byte windows (equal up to byte 90, or equal but for
// trailing zero bytes) are settled window after window.
TEST(VarcharFromStrings, LongSharedPrefixes) {
  std::vector<std::string> values;
  const std::string stem(90, 'q');
  for (int i = 0; i < 3000; i++) {
    std::string s = stem;
    s += char('a' + i % 7);
    if (i % 3 == 0) s += std::string(size_t(i % 5), '\0');
    if (i % 11 == 0) s = stem.substr(0, size_t(i % 97));
    values.push_back(s);
  }
  expect_exact_encoding(values);
}

TEST(VarcharFromStrings, SmallAndEmptyInputs) {
  expect_exact_encoding({});
  expect_exact_encoding({""});
  expect_exact_encoding({"b", "a", "b", "", "a"});
  expect_exact_encoding({std::string(17, 'x'), std::string(16, 'x'), std::string(17, 'x') + std::string(1, '\0'),
                         std::string(16, 'x') + std::string(1, '\0')});
}

}  // namespace
}  // namespace raydb::ssb
