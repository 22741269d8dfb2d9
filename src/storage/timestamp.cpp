// TIMESTAMP and BOOLEAN text forms (declared in raydb/types.h).
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "raydb/types.h"

namespace raydb {

namespace {

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Exactly `len` decimal digits at `pos`.
bool digits(std::string_view s, size_t pos, size_t len, int& out) {
  if (pos + len > s.size()) return false;
  for (size_t i = pos; i < pos + len; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  std::from_chars(s.data() + pos, s.data() + pos + len, out);
  return true;
}

}  // namespace

bool parse_timestamp(std::string_view s, int64_t& micros) {
  s = trim_spaces(s);
  if (s.size() < 10) return false;
  int32_t days = 0;
  if (!parse_date(s.substr(0, 10), days)) return false;
  int year = 0;
  digits(s, 0, 4, year);
  if (year < 1) return false;
  int64_t tod = 0;  // micros within the day
  if (s.size() > 10) {
    if (s[10] != ' ' && s[10] != 'T') return false;
    int h = 0, m = 0, sec = 0;
    if (!digits(s, 11, 2, h) || s.size() < 16 || s[13] != ':' || !digits(s, 14, 2, m)) return false;
    size_t p = 16;
    if (p < s.size() && s[p] == ':') {
      if (!digits(s, p + 1, 2, sec)) return false;
      p += 3;
    }
    int64_t frac = 0;
    if (p < s.size() && s[p] == '.') {
      size_t q = p + 1, n = 0;
      for (; q < s.size() && s[q] >= '0' && s[q] <= '9'; q++, n++) {
        if (n < 6) frac = frac * 10 + (s[q] - '0');
        else if (s[q] != '0') return false;  // below a microsecond: not representable
      }
      if (n == 0 || n > 9) return false;
      for (size_t k = n; k < 6; k++) frac *= 10;
      p = q;
    }
    if (p != s.size()) return false;
    // 24:00:00 is PostgreSQL's end of day; seconds up to 59 (no leap second).
    if (m > 59 || sec > 59 || h > 24 || (h == 24 && (m || sec || frac))) return false;
    tod = ((int64_t(h) * 60 + m) * 60 + sec) * 1000000 + frac;
  }
  micros = int64_t(days) * kMicrosPerDay + tod;
  return true;
}

std::string format_timestamp(int64_t micros) {
  const int32_t days = timestamp_days(micros);
  int64_t tod = micros - int64_t(days) * kMicrosPerDay;
  const int64_t frac = tod % 1000000;
  tod /= 1000000;
  std::string out = fmt::format("{} {:02d}:{:02d}:{:02d}", format_date(days), tod / 3600, tod / 60 % 60, tod % 60);
  if (frac) {
    std::string f = fmt::format("{:06d}", frac);
    while (f.back() == '0') f.pop_back();
    out += '.';
    out += f;
  }
  return out;
}

bool parse_boolean(std::string_view s, bool& out) {
  s = trim_spaces(s);
  std::string t;
  for (char c : s) t += char(std::tolower(static_cast<unsigned char>(c)));
  if (t == "true" || t == "t" || t == "yes" || t == "y" || t == "on" || t == "1") return out = true, true;
  if (t == "false" || t == "f" || t == "no" || t == "n" || t == "off" || t == "0") return out = false, true;
  return false;
}

}  // namespace raydb
