#include "support/sqlite_oracle.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace raydb::test {

// ---------------------------------------------------------------------------------
// Cells

std::string Cell::to_string() const {
  switch (kind) {
    case Kind::kNull: return "NULL";
    case Kind::kInt: return format_int128(i);
    case Kind::kReal: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", d);
      return buf;
    }
    case Kind::kText: {
      std::string out = "'";
      for (char c : s) {
        if (c == '\'') out += "''";
        else out += c;
      }
      return out + "'";
    }
  }
  return "?";
}

namespace {

bool is_number(const Cell& c) { return c.kind == Cell::Kind::kInt || c.kind == Cell::Kind::kReal; }
int kind_rank(const Cell& c) {
  if (c.kind == Cell::Kind::kNull) return 0;
  if (is_number(c)) return 1;
  return 2;
}
long double as_long_double(const Cell& c) {
  return c.kind == Cell::Kind::kInt ? static_cast<long double>(c.i) : static_cast<long double>(c.d);
}

}  // namespace

int compare_cells(const Cell& a, const Cell& b) {
  int ra = kind_rank(a), rb = kind_rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  if (ra == 0) return 0;
  if (ra == 2) return a.s < b.s ? -1 : (a.s == b.s ? 0 : 1);
  if (a.kind == Cell::Kind::kInt && b.kind == Cell::Kind::kInt) return a.i < b.i ? -1 : (a.i == b.i ? 0 : 1);
  long double x = as_long_double(a), y = as_long_double(b);
  if (std::isnan(static_cast<double>(x)) || std::isnan(static_cast<double>(y))) {
    bool nx = std::isnan(static_cast<double>(x)), ny = std::isnan(static_cast<double>(y));
    return nx == ny ? 0 : (nx ? 1 : -1);
  }
  long double diff = std::fabs(x - y);
  long double scale = std::max(std::fabs(x), std::fabs(y));
  if (x == y || diff <= scale * kRelTolerance || diff <= 1e-12L) return 0;
  return x < y ? -1 : 1;
}

bool cells_equal(const Cell& a, const Cell& b) { return compare_cells(a, b) == 0; }

namespace {

int compare_rows(const Row& a, const Row& b) {
  for (size_t c = 0; c < std::min(a.size(), b.size()); ++c) {
    int r = compare_cells(a[c], b[c]);
    if (r) return r;
  }
  return a.size() < b.size() ? -1 : (a.size() == b.size() ? 0 : 1);
}

std::string row_text(const Row& r) {
  std::string out = "(";
  for (size_t c = 0; c < r.size(); ++c) {
    if (c) out += ", ";
    out += r[c].to_string();
  }
  return out + ")";
}

}  // namespace

Cell canonical_cell(const Value& v) {
  if (v.is_null()) return Cell::null();
  switch (v.type().id) {
    case TypeId::kNull: return Cell::null();
    case TypeId::kBoolean:
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kHugeint: return Cell::integer(v.as_hugeint());
    case TypeId::kDouble:
    case TypeId::kDecimal: return Cell::real(v.as_double());
    case TypeId::kDate:
    case TypeId::kTimestamp: return Cell::text(v.to_string());  // as SQLite's TEXT ('YYYY-MM-DD HH:MM:SS')
    case TypeId::kVarchar: return Cell::text(v.as_string());
  }
  return Cell::null();
}

Rows canonical_rows(const QueryResult& r) {
  Rows out;
  for (size_t c = 0; c < r.column_count(); ++c) out.names.push_back(r.column_name(c));
  out.rows.reserve(r.row_count());
  for (size_t i = 0; i < r.row_count(); ++i) {
    Row row;
    row.reserve(r.column_count());
    for (size_t c = 0; c < r.column_count(); ++c) row.push_back(canonical_cell(r.get(i, c)));
    out.rows.push_back(std::move(row));
  }
  return out;
}

// ---------------------------------------------------------------------------------
// SQL text analysis: a small tokenizer that knows strings, quoted identifiers,
// comments and parentheses, enough to find the outermost ORDER BY / LIMIT / OFFSET.

