#include "sqllogictest/slt_format.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace raydb::slt {

namespace {

using test::Cell;

std::string format_cell(const Cell& c, char type) {
  if (c.kind == Cell::Kind::kNull) return "NULL";
  char buf[64];
  switch (type) {
    case 'I': {
      // As SQLite's runner reads a column as int64: reals truncate, text parses its prefix.
      long long v = c.kind == Cell::Kind::kInt    ? (long long)c.i
                    : c.kind == Cell::Kind::kReal ? (long long)std::trunc(c.d)
                                                  : std::atoll(c.s.c_str());
      return std::to_string(v);
    }
    case 'R': {
      double v = c.kind == Cell::Kind::kInt ? double(c.i) : c.kind == Cell::Kind::kReal ? c.d : std::atof(c.s.c_str());
      std::snprintf(buf, sizeof buf, "%.3f", v);
      return buf;
    }
    default: {
      std::string s;
      if (c.kind == Cell::Kind::kText) {
        s = c.s;
      } else if (c.kind == Cell::Kind::kInt) {
        s = test::Cell::integer(c.i).to_string();
      } else {
        std::snprintf(buf, sizeof buf, "%.15g", c.d);
        s = buf;
      }
      if (s.empty()) return "(empty)";
      for (char& ch : s)
        if ((unsigned char)ch < ' ') ch = '@';
      return s;
    }
  }
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t t = line.find('\t', start);
    out.push_back(line.substr(start, t == std::string::npos ? std::string::npos : t - start));
    if (t == std::string::npos) return out;
    start = t + 1;
  }
}

// Sorts rows (as sequences of strings) or all values.
std::vector<std::string> apply_sort(std::vector<std::vector<std::string>> rows, const std::string& sort) {
  if (sort == "rowsort") std::sort(rows.begin(), rows.end());
  std::vector<std::string> values;
  for (auto& r : rows) values.insert(values.end(), r.begin(), r.end());
  if (sort == "valuesort") std::sort(values.begin(), values.end());
  return values;
}

}  // namespace

std::vector<std::string> format_values(const test::Rows& rows, const std::string& types, const std::string& sort) {
  if (rows.names.size() != types.size())
    throw std::runtime_error("the query returns " + std::to_string(rows.names.size()) + " columns, the record's types '" +
                             types + "' say " + std::to_string(types.size()));
  std::vector<std::vector<std::string>> out;
  for (const test::Row& r : rows.rows) {
    std::vector<std::string> line;
    for (size_t c = 0; c < r.size(); c++) line.push_back(format_cell(r[c], types[c]));
    out.push_back(std::move(line));
  }
  return apply_sort(std::move(out), sort);
}

std::string md5_of_values(const std::vector<std::string>& values) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_md5(), nullptr);
  for (const std::string& v : values) {
    EVP_DigestUpdate(ctx, v.data(), v.size());
    EVP_DigestUpdate(ctx, "\n", 1);
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(ctx, md, &n);
  EVP_MD_CTX_free(ctx);
  std::string hex;
  char buf[3];
  for (unsigned int i = 0; i < n; i++) {
    std::snprintf(buf, sizeof buf, "%02x", md[i]);
    hex += buf;
  }
  return hex;
}

std::vector<std::string> expected_values(const std::vector<std::string>& lines, size_t columns, const std::string& sort) {
  std::vector<std::vector<std::string>> rows;
  bool tabbed = columns > 1;
  for (auto& l : lines) tabbed = tabbed && l.find('\t') != std::string::npos;
  if (tabbed) {
    for (auto& l : lines) rows.push_back(split_tabs(l));
  } else {
    // One value per line: regroup into rows of `columns` values for rowsort.
    std::vector<std::string> row;
    for (auto& l : lines) {
      row.push_back(l);
      if (row.size() == std::max<size_t>(columns, 1)) rows.push_back(std::move(row)), row.clear();
    }
    if (!row.empty()) rows.push_back(std::move(row));
  }
  return apply_sort(std::move(rows), sort);
}

}  // namespace raydb::slt
