#pragma once
// The string values of one program. They are emitted as codes of one domain, fixed by
// finish() once the whole program is emitted: a column's own dictionary when it is the
// only source, else the merged domain (string_domain.h), each column's codes then
// translated by a lookup right after its load and constants set to their rank; LIKE
// tables are filled over that domain.
#include <memory>
#include <string>
#include <vector>

#include "exec/cuda/general/expression_compiler.h"

namespace raydb::exec::cuda::general {

class ProgramStrings {
 public:
  // Instruction `ins` loads a column of dictionary `dict`, or pushes a constant.
  void add_column(size_t ins, const Dictionary* dict) { leaves_.push_back({ins, dict, {}}); }
  void add_constant(size_t ins, std::string value) { leaves_.push_back({ins, nullptr, std::move(value)}); }
  // Instruction `ins` leaves codes of `dict`, a dictionary made for this program (a
  // string function's results, dictionary_function.h): always merged into the
  // program's own domain, whose lifetime the program manages.
  void add_derived(size_t ins, std::shared_ptr<const Dictionary> dict) {
    leaves_.push_back({ins, dict.get(), {}});
    derived_.push_back(std::move(dict));
  }
  // A LIKE over string values: its lookup table (slot) is filled by finish().
  void add_like(int slot, std::string pattern, bool negated) { likes_.push_back({slot, std::move(pattern), negated}); }
  // A long IN list of strings: its lookup table (slot) over the domain is filled by
  // finish() (TRUE where the string is in `texts`; not found: NULL when has_null).
  void add_in_set(int slot, std::vector<std::string> texts, bool negated, bool has_null) {
    sets_.push_back({slot, std::move(texts), negated, has_null});
  }
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
  struct Set {
    int slot = 0;
    std::vector<std::string> texts;
    bool negated = false, has_null = false;
  };
  // Fills the LIKE and IN-set tables over `domain`.
  void fill_tables(CompiledProgram& p, const Dictionary* domain) const;
  // Inserts each translation lookup (translation[i] >= 0) after instruction i.
  static void insert_translations(CompiledProgram& p, const std::vector<int>& translation);

  std::vector<Leaf> leaves_;
  std::vector<Like> likes_;
  std::vector<Set> sets_;
  std::vector<std::shared_ptr<const Dictionary>> derived_;  // owned while finish() reads them
};

}  // namespace raydb::exec::cuda::general
