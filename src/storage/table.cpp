#include "storage/table.h"

#include <cctype>

#include "common/error.h"

namespace raydb {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string to_lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

Table::Table(std::string name, std::vector<ColumnPtr> columns) : name_(std::move(name)), columns_(std::move(columns)) {
  if (columns_.empty()) fail(ErrorKind::kInvalidInput, "table {} has no columns", name_);
  rows_ = columns_[0]->size();
  for (size_t i = 0; i < columns_.size(); i++) {
    if (columns_[i]->size() != rows_)
      fail(ErrorKind::kInternal, "table {}: column {} has {} rows, expected {}", name_, columns_[i]->name(),
           columns_[i]->size(), rows_);
    for (size_t j = 0; j < i; j++)
      if (iequals(columns_[i]->name(), columns_[j]->name()))
        fail(ErrorKind::kInvalidInput, "table {}: duplicate column name {}", name_, columns_[i]->name());
  }
}

int Table::find_column(std::string_view name) const {
  for (size_t i = 0; i < columns_.size(); i++)
    if (iequals(columns_[i]->name(), name)) return int(i);
  return -1;
}

std::vector<ColumnDef> Table::schema() const {
  std::vector<ColumnDef> s;
  for (auto& c : columns_) s.push_back({c->name(), c->type(), c->nullable()});
  return s;
}

std::vector<ColumnDef> parse_schema(std::string_view text) {
  std::vector<ColumnDef> defs;
  // Split on commas outside parentheses (DECIMAL(15,2) has one inside).
  int depth = 0;
  size_t start = 0;
  auto add = [&](std::string_view item) {
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) item.remove_prefix(1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.remove_suffix(1);
    size_t sp = 0;
    while (sp < item.size() && !std::isspace(static_cast<unsigned char>(item[sp]))) sp++;
    std::string_view name = item.substr(0, sp), type = item.substr(sp);
    if (name.empty() || type.find_first_not_of(" \t") == std::string_view::npos)
      fail(ErrorKind::kInvalidInput, "schema entry '{}' must be 'name TYPE'", item);
    for (char c : name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
        fail(ErrorKind::kInvalidInput, "schema entry '{}': column name must be letters, digits and _", item);
    for (auto& d : defs)
      if (iequals(d.name, name)) fail(ErrorKind::kInvalidInput, "schema names column {} twice", name);
    // A trailing NOT NULL / NULL constraint (case-insensitive).
    auto strip_suffix = [&type](std::string_view word) {
      while (!type.empty() && std::isspace(static_cast<unsigned char>(type.back()))) type.remove_suffix(1);
      if (type.size() <= word.size() || !iequals(type.substr(type.size() - word.size()), word) ||
          !std::isspace(static_cast<unsigned char>(type[type.size() - word.size() - 1])))
        return false;
      type.remove_suffix(word.size());
      while (!type.empty() && std::isspace(static_cast<unsigned char>(type.back()))) type.remove_suffix(1);
      return true;
    };
    bool nullable = true;
    if (strip_suffix("null")) nullable = !strip_suffix("not");
    if (type.find_first_not_of(" \t") == std::string_view::npos)
      fail(ErrorKind::kInvalidInput, "schema entry '{}' must be 'name TYPE [NOT NULL]'", item);
    defs.push_back({std::string(name), Type::parse(type), nullable});
  };
  for (size_t i = 0; i < text.size(); i++) {
    if (text[i] == '(') depth++;
    if (text[i] == ')') depth--;
    if (text[i] == ',' && depth == 0) {
      add(text.substr(start, i - start));
      start = i + 1;
    }
  }
  add(text.substr(start));
  return defs;
}

}  // namespace raydb
