#pragma once
// PostgreSQL frontend/backend protocol v3 messages as bytes: a reader over one
// received message body and a writer that builds backend messages (type byte,
// big-endian length, body) into an output buffer.
#include <cstdint>
#include <string>
#include <string_view>

namespace raydb::server {

// Thrown on a malformed message; the session answers 08P01 (protocol_violation).
struct ProtocolError {
  std::string message;
};

class MessageReader {
 public:
  explicit MessageReader(std::string_view body) : body_(body) {}
  uint8_t byte();
  int16_t int16();
  int32_t int32();
  std::string cstring();            // up to the NUL, which is consumed
  std::string_view bytes(size_t n);  // the next n bytes
  bool done() const { return pos_ >= body_.size(); }

 private:
  void need(size_t n) const;
  std::string_view body_;
  size_t pos_ = 0;
};

class MessageWriter {
 public:
  // Starts a message of `type` in `out`; end() patches its length.
  void begin(char type);
  void byte(uint8_t v) { out_.push_back(char(v)); }
  void int16(int16_t v);
  void int32(int32_t v);
  void cstring(std::string_view s);
  void bytes(std::string_view s) { out_.append(s); }
  void end();
  // A message with no body ('1' ParseComplete, '2' BindComplete, 'n' NoData ...).
  void empty(char type) {
    begin(type);
    end();
  }

  std::string& buffer() { return out_; }

 private:
  std::string out_;
  size_t start_ = 0;
};

}  // namespace raydb::server
