#pragma once
// A string function's per-code table (dictionary_function.h), remembered across the
// compiles of one statement and across statements: a block is compiled at admission
// and again to run, the blocks of one statement (TPC-H Q22: its scalar subquery, its
// key reduction and its outer block) evaluate the same substr(c_phone, 1, 2), and each
// evaluation called the function once per dictionary entry (3 M phones at SF 20).
// Dictionaries are immutable, so an entry stays right while its dictionary lives (weak
// references: a dropped table's dictionary is not held); a few recent entries are kept.
#include <memory>
#include <string>

#include "exec/cuda/general/expression_compiler.h"
#include "storage/dictionary.h"

namespace raydb::exec::cuda::general {

class DictionaryFunctionCache {
 public:
  struct Tables {
    HostLookup map;
    std::shared_ptr<const Dictionary> results;
  };
  // `key` names the function and its constants (the expression's text and type).
  static std::shared_ptr<const Tables> find(const std::shared_ptr<const Dictionary>& dict, const std::string& key);
  static void store(const std::shared_ptr<const Dictionary>& dict, const std::string& key,
                    std::shared_ptr<const Tables> tables);
};

}  // namespace raydb::exec::cuda::general
