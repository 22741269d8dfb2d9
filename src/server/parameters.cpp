#include "server/parameters.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <regex>

#include "raydb/types.h"
#include "raydb/value.h"
#include "server/pg_types.h"
#include "server/sql_error.h"

namespace raydb::server {

namespace {

// Calls visit(pos, n) for each $n outside literals and comments; returns the end of
// the last match handled. Shared by counting and substituting.
template <typename Visit>
void scan_parameters(std::string_view sql, Visit visit) {
  size_t i = 0;
  while (i < sql.size()) {
    const char c = sql[i];
    if (c == '\'' || c == '"') {  // a literal or quoted identifier; doubled quotes stay inside
      size_t j = i + 1;
      while (j < sql.size() && !(sql[j] == c && (j + 1 >= sql.size() || sql[j + 1] != c))) j += sql[j] == c ? 2 : 1;
      i = j + 1;
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      const size_t e = sql.find('\n', i);
      i = e == std::string_view::npos ? sql.size() : e;
    } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      const size_t e = sql.find("*/", i + 2);
      i = e == std::string_view::npos ? sql.size() : e + 2;
    } else if (c == '$' && i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1]))) {
      size_t j = i + 1;
      int n = 0;
      while (j < sql.size() && std::isdigit(static_cast<unsigned char>(sql[j])) && n < 100000) n = n * 10 + (sql[j++] - '0');
      visit(i, j, n);
      i = j;
    } else {
      i++;
    }
  }
}

[[noreturn]] void bad_value(const std::string& value, const char* type) {
  throw SqlError{"22P02", "invalid input syntax for type " + std::string(type) + ": \"" + value + "\""};
}

std::string quoted(const std::string& s) {
  if (s.find('\0') != std::string::npos) throw SqlError{"22021", "a string parameter contains a NUL byte"};
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// A number as SQL: negative ones in parentheses so that "x-$1" never becomes "x--1".
std::string number(const std::string& s) { return s[0] == '-' ? "(" + s + ")" : s; }

// NUMERIC's binary form: ndigits, weight, sign, dscale, then base-10000 digits, the
// first worth 10000^weight.
std::string numeric_text(std::string_view b) {
  auto u16 = [&](size_t at) { return uint16_t(static_cast<unsigned char>(b[at]) << 8 | static_cast<unsigned char>(b[at + 1])); };
  if (b.size() < 8) throw SqlError{"22P03", "binary numeric parameter is too short"};
  const int ndigits = int16_t(u16(0)), weight = int16_t(u16(2)), dscale = int16_t(u16(6));
  const uint16_t sign = u16(4);
  if (sign != 0 && sign != 0x4000) throw SqlError{"22P03", "non-finite numeric parameters are not supported"};
  if (ndigits < 0 || b.size() != size_t(8 + 2 * ndigits) || dscale < 0)
    throw SqlError{"22P03", "malformed binary numeric parameter"};
  std::string whole, frac;
  for (int i = 0; i <= weight || i < ndigits; i++) {  // group i is worth 10000^(weight - i)
    const int d = i < ndigits ? u16(size_t(8 + 2 * i)) : 0;
    char group[8];
    std::snprintf(group, sizeof group, "%04d", d);
    if (i <= weight) whole += group;
    else frac += group;
  }
  for (int i = weight + 1; i < 0; i++) frac = "0000" + frac;  // leading fractional zero groups
  const size_t nz = whole.find_first_not_of('0');
  whole = nz == std::string::npos ? "0" : whole.substr(nz);
  frac.resize(size_t(dscale), '0');
  return (sign == 0x4000 ? "-" : "") + whole + (frac.empty() ? "" : "." + frac);
}

}  // namespace

int count_parameters(std::string_view sql) {
  int most = 0;
  scan_parameters(sql, [&](size_t, size_t, int n) { most = std::max(most, n); });
  return most;
}

