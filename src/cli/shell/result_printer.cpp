#include "cli/shell/result_printer.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/shell/display_width.h"
#include "common/error.h"

namespace raydb::cli::shell {

ShellMode parse_shell_mode(std::string_view name) {
  if (name == "table") return ShellMode::kTable;
  if (name == "csv") return ShellMode::kCsv;
  if (name == "tsv") return ShellMode::kTsv;
  if (name == "json") return ShellMode::kJson;
  if (name == "jsonl") return ShellMode::kJsonl;
  if (name == "markdown") return ShellMode::kMarkdown;
  fail(ErrorKind::kInvalidInput, "unknown mode '{}' (expected table, csv, tsv, json, jsonl or markdown)", name);
}

namespace {

std::string cell_text(const QueryResult& r, size_t row, size_t col) {
  const Value v = r.get(row, col);
  return v.is_null() ? "NULL" : escape_controls(v.to_string());
}

std::string quoted(const std::string& s, char separator) {
  if (s.find_first_of(std::string("\"\n\r") + separator) == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string plural_rows(size_t n) { return fmt::format("{} row{}", n, n == 1 ? "" : "s"); }

// Which columns fit `max_width` (0: all): taken alternately from the left and the
// right end, leaving room for one "…" column where the middle ones are elided. At
// least the first column stays; it is narrowed when even it does not fit.
std::vector<size_t> visible_columns(std::vector<size_t>& width, size_t max_width) {
  const size_t nc = width.size();
  std::vector<size_t> all(nc);
  for (size_t c = 0; c < nc; c++) all[c] = c;
  size_t total = 1;
  for (size_t w : width) total += w + 3;
  if (max_width == 0 || total <= max_width || nc == 0) return all;
  const size_t elided_cost = 4;  // "| … "
  size_t budget = max_width > 1 + elided_cost ? max_width - 1 - elided_cost : 0;
  std::vector<size_t> left, right;
  size_t l = 0, r = nc - 1;
  bool from_left = true;
  while (l <= r) {
    const size_t c = from_left ? l : r;
    if (width[c] + 3 > budget) break;
    budget -= width[c] + 3;
    if (from_left) left.push_back(l++);
    else right.push_back(r--);
    from_left = !from_left;
    if (r == size_t(-1)) break;
  }
  if (left.empty() && right.empty()) {
    width[0] = std::max<size_t>(1, budget > 3 ? budget - 3 : 1);
    left.push_back(0);
  }
  std::vector<size_t> out = left;
  out.push_back(size_t(-1));  // the elided middle
  out.insert(out.end(), right.rbegin(), right.rend());
  return out;
}

}  // namespace

std::string ResultPrinter::render(const QueryResult& r) const {
  switch (mode) {
    case ShellMode::kTable: return table(r);
    case ShellMode::kCsv: return delimited(r, ',');
    case ShellMode::kTsv: return delimited(r, '\t');
    case ShellMode::kJson: return format_result(r, OutputFormat::kJson);
    case ShellMode::kJsonl: return json_lines(r);
    case ShellMode::kMarkdown: return markdown(r);
  }
  return "";
}

std::string ResultPrinter::table(const QueryResult& r) const {
  const size_t nc = r.column_count(), nr = r.row_count();
  // The rows shown: all, or the first and last halves of max_rows around a gap.
  std::vector<size_t> rows;
  const bool cut = max_rows > 0 && nr > max_rows;
  const size_t top = cut ? (max_rows + 1) / 2 : nr, bottom = cut ? max_rows / 2 : 0;
  for (size_t i = 0; i < top; i++) rows.push_back(i);
  for (size_t i = nr - bottom; i < nr; i++) rows.push_back(i);
  std::vector<std::vector<std::string>> cells(rows.size(), std::vector<std::string>(nc));
  std::vector<size_t> width(nc, 0);
  for (size_t c = 0; c < nc; c++) width[c] = headers ? display_width(escape_controls(r.column_name(c))) : 0;
  for (size_t i = 0; i < rows.size(); i++)
    for (size_t c = 0; c < nc; c++) {
      cells[i][c] = cell_text(r, rows[i], c);
      width[c] = std::max(width[c], display_width(cells[i][c]));
    }
  const std::vector<size_t> shown = visible_columns(width, max_width);
  auto line = [&] {
    std::string s = "+";
    for (size_t c : shown) s += std::string((c == size_t(-1) ? 1 : width[c]) + 2, '-') + "+";
    return s + "\n";
  };
  auto row_line = [&](auto&& text_of) {
    std::string s = "|";
    for (size_t c : shown) {
      if (c == size_t(-1)) {
        s += " … |";
        continue;
      }
      const std::string t = fit_width(text_of(c), width[c]);
      const std::string fill(width[c] - display_width(t), ' ');
      s += " " + (r.column_type(c).is_numeric() ? fill + t : t + fill) + " |";
    }
    return s + "\n";
  };
  std::string out = line();
  if (headers) out += row_line([&](size_t c) { return escape_controls(r.column_name(c)); }) + line();
  for (size_t i = 0; i < rows.size(); i++) {
    if (cut && i == top) out += row_line([](size_t) { return std::string("·"); });
    out += row_line([&](size_t c) { return cells[i][c]; });
  }
  out += line();
  out += plural_rows(nr);
  if (cut) out += fmt::format(", {} shown", rows.size());
  if (shown.size() < nc || (nc > 0 && std::count(shown.begin(), shown.end(), size_t(-1)) > 0))
    out += fmt::format("; {} columns, {} shown", nc, shown.size() - 1);
  return out + "\n";
}

std::string ResultPrinter::delimited(const QueryResult& r, char separator) const {
  const size_t nc = r.column_count(), nr = r.row_count();
  std::string out;
  if (headers) {
    for (size_t c = 0; c < nc; c++) out += (c ? std::string(1, separator) : "") + quoted(r.column_name(c), separator);
    out += "\n";
  }
  for (size_t i = 0; i < nr; i++) {
    for (size_t c = 0; c < nc; c++) {
      const Value v = r.get(i, c);
      out += (c ? std::string(1, separator) : "") + (v.is_null() ? std::string() : quoted(v.to_string(), separator));
    }
    out += "\n";
  }
  return out;
}

std::string ResultPrinter::json_lines(const QueryResult& r) const {
  // One object per line, with the values exactly as the JSON mode writes them.
  const nlohmann::ordered_json rows = nlohmann::ordered_json::parse(format_result(r, OutputFormat::kJson));
  std::string out;
  for (const auto& row : rows) out += row.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  return out;
}

std::string ResultPrinter::markdown(const QueryResult& r) const {
  const size_t nc = r.column_count(), nr = r.row_count();
  auto md = [](std::string s) {
    std::string out;
    for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
  };
  std::string out;
  out += "|";
  for (size_t c = 0; c < nc; c++) out += " " + md(escape_controls(r.column_name(c))) + " |";
  out += "\n|";
  for (size_t c = 0; c < nc; c++) out += r.column_type(c).is_numeric() ? "---:|" : "---|";
  out += "\n";
  for (size_t i = 0; i < nr; i++) {
    out += "|";
    for (size_t c = 0; c < nc; c++) out += " " + md(cell_text(r, i, c)) + " |";
    out += "\n";
  }
  return out;
}

}  // namespace raydb::cli::shell
