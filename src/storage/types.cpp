#include "raydb/types.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/error.h"

namespace raydb {

namespace {
std::string upper(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = char(std::toupper(static_cast<unsigned char>(c)));
  return r;
}
std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}
}  // namespace

Type Type::parse(std::string_view text) {
  text = trim(text);
  std::string t = upper(text);
  std::string base = t, args;
  if (auto p = t.find('('); p != std::string::npos) {
    if (t.back() != ')') fail(ErrorKind::kInvalidInput, "malformed type '{}'", text);
    base = std::string(trim(std::string_view(t).substr(0, p)));
    args = t.substr(p + 1, t.size() - p - 2);
  }
  if (base == "INT" || base == "INTEGER" || base == "INT4") return integer();
  if (base == "BIGINT" || base == "INT8") return bigint();
  if (base == "DOUBLE" || base == "FLOAT8" || base == "REAL" || base == "FLOAT") return float64();
  if (base == "DATE") return date();
  if (base == "BOOLEAN" || base == "BOOL") return boolean();
  if (base == "TIMESTAMP" || base == "DATETIME" || base == "TIMESTAMP WITHOUT TIME ZONE") return timestamp();
  if (base == "VARCHAR" || base == "TEXT" || base == "CHAR" || base == "STRING") return varchar();
  if (base == "DECIMAL" || base == "NUMERIC") {
    int p = 18, s = 0;
    if (!args.empty()) {
      auto comma = args.find(',');
      auto ps = trim(std::string_view(args).substr(0, comma));
      auto ss = comma == std::string::npos ? std::string_view("0") : trim(std::string_view(args).substr(comma + 1));
      auto r1 = std::from_chars(ps.data(), ps.data() + ps.size(), p);
      auto r2 = std::from_chars(ss.data(), ss.data() + ss.size(), s);
      if (r1.ec != std::errc() || r1.ptr != ps.data() + ps.size() || r2.ec != std::errc() ||
          r2.ptr != ss.data() + ss.size())
        fail(ErrorKind::kInvalidInput, "malformed type '{}'", text);
    }
    if (p < 1 || p > 18 || s < 0 || s > p)
      fail(ErrorKind::kInvalidInput, "DECIMAL({},{}) is out of range: precision 1..18, scale 0..precision", p, s);
    return decimal(p, s);
  }
  fail(ErrorKind::kInvalidInput, "unknown type '{}' (expected INT, BIGINT, DOUBLE, DECIMAL(p,s), DATE, TIMESTAMP, BOOLEAN or VARCHAR)",
       text);
}

int Type::physical_width() const {
  switch (id) {
    case TypeId::kBoolean:
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kVarchar: return 4;
    case TypeId::kTimestamp:
    case TypeId::kBigint:
    case TypeId::kDouble:
    case TypeId::kDecimal: return 8;
    default: return 0;
  }
}

std::string Type::to_string() const {
  switch (id) {
    case TypeId::kNull: return "NULL";
    case TypeId::kBoolean: return "BOOLEAN";
    case TypeId::kInteger: return "INTEGER";
    case TypeId::kBigint: return "BIGINT";
    case TypeId::kHugeint: return "HUGEINT";
    case TypeId::kDouble: return "DOUBLE";
    case TypeId::kDecimal: return fmt::format("DECIMAL({},{})", precision, scale);
    case TypeId::kDate: return "DATE";
    case TypeId::kVarchar: return "VARCHAR";
    case TypeId::kTimestamp: return "TIMESTAMP";
  }
  return "?";
}

__int128 pow10_i128(int n) {
  __int128 r = 1;
  for (int i = 0; i < n; i++) r *= 10;
  return r;
}

int64_t pow10_i64(int n) {
  static const int64_t table[19] = {1,
                                    10,
                                    100,
                                    1000,
                                    10000,
                                    100000,
                                    1000000,
                                    10000000,
                                    100000000,
                                    1000000000,
                                    10000000000LL,
                                    100000000000LL,
                                    1000000000000LL,
                                    10000000000000LL,
                                    100000000000000LL,
                                    1000000000000000LL,
                                    10000000000000000LL,
                                    100000000000000000LL,
                                    1000000000000000000LL};
  return table[n];
}

