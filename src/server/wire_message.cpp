#include "server/wire_message.h"

#include <cstring>

namespace raydb::server {

void MessageReader::need(size_t n) const {
  if (body_.size() - pos_ < n) throw ProtocolError{"message ends early"};
}

uint8_t MessageReader::byte() {
  need(1);
  return uint8_t(body_[pos_++]);
}

int16_t MessageReader::int16() {
  need(2);
  const auto* p = reinterpret_cast<const uint8_t*>(body_.data() + pos_);
  pos_ += 2;
  return int16_t(uint16_t(p[0]) << 8 | p[1]);
}

int32_t MessageReader::int32() {
  need(4);
  const auto* p = reinterpret_cast<const uint8_t*>(body_.data() + pos_);
  pos_ += 4;
  return int32_t(uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]);
}

std::string MessageReader::cstring() {
  const size_t end = body_.find('\0', pos_);
  if (end == std::string_view::npos) throw ProtocolError{"string without its terminating NUL"};
  std::string s(body_.substr(pos_, end - pos_));
  pos_ = end + 1;
  return s;
}

std::string_view MessageReader::bytes(size_t n) {
  need(n);
  std::string_view s = body_.substr(pos_, n);
  pos_ += n;
  return s;
}

void MessageWriter::begin(char type) {
  out_.push_back(type);
  start_ = out_.size();
  int32(0);  // the length, patched by end()
}

void MessageWriter::int16(int16_t v) {
  out_.push_back(char(uint16_t(v) >> 8));
  out_.push_back(char(v));
}

void MessageWriter::int32(int32_t v) {
  const uint32_t u = uint32_t(v);
  const char b[4] = {char(u >> 24), char(u >> 16), char(u >> 8), char(u)};
  out_.append(b, 4);
}

void MessageWriter::cstring(std::string_view s) {
  out_.append(s);
  out_.push_back('\0');
}

void MessageWriter::end() {
  const uint32_t len = uint32_t(out_.size() - start_);
  const char b[4] = {char(len >> 24), char(len >> 16), char(len >> 8), char(len)};
  std::memcpy(out_.data() + start_, b, 4);
}

}  // namespace raydb::server