namespace {

struct Token {
  enum class Kind { kWord, kNumber, kString, kQuotedIdent, kPunct };
  Kind kind;
  std::string lower;  // lower-cased text (words), raw text otherwise
  size_t begin, end;
  int depth;  // parenthesis depth before the token
};

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  int depth = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      i = e == std::string::npos ? s.size() : e + 2;
      continue;
    }
    size_t b = i;
    if (c == '\'' || c == '"') {
      ++i;
      while (i < s.size()) {
        if (s[i] == c) {
          if (i + 1 < s.size() && s[i + 1] == c) { i += 2; continue; }
          ++i;
          break;
        }
        ++i;
      }
      out.push_back({c == '\'' ? Token::Kind::kString : Token::Kind::kQuotedIdent, s.substr(b, i - b), b, i, depth});
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' ||
                              static_cast<unsigned char>(s[i]) >= 0x80))
        ++i;
      out.push_back({Token::Kind::kWord, to_lower(s.substr(b, i - b)), b, i, depth});
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
      out.push_back({Token::Kind::kNumber, s.substr(b, i - b), b, i, depth});
      continue;
    }
    ++i;
    out.push_back({Token::Kind::kPunct, std::string(1, c), b, i, depth});
    if (c == '(') ++depth;
    if (c == ')') --depth;
  }
  return out;
}

bool is_word(const Token& t, const char* w) { return t.kind == Token::Kind::kWord && t.lower == w; }

}  // namespace

SqlShape analyze_sql(const std::string& sql) {
  SqlShape shape;
  std::vector<Token> toks = tokenize(sql);
  // The outermost ORDER BY is the last one at depth 0.
  size_t order_at = toks.size();
  for (size_t i = 0; i + 1 < toks.size(); ++i)
    if (toks[i].depth == 0 && is_word(toks[i], "order") && is_word(toks[i + 1], "by")) order_at = i;
  for (const Token& t : toks) {
    if (t.depth != 0) continue;
    if (is_word(t, "limit")) shape.has_limit = true;
    if (is_word(t, "offset")) shape.has_offset = true;
  }
  if (order_at == toks.size()) return shape;
  size_t i = order_at + 2;
  while (i < toks.size()) {
    // One item: tokens up to a depth-0 comma or the end of the clause.
    size_t first = i;
    size_t last = i;  // exclusive
    while (last < toks.size()) {
      const Token& t = toks[last];
      if (t.depth == 0 && (t.lower == "," || t.lower == ";" || is_word(t, "limit") || is_word(t, "offset"))) break;
      ++last;
    }
    if (last == first) break;
    SqlShape::OrderItem item;
    item.begin = toks[first].begin;
    item.end = toks[last - 1].end;
    size_t text_end = last;
    if (text_end - first >= 2 && is_word(toks[text_end - 2], "nulls") &&
        (is_word(toks[text_end - 1], "first") || is_word(toks[text_end - 1], "last"))) {
      item.explicit_nulls = true;
      text_end -= 2;
    }
    if (text_end - first >= 1 && (is_word(toks[text_end - 1], "asc") || is_word(toks[text_end - 1], "desc"))) {
      item.descending = is_word(toks[text_end - 1], "desc");
      --text_end;
    }
    if (text_end > first) item.text = sql.substr(toks[first].begin, toks[text_end - 1].end - toks[first].begin);
    shape.order_by.push_back(item);
    i = last;
    if (i < toks.size() && toks[i].lower == ",") {
      ++i;
      continue;
    }
    break;
  }
  return shape;
}

