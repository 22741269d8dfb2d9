#pragma once
// The codes of a dictionary that a LIKE pattern matches, remembered across the
// compiles of one predicate: a block compiles its filters several times (the access
// path choice, block skipping, the scan), and the blocks of one statement (an outer
// join's matched rows and its anti join) filter the same column again; over a
// dictionary of 1.5 M comments (TPC-H Q13) each compile matched every entry.
// Dictionaries are immutable, so an entry stays right while its dictionary lives; a
// few recent entries are kept (weak references, so a dropped table's dictionary is
// not held).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "storage/dictionary.h"

namespace raydb::exec {

class DictionaryLikeCache {
 public:
  using Ranges = std::vector<std::pair<int64_t, int64_t>>;
  static std::optional<Ranges> find(const std::shared_ptr<const Dictionary>& dict, const std::string& pattern,
                                    bool negated);
  static void store(const std::shared_ptr<const Dictionary>& dict, const std::string& pattern, bool negated,
                    const Ranges& codes);
};

}  // namespace raydb::exec
