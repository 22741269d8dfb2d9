#pragma once
// How the shell prints a result: `.mode` (table, csv, tsv, json, jsonl, markdown),
// `.headers`, and in table mode the limits that keep a result on one screen: long
// results show their first and last rows ("N rows, M shown"), wide ones elide middle
// columns to fit the width, cells are padded by display width and control characters
// escaped. Limits of 0 print everything (piped output, unless set).
#include <cstddef>
#include <string>
#include <string_view>

#include "raydb/raydb.h"

namespace raydb::cli::shell {

enum class ShellMode { kTable, kCsv, kTsv, kJson, kJsonl, kMarkdown };
ShellMode parse_shell_mode(std::string_view name);  // kInvalidInput names the modes

class ResultPrinter {
 public:
  ShellMode mode = ShellMode::kTable;
  bool headers = true;
  size_t max_rows = 0;   // table mode: rows shown at most (0: all)
  size_t max_width = 0;  // table mode: terminal columns (0: unlimited)

  std::string render(const QueryResult& r) const;

 private:
  std::string table(const QueryResult& r) const;
  std::string delimited(const QueryResult& r, char separator) const;
  std::string json_lines(const QueryResult& r) const;
  std::string markdown(const QueryResult& r) const;
};

}  // namespace raydb::cli::shell