std::string sqlite_dialect(const std::string& sql) {
  struct Edit {
    size_t begin, end;
    std::string text;
  };
  std::vector<Edit> edits;
  std::vector<Token> toks = tokenize(sql);
  for (size_t i = 0; i + 1 < toks.size(); ++i)
    if (is_word(toks[i], "date") && toks[i + 1].kind == Token::Kind::kString)
      edits.push_back({toks[i].begin, toks[i + 1].begin, ""});  // DATE 'x' -> 'x'
  for (const auto& item : analyze_sql(sql).order_by)
    if (!item.explicit_nulls)
      edits.push_back({item.end, item.end, item.descending ? " NULLS FIRST" : " NULLS LAST"});
  // ORDER BY inside parentheses (window definitions, subqueries) gets PostgreSQL's NULL
  // order too: each item ends at a comma, ')' or frame keyword of its own depth.
  for (size_t i = 0; i + 1 < toks.size(); ++i) {
    if (toks[i].depth == 0 || !is_word(toks[i], "order") || !is_word(toks[i + 1], "by")) continue;
    const int d = toks[i].depth;
    size_t j = i + 2;
    while (j < toks.size()) {
      size_t last = j;
      while (last < toks.size() && toks[last].depth >= d) {
        const Token& t = toks[last];
        if (t.depth == d && (t.lower == "," || t.lower == ")" || is_word(t, "rows") || is_word(t, "range") ||
                             is_word(t, "groups") || is_word(t, "limit") || is_word(t, "offset")))
          break;
        ++last;
      }
      if (last == j) break;
      const bool explicit_nulls = last - j >= 2 && is_word(toks[last - 2], "nulls");
      const bool desc = is_word(toks[last - 1], "desc");
      if (!explicit_nulls) edits.push_back({toks[last - 1].end, toks[last - 1].end, desc ? " NULLS FIRST" : " NULLS LAST"});
      if (last < toks.size() && toks[last].lower == "," && toks[last].depth == d) {
        j = last + 1;
        continue;
      }
      break;
    }
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  size_t at = 0;
  for (const Edit& e : edits) {
    out.append(sql, at, e.begin - at);
    out += e.text;
    at = e.end;
  }
  out.append(sql, at, std::string::npos);
  return out;
}

namespace {

// Lower case, no whitespace, no identifier quotes: "SUM( lo_revenue )" == "sum(lo_revenue)".
std::string normalize_name(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '"') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<size_t> find_name(const std::string& item, const std::vector<std::string>& names) {
  std::string n = normalize_name(item);
  for (size_t c = 0; c < names.size(); ++c)
    if (normalize_name(names[c]) == n) return c;
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<size_t>> resolve_order_columns(const SqlShape& shape,
                                                         const std::vector<std::string>& names,
                                                         std::string& error) {
  std::vector<size_t> cols;
  for (const auto& item : shape.order_by) {
    const std::string& t = item.text;
    if (!t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      size_t k = std::stoul(t);
      if (k < 1 || k > names.size()) {
        error = "ORDER BY ordinal " + t + " is out of range";
        return std::nullopt;
      }
      cols.push_back(k - 1);
      continue;
    }
    std::optional<size_t> c = find_name(t, names);
    if (!c) {
      // A qualified column (t.col) whose output column is named col.
      size_t dot = t.rfind('.');
      if (dot != std::string::npos) c = find_name(t.substr(dot + 1), names);
    }
    if (!c) {
      error = "ORDER BY item '" + t +
              "' is not an output column, so the oracle cannot check the ordering; select it or order "
              "by an alias/ordinal";
      return std::nullopt;
    }
    cols.push_back(*c);
  }
  return cols;
}

// ---------------------------------------------------------------------------------
// Comparison

namespace {

constexpr size_t kMaxShown = 8;

std::string header(const Rows& expected, const Rows& actual) {
  std::string out = "  columns (sqlite):";
  for (const auto& n : expected.names) out += " [" + n + "]";
  out += "\n  columns (raydb): ";
  for (const auto& n : actual.names) out += " [" + n + "]";
  out += "\n  rows: raydb " + std::to_string(actual.rows.size()) + ", sqlite " + std::to_string(expected.rows.size()) + "\n";
  return out;
}

// Rows only in one of the two multisets; empty when equal.
std::string multiset_diff(std::vector<Row> expected, std::vector<Row> actual) {
  auto less = [](const Row& a, const Row& b) { return compare_rows(a, b) < 0; };
  std::sort(expected.begin(), expected.end(), less);
  std::sort(actual.begin(), actual.end(), less);
  std::vector<const Row*> only_e, only_a;
  size_t i = 0, j = 0;
  while (i < expected.size() || j < actual.size()) {
    if (i == expected.size()) { only_a.push_back(&actual[j++]); continue; }
    if (j == actual.size()) { only_e.push_back(&expected[i++]); continue; }
    int c = compare_rows(expected[i], actual[j]);
    if (c == 0) { ++i; ++j; }
    else if (c < 0) only_e.push_back(&expected[i++]);
    else only_a.push_back(&actual[j++]);
  }
  if (only_e.empty() && only_a.empty()) return "";
  std::string out;
  out += "  rows only in raydb (" + std::to_string(only_a.size()) + "):\n";
  for (size_t k = 0; k < only_a.size() && k < kMaxShown; ++k) out += "    " + row_text(*only_a[k]) + "\n";
  if (only_a.size() > kMaxShown) out += "    ...\n";
  out += "  rows only in sqlite (" + std::to_string(only_e.size()) + "):\n";
  for (size_t k = 0; k < only_e.size() && k < kMaxShown; ++k) out += "    " + row_text(*only_e[k]) + "\n";
  if (only_e.size() > kMaxShown) out += "    ...\n";
  return out;
}

struct Run {
  size_t begin, end;
};

bool same_keys(const Row& a, const Row& b, const std::vector<size_t>& keys) {
  for (size_t k : keys)
    if (!cells_equal(a[k], b[k])) return false;
  return true;
}

std::vector<Run> split_runs(const std::vector<Row>& rows, const std::vector<size_t>& keys) {
  std::vector<Run> runs;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (runs.empty() || !same_keys(rows[runs.back().begin], rows[i], keys)) runs.push_back({i, i + 1});
    else runs.back().end = i + 1;
  }
  return runs;
}

std::string rows_around(const char* who, const std::vector<Row>& rows, size_t at) {
  std::string out = std::string("  ") + who + " rows from " + std::to_string(at) + ":\n";
  for (size_t k = at; k < rows.size() && k < at + kMaxShown; ++k)
    out += "    " + std::to_string(k) + ": " + row_text(rows[k]) + "\n";
  return out;
}

}  // namespace

std::string diff_results(const Rows& expected, const Rows& actual, const SqlShape& shape) {
  if (expected.names.size() != actual.names.size())
    return "column count differs: raydb " + std::to_string(actual.names.size()) + ", sqlite " +
           std::to_string(expected.names.size()) + "\n" + header(expected, actual);
  for (const Row& r : actual.rows)
    if (r.size() != actual.names.size()) return "raydb returned a row of the wrong width\n";

  if (shape.order_by.empty()) {
    if (shape.has_limit || shape.has_offset) {
      // Any subset of the right size is a correct answer.
      if (expected.rows.size() == actual.rows.size()) return "";
      return "row count differs (LIMIT/OFFSET without ORDER BY: only the count is compared)\n" +
             header(expected, actual);
    }
    std::string d = multiset_diff(expected.rows, actual.rows);
    if (d.empty() && expected.rows.size() == actual.rows.size()) return "";
    return "results differ (compared as multisets: no ORDER BY)\n" + header(expected, actual) + d;
  }

  std::string error;
  auto keys = resolve_order_columns(shape, expected.names, error);
  if (!keys) keys = resolve_order_columns(shape, actual.names, error);
  if (!keys) return "cannot compare: " + error + "\n";

  if (expected.rows.size() != actual.rows.size()) {
    std::string d = (shape.has_limit || shape.has_offset) ? std::string() : multiset_diff(expected.rows, actual.rows);
    return "row count differs\n" + header(expected, actual) + d;
  }
  std::vector<Run> re = split_runs(expected.rows, *keys), ra = split_runs(actual.rows, *keys);
  for (size_t k = 0; k < std::min(re.size(), ra.size()); ++k) {
    const Run& e = re[k];
    const Run& a = ra[k];
    bool truncated = (k == 0 && shape.has_offset) || (k + 1 == re.size() && shape.has_limit);
    bool keys_ok = same_keys(expected.rows[e.begin], actual.rows[a.begin], *keys);
    if (!keys_ok || e.end - e.begin != a.end - a.begin) {
      size_t at = std::min(e.begin, a.begin);
      return "ORDER BY sequence differs at row " + std::to_string(at) +
             (keys_ok ? " (same sort keys, different number of tied rows)" : " (different sort keys)") + "\n" +
             header(expected, actual) + rows_around("raydb", actual.rows, at) + rows_around("sqlite", expected.rows, at);
    }
    if (truncated) continue;
    std::vector<Row> ev(expected.rows.begin() + e.begin, expected.rows.begin() + e.end);
    std::vector<Row> av(actual.rows.begin() + a.begin, actual.rows.begin() + a.end);
    std::string d = multiset_diff(std::move(ev), std::move(av));
    if (!d.empty())
      return "rows differ within the run of equal sort keys at rows " + std::to_string(e.begin) + ".." +
             std::to_string(e.end - 1) + "\n" + header(expected, actual) + d;
  }
  if (re.size() != ra.size()) return "number of distinct sort keys differs\n" + header(expected, actual);
  return "";
}

// ---------------------------------------------------------------------------------
// SQLite

SqliteOracle::SqliteOracle() {
  if (sqlite3_open(":memory:", &db_) != SQLITE_OK) throw std::runtime_error("sqlite3_open failed");
  exec("PRAGMA case_sensitive_like = ON");
}

SqliteOracle::~SqliteOracle() { sqlite3_close(db_); }

void SqliteOracle::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error("sqlite: " + msg + " in: " + sql);
  }
}