std::string substitute_parameters(std::string_view sql, const std::vector<std::string>& literals) {
  std::string out;
  size_t copied = 0;
  scan_parameters(sql, [&](size_t begin, size_t end, int n) {
    if (n < 1 || size_t(n) > literals.size())
      throw SqlError{"08P01", "there is no parameter $" + std::to_string(n)};
    out.append(sql.substr(copied, begin - copied));
    out += literals[size_t(n) - 1];
    copied = end;
  });
  out.append(sql.substr(copied));
  return out;
}

std::string parameter_literal(const std::optional<std::string>& value, int32_t type) {
  if (!value) return "NULL";
  const std::string& v = *value;
  static const std::regex integer(R"([+-]?[0-9]+)");
  static const std::regex decimal(R"([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)");
  switch (type) {
    case oid::kInt2:
    case oid::kInt4:
    case oid::kInt8:
    case oid::kOid:
      if (!std::regex_match(v, integer)) bad_value(v, "integer");
      return number(v[0] == '+' ? v.substr(1) : v);
    case oid::kNumeric:
    case oid::kFloat4:
    case oid::kFloat8:
      if (!std::regex_match(v, decimal)) bad_value(v, "numeric");
      return number(v[0] == '+' ? v.substr(1) : v);
    case oid::kBool: {
      std::string l;
      for (char c : v) l += char(std::tolower(static_cast<unsigned char>(c)));
      if (l == "t" || l == "true" || l == "1" || l == "on" || l == "yes" || l == "y") return "TRUE";
      if (l == "f" || l == "false" || l == "0" || l == "off" || l == "no" || l == "n") return "FALSE";
      bad_value(v, "boolean");
    }
    case oid::kDate: {
      int32_t days = 0;
      if (!parse_date(v, days)) bad_value(v, "date");
      return "DATE '" + format_date(days) + "'";
    }
    case 0:
    case oid::kText:
    case oid::kVarchar:
    case oid::kBpchar:
    case oid::kName:
    case oid::kUnknown: return quoted(v);
    default: throw SqlError{"0A000", "parameters of type oid " + std::to_string(type) + " are not supported"};
  }
}

std::string binary_parameter_text(std::string_view b, int32_t type) {
  auto be = [&](size_t n) {
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) x = x << 8 | static_cast<unsigned char>(b[i]);
    return x;
  };
  auto need = [&](size_t n) {
    if (b.size() != n) throw SqlError{"22P03", "binary parameter of type oid " + std::to_string(type) + " has " +
                                                   std::to_string(b.size()) + " bytes"};
  };
  switch (type) {
    case oid::kInt2: need(2); return std::to_string(int16_t(be(2)));
    case oid::kInt4: need(4); return std::to_string(int32_t(be(4)));
    case oid::kInt8: need(8); return std::to_string(int64_t(be(8)));
    case oid::kBool: need(1); return b[0] ? "t" : "f";
    case oid::kDate: {
      need(4);
      const int32_t since_2000 = int32_t(be(4));
      if (since_2000 == INT32_MAX || since_2000 == INT32_MIN) throw SqlError{"22P03", "infinite dates are not supported"};
      return format_date(since_2000 + 10957);  // 2000-01-01 is day 10957 of 1970
    }
    case oid::kNumeric: return numeric_text(b);
    case oid::kFloat4:
    case oid::kFloat8: {
      double d;
      if (type == oid::kFloat4) {
        need(4);
        const uint32_t u = uint32_t(be(4));
        float f;
        std::memcpy(&f, &u, 4);
        d = f;
      } else {
        need(8);
        const uint64_t u = be(8);
        std::memcpy(&d, &u, 8);
      }
      if (!std::isfinite(d)) throw SqlError{"22P03", "non-finite float parameters are not supported"};
      return Value::float64(d).to_string();
    }
    case 0:
    case oid::kText:
    case oid::kVarchar:
    case oid::kBpchar:
    case oid::kName:
    case oid::kUnknown: return std::string(b);
    default:
      throw SqlError{"0A000", "binary parameters of type oid " + std::to_string(type) + " are not supported"};
  }
}

}  // namespace raydb::server
