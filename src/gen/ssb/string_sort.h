#pragma once
// Sorting one string per row, for the dictionary encoding of generated text columns
// (ssb::varchar_from_strings): parallel, and cache-friendly where many strings share
// long prefixes (TPC-H comments are cut from one text pool, so at SF 10 dozens of rows
// start at each pool offset).
#include <cstdint>
#include <string>
#include <vector>

namespace raydb::ssb {

struct StringOrder {
  std::vector<uint32_t> rows;       // row numbers in string order (std::string's <)
  std::vector<uint8_t> new_value;   // per sorted position: 1 where the string differs from the previous one
};

// At most 2^32 - 1 rows.
StringOrder sort_strings(const std::vector<std::string>& values);

}  // namespace raydb::ssb
