#include "cli/shell/display_width.h"

#include <locale.h>
#include <wchar.h>

#include <fmt/format.h>

#include "common/utf8_text.h"

namespace raydb::cli::shell {

namespace {

// The code point at s[i] (advancing i); a byte that is not valid UTF-8 is one column.
char32_t next_code_point(std::string_view s, size_t& i) {
  const unsigned char lead = static_cast<unsigned char>(s[i]);
  const size_t n = utf8::char_bytes(lead);
  if (n == 1 || i + n > s.size()) {
    i++;
    return lead < 0x80 ? lead : U'?';
  }
  char32_t cp = lead & (0xFF >> (n + 1));
  for (size_t k = 1; k < n; k++) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += n;
  return cp;
}

int char_width(char32_t cp) {
  if (cp < 0x80) return cp >= 0x20 && cp != 0x7F ? 1 : 0;
  // wcwidth follows LC_CTYPE: ask under C.UTF-8 whatever the process locale is.
  static locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t(0));
  if (!utf8) return 1;
  locale_t old = uselocale(utf8);
  const int w = wcwidth(wchar_t(cp));
  uselocale(old);
  return w < 0 ? 1 : w;
}

}  // namespace

size_t display_width(std::string_view s) {
  size_t w = 0;
  for (size_t i = 0; i < s.size();) w += size_t(char_width(next_code_point(s, i)));
  return w;
}

std::string fit_width(std::string_view s, size_t width) {
  if (display_width(s) <= width) return std::string(s);
  if (width == 0) return "";
  size_t used = 0, i = 0, keep = 0;
  while (i < s.size()) {
    size_t j = i;
    const size_t w = size_t(char_width(next_code_point(s, j)));
    if (used + w > width - 1) break;  // one column left for the ellipsis
    used += w;
    i = j;
    keep = i;
  }
  return std::string(s.substr(0, keep)) + "…";
}

std::string escape_controls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  return out;
}

}  // namespace raydb::cli::shell