namespace {

std::string quote_ident(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += "\"\"";
    else out += c;
  }
  return out + "\"";
}

const char* sqlite_type(const Type& t) {
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kBoolean:
    case TypeId::kHugeint: return "INTEGER";
    case TypeId::kDouble:
    case TypeId::kDecimal: return "REAL";
    case TypeId::kDate:
    case TypeId::kVarchar: return "TEXT";
    case TypeId::kNull: break;
  }
  return "";
}

}  // namespace

void SqliteOracle::load_table(const Table& table) {
  std::string create = "CREATE TABLE " + quote_ident(table.name()) + " (";
  std::string insert = "INSERT INTO " + quote_ident(table.name()) + " VALUES (";
  for (size_t c = 0; c < table.column_count(); ++c) {
    if (c) {
      create += ", ";
      insert += ", ";
    }
    create += quote_ident(table.column(c).name()) + " " + sqlite_type(table.column(c).type());
    insert += "?";
  }
  exec(create + ")");
  exec("BEGIN");
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, (insert + ")").c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("sqlite prepare: ") + sqlite3_errmsg(db_));
  std::vector<std::string> date_text(table.column_count());
  for (uint64_t row = 0; row < table.row_count(); ++row) {
    for (size_t c = 0; c < table.column_count(); ++c) {
      const Column& col = table.column(c);
      int p = int(c) + 1;
      if (col.is_null(row)) {  // the value slot holds a placeholder
        sqlite3_bind_null(stmt, p);
        continue;
      }
      switch (col.type().id) {
        case TypeId::kInteger:
        case TypeId::kBigint: sqlite3_bind_int64(stmt, p, col.get_int(row)); break;
        case TypeId::kDouble: sqlite3_bind_double(stmt, p, col.data<double>()[row]); break;
        case TypeId::kDecimal:
          sqlite3_bind_double(stmt, p, double(col.get_int(row)) / double(pow10_i64(col.type().scale)));
          break;
        case TypeId::kDate:
          date_text[c] = format_date(int32_t(col.get_int(row)));
          sqlite3_bind_text(stmt, p, date_text[c].data(), int(date_text[c].size()), SQLITE_STATIC);
          break;
        case TypeId::kVarchar: {
          std::string_view s = col.dictionary()->at(uint32_t(col.get_int(row)));
          sqlite3_bind_text(stmt, p, s.data(), int(s.size()), SQLITE_STATIC);
          break;
        }
        default: {
          std::string s = col.get(row).to_string();
          sqlite3_bind_text(stmt, p, s.data(), int(s.size()), SQLITE_TRANSIENT);
        }
      }
    }
    if (sqlite3_step(stmt) != SQLITE_DONE) {
      std::string msg = sqlite3_errmsg(db_);
      sqlite3_finalize(stmt);
      throw std::runtime_error("sqlite insert: " + msg);
    }
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
  exec("COMMIT");
}

