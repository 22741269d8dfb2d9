#include "common/utf8_text.h"

#include <clocale>
#include <cwctype>
#include <locale.h>
#include <wctype.h>

namespace raydb::utf8 {

namespace {

// One code point at s[i], or -1 when the bytes there are not a well-formed character.
int32_t decode(std::string_view s, size_t i, size_t& len) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  len = char_bytes(c);
  if (len == 1) return c < 0x80 ? c : -1;
  if (i + len > s.size()) {
    len = 1;
    return -1;
  }
  int32_t cp = c & (0x7F >> len);
  for (size_t k = 1; k < len; k++) {
    const unsigned char b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) {
      len = 1;
      return -1;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  return cp;
}

void encode(int32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// The C.UTF-8 locale, opened once; null where the C library lacks it (ASCII only then).
locale_t utf8_locale() {
  static const locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t(0));
  return loc;
}

}  // namespace

size_t length(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); n++) i += std::min(char_bytes(static_cast<unsigned char>(s[i])), s.size() - i);
  return n;
}

size_t offset_of_from(std::string_view s, uint64_t chars, size_t from) {
  size_t i = from;
  for (uint64_t k = from; k < chars && i < s.size(); k++)
    i += std::min(char_bytes(static_cast<unsigned char>(s[i])), s.size() - i);
  return i;
}

std::string change_case(std::string_view s, bool upper) {
  std::string out;
  out.reserve(s.size());
  const locale_t loc = utf8_locale();
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {  // ASCII fast path
      out += char(upper ? (c >= 'a' && c <= 'z' ? c - 32 : c) : (c >= 'A' && c <= 'Z' ? c + 32 : c));
      i++;
      continue;
    }
    size_t len = 1;
    const int32_t cp = decode(s, i, len);
    if (cp < 0 || !loc) {
      out.append(s.substr(i, len));
    } else {
      encode(int32_t(upper ? towupper_l(wint_t(cp), loc) : towlower_l(wint_t(cp), loc)), out);
    }
    i += len;
  }
  return out;
}

}  // namespace raydb::utf8
