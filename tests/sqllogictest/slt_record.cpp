#include "sqllogictest/slt_record.h"

#include <sstream>
#include <stdexcept>

namespace raydb::slt {

namespace {

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      if (!cur.empty() && cur.back() == '\r') cur.pop_back();
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; }

}  // namespace

bool Record::applies_to(const std::string& db) const {
  for (auto& s : skipif)
    if (s == db) return false;
  if (onlyif.empty()) return true;
  for (auto& s : onlyif)
    if (s == db) return true;
  return false;
}

bool Record::applies_to_all(const std::vector<std::string>& dbs) const {
  for (auto& s : skipif)
    for (auto& db : dbs)
      if (s == db) return false;
  if (onlyif.empty()) return true;
  for (auto& s : onlyif)
    for (auto& db : dbs)
      if (s == db) return true;
  return false;
}

std::vector<Record> parse_records(const std::string& text, const std::string& file) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<Record> out;
  Record pending;  // collects skipif/onlyif
  size_t i = 0;
  auto bad = [&](size_t at, const std::string& what) {
    throw std::runtime_error(file + ":" + std::to_string(at + 1) + ": " + what);
  };
  while (i < lines.size()) {
    const std::string& l = lines[i];
    if (blank(l) || l[0] == '#') {
      i++;
      continue;
    }
    std::vector<std::string> w = words(l);
    if ((w[0] == "skipif" || w[0] == "onlyif") && w.size() >= 2) {
      (w[0] == "skipif" ? pending.skipif : pending.onlyif).push_back(w[1]);
      i++;
      continue;
    }
    Record r = pending;
    pending = Record();
    r.line = int(i + 1);
    if (w[0] == "halt") {
      r.kind = Record::Kind::kHalt;
      out.push_back(r);
      i++;
      continue;
    }
    if (w[0] == "hash-threshold") {
      if (w.size() != 2) bad(i, "hash-threshold takes a number");
      r.kind = Record::Kind::kHashThreshold;
      r.threshold = std::stoi(w[1]);
      out.push_back(r);
      i++;
      continue;
    }
    if (w[0] == "statement") {
      if (w.size() < 2 || (w[1] != "ok" && w[1] != "error")) bad(i, "expected 'statement ok' or 'statement error'");
      r.kind = Record::Kind::kStatement;
      r.expect_error = w[1] == "error";
    } else if (w[0] == "query") {
      if (w.size() < 2) bad(i, "query needs its column types");
      r.kind = Record::Kind::kQuery;
      r.types = w[1];
      for (char c : r.types)
        if (c != 'I' && c != 'R' && c != 'T') bad(i, "column types are I, R or T, got '" + r.types + "'");
      if (w.size() >= 3) r.sort = w[2];
      if (r.sort != "nosort" && r.sort != "rowsort" && r.sort != "valuesort") bad(i, "unknown sort mode " + r.sort);
      if (w.size() >= 4) r.label = w[3];
    } else {
      bad(i, "unknown record '" + w[0] + "'");
    }
    i++;
    while (i < lines.size() && !blank(lines[i]) && lines[i] != "----") r.sql += (r.sql.empty() ? "" : "\n") + lines[i++];
    if (r.sql.empty()) bad(size_t(r.line - 1), "the record has no SQL");
    r.results_begin = r.results_end = i;
    if (i < lines.size() && lines[i] == "----") {
      r.has_results = true;
      i++;
      r.results_begin = i;
      while (i < lines.size() && !blank(lines[i])) r.results.push_back(lines[i++]);
      r.results_end = i;
      if (r.kind == Record::Kind::kStatement) {
        if (!r.expect_error) bad(size_t(r.line - 1), "statement ok takes no results");
        for (auto& x : r.results) r.error_text += (r.error_text.empty() ? "" : "\n") + x;
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace raydb::slt
