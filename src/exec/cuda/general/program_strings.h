#pragma once
// The string values of one program. They are emitted as codes of one domain, fixed by
// finish() once the whole program is emitted: a column's own dictionary when it is the
// only source, else the merged domain (string_domain.h), each column's codes then
// translated by a lookup right after its load and constants set to their rank; LIKE
// tables are filled over that domain.
#include <string>
#include <vector>

#include "exec/cuda/general/expression_compiler.h"

namespace raydb::exec::cuda::general {

class ProgramStrings {
 public:
  // Instruction `ins` loads a column of dictionary `dict`, or pushes a constant.
  void add_column(size_t ins, const Dictionary* dict) { leaves_.push_back({ins, dict, {}}); }
  void add_constant(size_t ins, std::string value) { leaves_.push_back({ins, nullptr, std::move(value)}); }
  // A LIKE over string values: its lookup table (slot) is filled by finish().
  void add_like(int slot, std::string pattern, bool negated) { likes_.push_back({slot, std::move(pattern), negated}); }
  // Returns the domain the program's string values are codes of (null when none).
  const Dictionary* finish(CompiledProgram& p) const;

 private:
  struct Leaf {
    size_t ins = 0;                    // the load or constant instruction
    const Dictionary* dict = nullptr;  // column leaves
    std::string constant;              // constant leaves
  };
  struct Like {
    int slot = 0;
    std::string pattern;
    bool negated = false;
  };
  // Inserts each translation lookup (translation[i] >= 0) after instruction i.
  static void insert_translations(CompiledProgram& p, const std::vector<int>& translation);

  std::vector<Leaf> leaves_;
  std::vector<Like> likes_;
};

}  // namespace raydb::exec::cuda::general
