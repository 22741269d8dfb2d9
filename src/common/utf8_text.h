#pragma once
// UTF-8 helpers for the string functions: character counts and offsets (length,
// substr, strpos count characters, as PostgreSQL does in a UTF-8 database) and case
// mapping through the C library's C.UTF-8 locale (full Unicode simple case mapping).
// Bytes that are not valid UTF-8 count as one character each and map to themselves.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace raydb::utf8 {

// Bytes in the character that starts with `lead` (1 for a stray continuation byte).
inline size_t char_bytes(unsigned char lead) {
  return lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 1;
}

// Number of characters in s.
size_t length(std::string_view s);
// offset_of past its ASCII prefix: `from` bytes (each one character) already skipped.
size_t offset_of_from(std::string_view s, uint64_t chars, size_t from);
// Byte offset of character `chars` (0-based) of s, or s.size() when s is shorter.
// Inline over ASCII (substr(c_phone, 1, 2) over every customer row), the rest out of line.
inline size_t offset_of(std::string_view s, uint64_t chars) {
  size_t i = 0;
  while (i < chars && i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) i++;
  if (i == chars || i == s.size()) return i;
  return offset_of_from(s, chars, i);
}
// s with every character upper- (or lower-) cased.
std::string change_case(std::string_view s, bool upper);

}  // namespace raydb::utf8
