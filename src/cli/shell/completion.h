#pragma once
// Tab completion in the shell (SQL keywords, table and column names, dot commands)
// and "did you mean" for table names mistyped.
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace raydb::cli::shell {

// The names completion offers beside the keywords; loaded when first needed and again
// after invalidate() (a statement may have changed the catalog).
struct CatalogNames {
  std::vector<std::string> tables;
  std::vector<std::string> columns;
};

class Completion {
 public:
  // Hooks the completer into readline; `load` reads the catalog's names.
  static void install(std::function<CatalogNames()> load);
  static void invalidate();
  // The candidates for `prefix` (case-insensitive; keywords follow the prefix's case),
  // sorted; what the completer offers (exposed for tests).
  static std::vector<std::string> candidates(const std::string& prefix);
};

// The name of `names` closest to `word` by edit distance (case-insensitive), when it is
// close enough to be a likely typo (at most a third of the word's letters differ).
std::optional<std::string> closest_name(const std::string& word, const std::vector<std::string>& names);

// An error message with a suggestion appended when it reports an unknown table:
// "unknown table 'lineordr' (did you mean 'lineorder'?)".
std::string with_table_suggestion(const std::string& message, const std::vector<std::string>& tables);

}  // namespace raydb::cli::shell
