#pragma once
// SCRAM-SHA-256 (RFC 5802 / RFC 7677) as PostgreSQL uses it, server side, without
// channel binding. All primitives (PBKDF2, HMAC, SHA-256, random bytes, base64) come
// from OpenSSL's libcrypto.
#include <optional>
#include <string>

namespace raydb::server {

// What the server keeps of a password: never the password itself.
struct ScramVerifier {
  std::string salt;  // raw bytes
  int iterations = 4096;
  std::string stored_key;  // SHA-256(HMAC(SaltedPassword, "Client Key"))
  std::string server_key;  // HMAC(SaltedPassword, "Server Key")
};

// A verifier with a fresh random salt. Passwords are taken as given (no SASLprep), so
// ASCII passwords work with every client.
ScramVerifier make_scram_verifier(const std::string& password);

// One authentication exchange: client-first -> server-first, client-final -> server-final.
class ScramExchange {
 public:
  explicit ScramExchange(ScramVerifier verifier) : verifier_(std::move(verifier)) {}
  // The server-first message; throws ProtocolError on a malformed client-first.
  std::string server_first(const std::string& client_first);
  // The server-final message ("v=...") when the proof is right; nullopt when not.
  // Throws ProtocolError on a malformed client-final.
  std::optional<std::string> server_final(const std::string& client_final);

 private:
  ScramVerifier verifier_;
  std::string gs2_header_;
  std::string client_first_bare_;
  std::string server_first_;
  std::string nonce_;
};

std::string base64_encode(const std::string& raw);
// nullopt on malformed input.
std::optional<std::string> base64_decode(const std::string& text);

}  // namespace raydb::server