// Howard Hinnant's civil calendar algorithms (public domain formulas).
// In 64 bits: a year near either end of the int32 day range (date_trunc of such a day)
// gives a day number outside int32, which wraps to int32 here as two's complement (as
// the 32-bit arithmetic did before, without its signed overflow).
int32_t days_from_civil(int y, unsigned m, unsigned d) {
  const int64_t yy = int64_t(y) - (m <= 2 ? 1 : 0);
  const int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(yy - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<int32_t>(static_cast<uint32_t>(era * 146097 + int64_t(doe) - 719468));
}

void civil_from_days(int32_t z, int& y, unsigned& m, unsigned& d) {
  int64_t zz = int64_t(z) + 719468;
  const int64_t era = (zz >= 0 ? zz : zz - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(zz - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int>(yoe + era * 400) + (m <= 2);
}

bool parse_date(std::string_view s, int32_t& days) {
  s = trim(s);
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  int y = 0, mo = 0, d = 0;
  auto num = [&](size_t pos, size_t len, int& out) {
    auto r = std::from_chars(s.data() + pos, s.data() + pos + len, out);
    return r.ec == std::errc() && r.ptr == s.data() + pos + len;
  };
  if (!num(0, 4, y) || !num(5, 2, mo) || !num(8, 2, d)) return false;
  if (mo < 1 || mo > 12 || d < 1) return false;
  static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  int maxd = mdays[mo - 1] + (mo == 2 && leap ? 1 : 0);
  if (d > maxd) return false;
  days = days_from_civil(y, unsigned(mo), unsigned(d));
  return true;
}

std::string format_date(int32_t days) {
  int y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  return fmt::format("{:04d}-{:02d}-{:02d}", y, m, d);
}

bool parse_decimal(std::string_view s, int precision, int scale, int64_t& out) {
  s = trim(s);
  if (s.empty()) return false;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  std::string_view ip = s, fp;
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    ip = s.substr(0, dot);
    fp = s.substr(dot + 1);
  }
  if (ip.empty() && fp.empty()) return false;
  for (char c : ip)
    if (c < '0' || c > '9') return false;
  for (char c : fp)
    if (c < '0' || c > '9') return false;
  while (!fp.empty() && fp.back() == '0') fp.remove_suffix(1);
  while (ip.size() > 1 && ip.front() == '0') ip.remove_prefix(1);
  if (int(fp.size()) > scale) return false;
  int int_digits = (ip.size() == 1 && ip[0] == '0') ? 0 : int(ip.size());
  if (int_digits > precision - scale) return false;
  __int128 v = 0;
  for (char c : ip) v = v * 10 + (c - '0');
  for (char c : fp) v = v * 10 + (c - '0');
  for (int i = int(fp.size()); i < scale; i++) v *= 10;
  out = int64_t(neg ? -v : v);
  return true;
}

std::string format_int128(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  char buf[48];
  int p = 47;
  buf[p] = 0;
  while (u > 0) {
    buf[--p] = char('0' + int(u % 10));
    u /= 10;
  }
  if (neg) buf[--p] = '-';
  return std::string(buf + p);
}

std::string format_decimal(__int128 scaled, int scale) {
  if (scale == 0) return format_int128(scaled);
  bool neg = scaled < 0;
  unsigned __int128 u = neg ? (unsigned __int128)(-(scaled + 1)) + 1 : (unsigned __int128)scaled;
  unsigned __int128 p = (unsigned __int128)pow10_i128(scale);
  std::string ip = format_int128(__int128(u / p));
  std::string fp = format_int128(__int128(u % p));
  return (neg ? "-" : "") + ip + "." + std::string(size_t(scale) - fp.size(), '0') + fp;
}

}  // namespace raydb
