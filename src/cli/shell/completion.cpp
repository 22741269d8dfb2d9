#include "cli/shell/completion.h"

#include <readline/readline.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <set>

namespace raydb::cli::shell {

namespace {

const char* const kKeywords[] = {
    "SELECT", "FROM", "WHERE", "GROUP", "BY", "ORDER", "LIMIT", "OFFSET", "HAVING", "JOIN", "INNER", "LEFT", "RIGHT",
    "FULL", "OUTER", "CROSS", "ON", "USING", "AS", "AND", "OR", "NOT", "NULL", "IS", "IN", "BETWEEN", "LIKE", "ILIKE",
    "CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT", "COUNT", "SUM", "AVG", "MIN", "MAX", "CREATE", "TABLE", "INSERT",
    "INTO", "VALUES", "UPDATE", "SET", "DELETE", "DROP", "INDEX", "VIEW", "WITH", "UNION", "INTERSECT", "EXCEPT", "ALL",
    "EXPLAIN", "ANALYZE", "SHOW", "RESET", "COPY", "TRUE", "FALSE", "ASC", "DESC", "NULLS", "FIRST", "LAST", "CAST",
    "DATE", "INTERVAL", "EXTRACT", "EXISTS", "OVER", "PARTITION", "ROWS", "RANGE", "INTEGER", "BIGINT", "DOUBLE",
    "DECIMAL", "VARCHAR", "BOOLEAN", "REPLACE", "IF", "RT", "TO", "HEADER", "DELIMITER", "BACKEND", "THREADS"};

const char* const kDotCommands[] = {".headers", ".help",  ".maxrows", ".maxwidth", ".mode",  ".output",
                                    ".quit",    ".exit",  ".read",    ".schema",   ".tables", ".timer"};

std::function<CatalogNames()> g_load;
std::optional<CatalogNames> g_names;
std::vector<std::string> g_matches;  // of the completion in progress
size_t g_next = 0;

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool starts_with_ci(const std::string& s, const std::string& prefix) {
  if (prefix.size() > s.size()) return false;
  for (size_t i = 0; i < prefix.size(); i++)
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

char* generator(const char* text, int state) {
  if (state == 0) {
    g_matches = Completion::candidates(text);
    g_next = 0;
  }
  if (g_next >= g_matches.size()) return nullptr;
  return strdup(g_matches[g_next++].c_str());  // readline frees it
}

char** complete(const char* text, int, int) {
  rl_attempted_completion_over = 1;  // no file names
  return rl_completion_matches(text, generator);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); j++) prev[j] = j;
  for (size_t i = 1; i <= a.size(); i++) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); j++)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

void Completion::install(std::function<CatalogNames()> load) {
  g_load = std::move(load);
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = const_cast<char*>(" \t\n\"'`@$><=;|&{(,");
}

void Completion::invalidate() { g_names.reset(); }

std::vector<std::string> Completion::candidates(const std::string& prefix) {
  std::set<std::string> out;
  if (!prefix.empty() && prefix[0] == '.') {
    for (const char* d : kDotCommands)
      if (starts_with_ci(d, prefix)) out.insert(d);
    return {out.begin(), out.end()};
  }
  // Keywords in the case the user types them in.
  const bool lower_case = !prefix.empty() && std::islower(static_cast<unsigned char>(prefix[0]));
  for (const char* k : kKeywords)
    if (starts_with_ci(k, prefix)) out.insert(lower_case ? lower(k) : std::string(k));
  if (!g_names && g_load) {
    try {
      g_names = g_load();
    } catch (...) {  // no catalog (a server session): keywords only
      g_names = CatalogNames{};
    }
  }
  if (g_names) {
    for (const std::string& t : g_names->tables)
      if (starts_with_ci(t, prefix)) out.insert(t);
    for (const std::string& c : g_names->columns)
      if (starts_with_ci(c, prefix)) out.insert(c);
  }
  return {out.begin(), out.end()};
}

std::optional<std::string> closest_name(const std::string& word, const std::vector<std::string>& names) {
  const size_t limit = std::max<size_t>(1, word.size() / 3);  // more edits: not a typo of it
  const std::string w = lower(word);
  std::optional<std::string> best;
  size_t best_d = limit + 1;
  for (const std::string& n : names) {
    const size_t d = edit_distance(w, lower(n));
    if (d < best_d) best = n, best_d = d;
  }
  return best;
}

std::string with_table_suggestion(const std::string& message, const std::vector<std::string>& tables) {
  const std::string marker = "unknown table '";
  const size_t at = message.find(marker);
  if (at == std::string::npos) return message;
  const size_t b = at + marker.size(), e = message.find('\'', b);
  if (e == std::string::npos) return message;
  const std::optional<std::string> near = closest_name(message.substr(b, e - b), tables);
  if (!near) return message;
  return message.substr(0, e + 1) + " (did you mean '" + *near + "'?)" + message.substr(e + 1);
}

}  // namespace raydb::cli::shell
