#pragma once
// The users a server accepts and how they authenticate.
//
// Policy: with a password file, TCP clients authenticate by SCRAM-SHA-256 and Unix
// socket clients are trusted (the socket is created mode 0600, so only the server's
// own OS user can reach it). Without a password file every client is trusted, which
// the listener allows only on loopback addresses.
#include <map>
#include <optional>
#include <string>

#include "server/scram_sha256.h"

namespace raydb::server {

class Credentials {
 public:
  // No password file: trust everyone.
  Credentials() = default;
  // Reads "user:password" lines (blank lines and lines starting with '#' skipped);
  // throws raydb::Error (kInvalidInput) with file:line on a malformed line.
  static Credentials from_file(const std::string& path);

  bool has_passwords() const { return has_passwords_; }
  // The user's verifier; for an unknown user a verifier no password matches, so that
  // the exchange looks the same and the failure tells nothing about which users exist.
  ScramVerifier verifier(const std::string& user) const;
  bool known(const std::string& user) const { return users_.count(user) > 0; }

 private:
  bool has_passwords_ = false;
  std::map<std::string, ScramVerifier> users_;
};

}  // namespace raydb::server