void SqliteOracle::load_database(const DatabaseDirectory& dir) {
  for (const std::string& name : dir.table_names()) load_table(*dir.table(name));
}

void SqliteOracle::create_index(const std::string& table, const std::string& column) {
  exec("CREATE INDEX " + quote_ident("idx_" + table + "_" + column) + " ON " + quote_ident(table) + "(" +
       quote_ident(column) + ")");
}

void SqliteOracle::analyze() { exec("ANALYZE"); }

Rows SqliteOracle::query_raw(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
  if (!stmt) throw std::runtime_error("sqlite: empty statement");
  Rows out;
  int n = sqlite3_column_count(stmt);
  for (int c = 0; c < n; ++c) out.names.push_back(sqlite3_column_name(stmt, c));
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    Row row;
    for (int c = 0; c < n; ++c) {
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_NULL: row.push_back(Cell::null()); break;
        case SQLITE_INTEGER: row.push_back(Cell::integer(sqlite3_column_int64(stmt, c))); break;
        case SQLITE_FLOAT: row.push_back(Cell::real(sqlite3_column_double(stmt, c))); break;
        default: {
          const unsigned char* t = sqlite3_column_text(stmt, c);
          row.push_back(Cell::text(std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(stmt, c))));
        }
      }
    }
    out.rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) {
    std::string msg = sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
    throw std::runtime_error("sqlite: " + msg);
  }
  sqlite3_finalize(stmt);
  return out;
}

::testing::AssertionResult matches_sqlite(Database& db, SqliteOracle& oracle, const std::string& sql,
                                          const QueryOptions& options, const std::string& sqlite_sql,
                                          size_t* expected_rows) {
  std::string lite = sqlite_sql.empty() ? sqlite_dialect(sql) : sqlite_sql;
  Rows expected;
  try {
    expected = oracle.query_raw(lite);
    if (expected_rows) *expected_rows = expected.rows.size();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "the oracle failed (a test bug): " << e.what() << "\n  sqlite text: " << lite;
  }
  Rows actual;
  try {
    actual = canonical_rows(db.query(sql, options));
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "raydb failed: " << e.what() << "\n  sql: " << sql;
  }
  std::string d = diff_results(expected, actual, analyze_sql(sql));
  if (d.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "raydb differs from SQLite\n  sql: " << sql << "\n" << d;
}

}  // namespace raydb::test
